// A past moment as the pages show it: "3 days ago" in a <time> whose datetime and title hold the
// date itself (on hover, and for assistive technology); base.css also shows that date beside it
// while keyboard focus is in its item.
import { t, uiLocale } from './i18n';
import { absoluteTime, relativeTime } from './relative-time';

export function timeAgo(then: number, now: number, doc: Document = document): HTMLTimeElement {
  const time = doc.createElement('time');
  time.dateTime = new Date(then).toISOString();
  time.title = absoluteTime(then, uiLocale());
  time.textContent = relativeTime(then, now, uiLocale(), t('timeJustNow'));
  return time;
}
