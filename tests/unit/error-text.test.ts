// What a reader is told when something fails: a failure they can act on in their language, a bad
// record found by the background in the words of the import's other problems, and anything else
// by its name only, never in the background's English.
import { describe, expect, it, vi } from 'vitest';
import { checkPages, LIMITS, StorageFullError } from '../../src/storage';
import { DeliveryError } from '../../src/messaging/retry';
import { HistoryClearedError, ImportClearedError } from '../../src/options/history-transfer';
import { message } from './messages';

vi.mock('../../src/ext', () => ({
  default: { i18n: { getMessage: (key: string, subs: string[] = []) => message(key, subs, 'zh_CN'), getUILanguage: () => 'zh-CN' } },
}));

/** An error as it reaches a page from the background: its name and message only (messaging/router.ts, send.ts). */
function crossed(e: Error): Error {
  const copy = new Error(e.message);
  copy.name = e.name;
  return copy;
}

describe('errorText', () => {
  it('says what to do about the failures a reader can act on', async () => {
    const { errorText } = await import('../../src/ui/error-text');
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(errorText(crossed(new StorageFullError()))).toBe(message('errorStorageFull', [], 'zh_CN'));
    expect(errorText(new DeliveryError('no answer in 20000 ms'))).toBe(message('errorNoAnswer', [], 'zh_CN'));
    expect(errorText(new HistoryClearedError())).toBe(message('errorHistoryCleared', [], 'zh_CN'));
    expect(errorText(new ImportClearedError())).toBe('导入此文件期间，阅读记录在另一个标签页中被清除了，因此文件中的内容都没有导入。如需这些页面，请重新导入该文件。');
    expect(errorText(crossed(new TypeError('bad import id')))).toBe('出了点问题（TypeError），请再试一次。');
  });

  it('words a bad record the background found as the options page words one', async () => {
    const { errorText } = await import('../../src/ui/error-text');
    let thrown: unknown;
    try {
      checkPages([{ url: 'javascript:alert(1)' }], Date.now());
    } catch (e) {
      thrown = e;
    }
    expect(errorText(crossed(thrown as Error))).toBe(`没有导入任何内容：第 \u20681\u2069 个页面："\u2068url\u2069" 必须是不超过 \u2068${LIMITS.urlLength}\u2069 个字符的 http(s) 网址。`);
  });
});
