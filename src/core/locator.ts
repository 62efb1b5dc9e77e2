// Where a passage is on its own page, in a form the content script can find in the page's DOM
// without the article's text: its first and last few characters, spaces left out (the DOM and the
// extracted text space and break lines differently). Made from the page's own text, for that page.

/** Characters (not counting spaces) kept from each end of a passage. */
export const LOCATOR_CHARS = 24;

export interface PassageLocator {
  /** The passage's first LOCATOR_CHARS characters without spaces (all of it if short). */
  head: string;
  /** Its last LOCATOR_CHARS characters without spaces ('' if `head` holds it all). */
  tail: string;
  /** Its length without spaces. */
  length: number;
}

/**
 * Characters that show nothing and break no word: the soft hyphen, the zero-width space, the word
 * joiner and the zero-width no-break space. Some sites put them inside words (hyphenation points,
 * break opportunities): the extraction leaves them out, and the finder skips them in the page.
 */
const INVISIBLE_CHARS = '\u00ad\u200b\u2060\ufeff';
export const INVISIBLE = new RegExp(`[${INVISIBLE_CHARS}]`, 'g');
/** A character the finder skips in the page's text: a space, a line break or an invisible one. */
export const SKIPPED_CHAR = new RegExp(`[\\s${INVISIBLE_CHARS}]`);
const SKIPPED_RUNS = new RegExp(`[\\s${INVISIBLE_CHARS}]+`, 'g');

/** The text without any space, line break or invisible character: what the finder compares. */
export const withoutSpaces = (s: string) => s.replace(SKIPPED_RUNS, '');

/**
 * A pattern that finds text given without spaces (a locator's head) in a page's text as written:
 * spaces, line breaks and invisible characters may stand between any two of its characters.
 */
export function spacedPattern(compact: string): RegExp {
  return new RegExp([...compact].map((c) => c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join(`[\\s${INVISIBLE_CHARS}]*`), 'u');
}

export function passageLocator(text: string, start: number, end: number): PassageLocator {
  const compact = withoutSpaces(text.slice(start, end));
  if (compact.length <= 2 * LOCATOR_CHARS) return { head: compact, tail: '', length: compact.length };
  return { head: compact.slice(0, LOCATOR_CHARS), tail: compact.slice(-LOCATOR_CHARS), length: compact.length };
}
