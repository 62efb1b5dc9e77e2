// "When" in the notice, the popup and the history: how long ago, in whole units elapsed.
import { describe, expect, it } from 'vitest';
import { relativeTime } from '../../src/ui/relative-time';

const DAY = 24 * 3600e3;
/** Noon where the tests run: days are counted by the local calendar. */
const now = new Date(2026, 10, 28, 12).getTime();
const ago = (ms: number, locale = 'en') => relativeTime(now - ms, now, locale, 'just now');

describe('relativeTime', () => {
  it('counts whole units elapsed: a page read 20 months ago was read last year, not 2 years ago', () => {
    expect(ago(20 * 30 * DAY)).toBe('last year');
    expect(ago(20 * 30 * DAY, 'zh-CN')).toBe('去年');
    expect(ago(800 * DAY)).toBe('2 years ago');
    expect(ago(30 * 3600e3)).toBe('yesterday');
    // Days by the calendar: 38 or 47 hours before noon is the day before yesterday (it said "yesterday").
    expect(ago(1.6 * DAY)).toBe('2 days ago');
    expect(ago(47 * 3600e3)).toBe('2 days ago');
    expect(ago(47 * 3600e3, 'zh-CN')).toBe('前天');
    expect(ago(50 * 60e3)).toBe('50 minutes ago');
    expect(ago(110 * 60e3)).toBe('1 hour ago');
    expect(ago(20e3)).toBe('just now');
  });
});
