// "3 days ago", in the reader's language.

const UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 24 * 3600e3],
  ['month', 30 * 24 * 3600e3],
  ['week', 7 * 24 * 3600e3],
  ['day', 24 * 3600e3],
  ['hour', 3600e3],
  ['minute', 60e3],
];

/**
 * Formatters made once per language: making one took 35-45 µs in Node here, for every notice, and
 * a list of a hundred pages made two hundred.
 */
const relative = new Map<string | undefined, Intl.RelativeTimeFormat>();
const absolute = new Map<string | undefined, Intl.DateTimeFormat>();
function formatter<F>(made: Map<string | undefined, F>, locale: string | undefined, make: () => F): F {
  let f = made.get(locale);
  if (!f) made.set(locale, (f = make()));
  return f;
}

/**
 * How long ago `then` was, in whole units elapsed: 20 months ago is "last year" (去年), as 36
 * hours ago is "yesterday", not "2 years ago" (rounded, it said so: a new-user review). Under a
 * minute it is `justNow`, the _locales message "timeJustNow" (Intl says "现在", "now", where a
 * reader says "刚刚", "just now"); kept a parameter so this stays free of browser APIs (the
 * background's handlers run in Node tests).
 */
export function relativeTime(then: number, now: number, locale: string | undefined, justNow: string): string {
  const elapsed = then - now;
  const format = formatter(relative, locale, () => new Intl.RelativeTimeFormat(locale, { numeric: 'auto' }));
  for (const [unit, ms] of UNITS) {
    // Days as the calendar counts them where the reader is: two days ago is the day before yesterday
    // (前天), however few hours past 24 it was (in whole 24-hour days elapsed, it said 昨天).
    if (Math.abs(elapsed) >= ms) return unit === 'day' ? format.format(calendarDays(then, now), 'day') : format.format(Math.trunc(elapsed / ms), unit);
  }
  return justNow;
}

/** Calendar days from `now`'s to `then`'s, in local time (negative for the past). */
export function calendarDays(then: number, now: number): number {
  const midnight = (t: number) => new Date(t).setHours(0, 0, 0, 0);
  return Math.round((midnight(then) - midnight(now)) / (24 * 3600e3));
}

/** The date and time itself, for a tooltip and for `<time datetime>` ("22 Nov 2026, 10:06"). */
export function absoluteTime(then: number, locale: string | undefined): string {
  return formatter(absolute, locale, () => new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' })).format(then);
}
