// The settings half of the options page: every change is saved at once to storage.sync.
import { SENSITIVITY } from '../core';
import ext from '../ext';
import { isExcluded, LIMITS, normalizeSitePattern, SUGGESTED_EXCLUSIONS, type Settings } from '../settings/settings';
import { loadSettings, onSettingsChanged, saveSettings } from '../settings/settings-store';
import { isolate, isolated, listOf, localizedNodes } from '../ui/bidi';
import { sitePatternName } from '../ui/site';
import { errorText } from '../ui/error-text';
import { t } from '../ui/i18n';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

function fill(s: Settings): void {
  for (const radio of document.querySelectorAll<HTMLInputElement>('input[name="sensitivity"]')) radio.checked = radio.value === s.sensitivity;
  const minWords = $<HTMLInputElement>('min-words');
  minWords.value = s.minWords === null ? '' : String(s.minWords);
  minWords.placeholder = String(SENSITIVITY[s.sensitivity].minWords);
  $('min-words-hint').textContent = t('optionsMinWordsHint', SENSITIVITY[s.sensitivity].minWords);
  $<HTMLInputElement>('dwell').value = String(s.dwellSeconds);
  // The number fields now show what is saved: one refused before is no longer marked so.
  for (const field of [minWords, $<HTMLInputElement>('dwell')]) accepted(field);
  $<HTMLInputElement>('show-notice').checked = s.showNotice;
  for (const radio of document.querySelectorAll<HTMLInputElement>('input[name="link-marks"]')) radio.checked = radio.value === s.linkMarks;
  $<HTMLInputElement>('record-private').checked = s.recordPrivate;
  $<HTMLInputElement>('paused').checked = s.paused;
  const list = $<HTMLUListElement>('excluded');
  list.replaceChildren(
    ...s.excludedSites.map((site) => {
      const li = document.createElement('li');
      const name = isolated(sitePatternName(site));
      const remove = document.createElement('button');
      remove.type = 'button';
      remove.textContent = '×';
      remove.setAttribute('aria-label', t('optionsRemoveSite', isolate(sitePatternName(site))));
      remove.addEventListener('click', () => {
        // The list is drawn again: the focus goes to the next site's ×, or the previous one's, or the field.
        const at = s.excludedSites.indexOf(site);
        void save((now) => ({ excludedSites: now.excludedSites.filter((x) => x !== site) })).then(() => {
          const buttons = list.querySelectorAll('button');
          (buttons[Math.min(at, buttons.length - 1)] ?? $('new-site')).focus();
        });
      });
      li.append(name, remove);
      return li;
    }),
  );
  if (s.excludedSites.length === 0) {
    const li = document.createElement('li');
    li.textContent = t('optionsNoExcluded');
    list.append(li);
  }
}

/** Counts what the status line was asked to say: only the latest is said. */
let said = 0;
/** Says `text` in the status line (emptied first, so that a screen reader says "Saved." again for the next change too). */
async function say(text: string | Node[]): Promise<void> {
  const mine = ++said;
  const status = $('settings-status');
  status.textContent = '';
  await new Promise((resolve) => setTimeout(resolve, 50));
  if (mine !== said) return;
  if (typeof text === 'string') status.textContent = text;
  else status.replaceChildren(...text);
}

/** Saves, and says so; false (with the reason shown) if nothing was saved. */
async function save(changes: Parameters<typeof saveSettings>[0]): Promise<boolean> {
  try {
    fill(await saveSettings(changes));
    void say(t('optionsSaved'));
    return true;
  } catch (e) {
    void say(errorText(e));
    return false;
  }
}

/** A number field no longer marked as refused: its message under it hidden. */
function accepted(input: HTMLInputElement): void {
  input.removeAttribute('aria-invalid');
  input.removeAttribute('aria-describedby');
  const error = document.getElementById(`${input.id}-error`);
  if (error) {
    error.hidden = true;
    error.textContent = '';
  }
}

/**
 * The whole number in a number field, or null (the field then says what it takes, right under it
 * and in the status line, and nothing is saved): no silent clamping of -3 to 5, and an empty field
 * is 0 only where the reader wrote 0.
 */
function wholeNumberIn(input: HTMLInputElement, max: number): number | null {
  // Full-width digits as typed with a Chinese or Japanese input method (０８０) are digits.
  const text = input.value.normalize('NFKC').trim();
  const n = Number(text);
  const ok = text !== '' && /^\d+$/.test(text) && n <= max;
  if (ok) {
    accepted(input);
    return n;
  }
  const message = t('optionsNumberRange', 0, max);
  input.setAttribute('aria-invalid', 'true');
  // The field is described by what it takes, shown under it, and shows that it was refused.
  const error = $(`${input.id}-error`);
  error.textContent = message;
  error.hidden = false;
  input.setAttribute('aria-describedby', error.id);
  // The status line says it too, at once (a "Saved." on its way is dropped).
  ++said;
  $('settings-status').textContent = message;
  return null;
}

export async function initSettingsForm(): Promise<void> {
  fill(await loadSettings());
  // Firefox keeps an extension out of private windows until the reader allows it there (about:addons),
  // Chrome until "Allow in Incognito": the option then does nothing, and says where to allow it.
  void (async () => {
    $('private-not-allowed').hidden = (await ext.extension?.isAllowedIncognitoAccess?.()) !== false;
  })().catch(() => undefined);
  onSettingsChanged(fill);
  for (const radio of document.querySelectorAll<HTMLInputElement>('input[name="sensitivity"]')) {
    radio.addEventListener('change', () => void save({ sensitivity: radio.value as Settings['sensitivity'] }));
  }
  $<HTMLInputElement>('min-words').addEventListener('change', (e) => {
    const input = e.target as HTMLInputElement;
    // Empty: the sensitivity's own default.
    if (input.value.trim() === '') {
      accepted(input);
      return void save({ minWords: null });
    }
    const n = wholeNumberIn(input, LIMITS.minWords);
    if (n !== null) void save({ minWords: n });
  });
  $<HTMLInputElement>('dwell').addEventListener('change', (e) => {
    const n = wholeNumberIn(e.target as HTMLInputElement, LIMITS.dwellSeconds);
    if (n !== null) void save({ dwellSeconds: n });
  });
  for (const radio of document.querySelectorAll<HTMLInputElement>('input[name="link-marks"]')) {
    radio.addEventListener('change', () => void save({ linkMarks: radio.value as Settings['linkMarks'] }));
  }
  $<HTMLInputElement>('show-notice').addEventListener('change', (e) => void save({ showNotice: (e.target as HTMLInputElement).checked }));
  $<HTMLInputElement>('record-private').addEventListener('change', (e) => void save({ recordPrivate: (e.target as HTMLInputElement).checked }));
  $<HTMLInputElement>('paused').addEventListener('change', (e) => void save({ paused: (e.target as HTMLInputElement).checked }));
  $<HTMLFormElement>('add-site').addEventListener('submit', (e) => {
    e.preventDefault();
    const input = $<HTMLInputElement>('new-site');
    // Nothing typed (or spaces only): nothing to add, and nothing to say.
    if (!input.value.trim()) return void (input.value = '');
    const site = normalizeSitePattern(input.value);
    if (!site) {
      ++said;
      // What was typed, as typed, cut short where it is long (and said to be).
      const typed = input.value.trim();
      $('settings-status').replaceChildren(...localizedNodes('optionsBadSite', [isolated(typed.length > 100 ? `${typed.slice(0, 99)}…` : typed)]));
      return;
    }
    void loadSettings().then((now) => {
      // A site the list covers already (itself, or a domain or path above it): said so, rather than "Saved." for nothing.
      if (isExcluded(`http://${site}`, now.excludedSites)) {
        input.value = '';
        return void say(localizedNodes('optionsSiteListed', [isolated(sitePatternName(site))]));
      }
      // Entries the new one covers (a page or path of it, a subdomain) go: the list keeps no entry
      // that does nothing, and says which it took away.
      const covered = (entry: string) => isExcluded(`http://${entry}`, [site]);
      const dropped = now.excludedSites.filter(covered);
      // The field is emptied once the site is saved: a site that could not be added stays to be seen.
      void save((latest) => ({ excludedSites: [...latest.excludedSites.filter((e) => !covered(e)), site] })).then((saved) => {
        if (!saved) return;
        input.value = '';
        if (dropped.length) void say(localizedNodes('optionsSiteCoversOthers', [isolated(sitePatternName(site)), listOf(dropped.map(sitePatternName))]));
        // A pasted page address excludes that page (or path) only: said, with what would exclude the site.
        else if (site.includes('/')) {
          const whole = sitePatternName(site.slice(0, site.indexOf('/')).replace(/^www\./, ''));
          void say(localizedNodes('optionsSavedPart', [isolated(sitePatternName(site)), isolated(whole), isolated(whole)]));
        }
      });
    });
  });
  $('add-suggested').addEventListener('click', () => {
    void loadSettings().then((now) => {
      if (SUGGESTED_EXCLUSIONS.every((s) => now.excludedSites.includes(s))) return void say(t('optionsSuggestedListed'));
      void save((latest) => ({ excludedSites: [...latest.excludedSites, ...SUGGESTED_EXCLUSIONS] }));
    });
  });
}
