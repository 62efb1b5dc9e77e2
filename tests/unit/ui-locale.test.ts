// Dates and numbers are written in the language of the messages beside them.
import { describe, expect, it, vi } from 'vitest';
import { message } from './messages';

const fake = vi.hoisted(() => ({ locale: 'zh_CN' as 'en' | 'zh_CN', ui: 'en-US', ready: true, asked: 0 }));
vi.mock('../../src/ext', () => ({
  default: {
    i18n: {
      getMessage: (key: string, subs: string[] = []) => {
        fake.asked++;
        return fake.ready ? message(key, subs, fake.locale) : '';
      },
      getUILanguage: () => fake.ui,
    },
  },
}));
const { rememberedMessages, t, uiLocale } = await import('../../src/ui/i18n');

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

  it('is asked of the browser once in the background, once the browser has the messages', () => {
    fake.locale = 'zh_CN';
    fake.ui = 'en-US';
    fake.ready = false;
    const { locale, message } = rememberedMessages();
    // Not ready yet: the browser's own answer, and the key, as t() gives; nothing kept.
    expect(locale()).toBe('en-US');
    expect(message('timeJustNow')).toBe('timeJustNow');
    fake.ready = true;
    expect(locale()).toBe('zh-CN');
    expect(message('timeJustNow')).toBe('刚刚');
    const asked = fake.asked;
    for (let i = 0; i < 5; i++) {
      expect(locale()).toBe('zh-CN');
      expect(message('timeJustNow')).toBe('刚刚');
    }
    expect(fake.asked).toBe(asked);
    // A message with substitutions is filled by the browser every time.
    expect(message('linkReadOn', '2026年11月22日')).toBe(message('linkReadOn', '2026年11月22日'));
    expect(message('linkReadOn', '2026年11月22日')).toBe(t('linkReadOn', '2026年11月22日'));
  });
});
