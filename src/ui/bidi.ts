// Text we did not write (titles, URLs, sites, what an imported file says) shown in our UI. Each
// piece is isolated (<bdi dir="auto">, or FSI…PDI where only text can go), so its direction cannot
// reorder the words around it, and loses its embedding and override characters, so it cannot show
// its own letters in another order than they are ("Invoice \u202Efdp.exe" as "Invoice exe.pdf").
import { t, uiLocale } from './i18n';

// LRE, RLE, PDF, LRO, RLO: the legacy controls that re-order or re-level what follows them.
const EMBEDDINGS = /[\u202A-\u202E]/g;
// C0 and C1 controls (a bell, an escape, DEL), which a page may put in its title and the screen
// draws as boxes; line breaks and tabs among them, which stand between words, become spaces.
// eslint-disable-next-line no-control-regex -- the controls are what it finds
const CONTROLS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u0084\u0086-\u009F]/g;
const BREAKS = /[\t\n\r\u0085]/g;
// eslint-disable-next-line no-control-regex -- the controls are what it finds
const ANY_CONTROL = /[\u0000-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/;
const FSI = '\u2068';
const PDI = '\u2069';

/**
 * The text without embeddings and overrides, with its own isolates balanced: a stray PDI could
 * close the isolate around it, an unclosed one would swallow our closing PDI. Without C0 and C1
 * controls either (since 29 November 2026: a title's escape and bell showed as boxes, a review).
 */
export function bidiSafe(text: string): string {
  if (!ANY_CONTROL.test(text)) return text;
  let depth = 0;
  let out = '';
  for (const ch of text.replace(EMBEDDINGS, '').replace(CONTROLS, '').replace(BREAKS, ' ')) {
    if (ch === '\u2066' || ch === '\u2067' || ch === FSI) depth++;
    else if (ch === PDI) {
      if (depth === 0) continue;
      depth--;
    }
    out += ch;
  }
  return out + PDI.repeat(depth);
}

/** Untrusted text inside a string (an attribute, a tooltip, a sentence that is only text). */
export function isolate(text: string): string {
  return FSI + bidiSafe(text) + PDI;
}

/** Untrusted text as an element: `<bdi dir="auto">` isolates it and takes its direction from it. */
export function isolated(text: string, doc: Document = document): HTMLElement {
  const bdi = doc.createElement('bdi');
  bdi.dir = 'auto';
  bdi.textContent = bidiSafe(text);
  return bdi;
}

// Private-use marks stand for the parts while the browser fills the message.
const mark = (i: number) => `\uE000${i}\uE001`;

/**
 * The message `key` as nodes, its $1, $2… filled with `parts`: strings and numbers as text,
 * nodes (an isolated title) in place. The sentence reads as `t` would write it.
 */
export function localizedNodes(key: string, parts: Array<string | number | Node>, doc: Document = document): Node[] {
  return t(key, ...parts.map((_, i) => mark(i)))
    .split(/(\uE000\d\uE001)/)
    .filter((piece) => piece !== '')
    .map((piece) => {
      const at = /^\uE000(\d)\uE001$/.exec(piece);
      const part = at ? parts[Number(at[1])] : piece;
      return typeof part === 'object' ? part : doc.createTextNode(String(part));
    });
}

/** Names joined as the reader's language joins a list ("a, b and c"), each isolated. */
export function listOf(names: string[], doc: Document = document): Node {
  const span = doc.createElement('span');
  for (const part of new Intl.ListFormat(uiLocale(), { type: 'conjunction' }).formatToParts(names)) span.append(part.type === 'element' ? isolated(part.value, doc) : part.value);
  return span;
}
