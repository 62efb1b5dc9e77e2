// Dates and numbers are written in the language of the messages beside them.
import { describe, expect, it, vi } from 'vitest';
import { message } from './messages';

const fake = vi.hoisted(() => ({ locale: 'zh_CN' as 'en' | 'zh_CN', ui: 'en-US' }));
vi.mock('../../src/ext', () => ({
  default: { i18n: { getMessage: (key: string, subs: string[] = []) => message(key, subs, fake.locale), getUILanguage: () => fake.ui } },
}));
const { t, uiLocale } = await import('../../src/ui/i18n');

const day = (locale: string) => new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(Date.UTC(2026, 10, 22));

describe('the UI locale', () => {
  it('is the language of the messages, whatever getUILanguage says (Chrome’s worker says en-US as it starts in a Chinese browser)', () => {
    fake.locale = 'zh_CN';
    fake.ui = 'en-US';
    expect(uiLocale()).toBe('zh-CN');
    expect(t('linkReadOn', day(uiLocale()))).toBe(message('linkReadOn', ['2026年11月22日'], 'zh_CN'));
    fake.locale = 'en';
    fake.ui = 'zh-CN';
    expect(uiLocale()).toBe('en');
    expect(t('linkReadOn', day(uiLocale()))).toBe('Read on Nov 22, 2026');
  });
});
