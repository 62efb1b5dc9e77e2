// "When" in the notice, the popup and the history: how long ago, in whole units elapsed.
import { describe, expect, it } from 'vitest';
import { relativeTime } from '../../src/ui/relative-time';

const DAY = 24 * 3600e3;
const now = Date.UTC(2026, 10, 28, 12);
const ago = (ms: number, locale = 'en') => relativeTime(now - ms, now, locale, 'just now');

describe('relativeTime', () => {
  it('counts whole units elapsed: a page read 20 months ago was read last year, not 2 years ago', () => {
    expect(ago(20 * 30 * DAY)).toBe('last year');
    expect(ago(20 * 30 * DAY, 'zh-CN')).toBe('去年');
    expect(ago(800 * DAY)).toBe('2 years ago');
    expect(ago(1.6 * DAY)).toBe('yesterday');
    expect(ago(50 * 60e3)).toBe('50 minutes ago');
    expect(ago(110 * 60e3)).toBe('1 hour ago');
    expect(ago(20e3)).toBe('just now');
  });
});
