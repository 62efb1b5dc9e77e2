// Text the extension draws on a page (the notice, link marks and their tips) is CSS generated
// content, never a text node. A closed shadow root hides its nodes from the page's scripts, but not
// its text: `window.find()` searches it (in Chromium and Firefox, clipped or transparent text
// included), and in Chromium the selection it leaves can be extended and read out
// (`getSelection().modify()`, `toString()`). Generated content is neither found nor selected, and
// screen readers read it as they read text. Untrusted parts go in isolated (ui/bidi.ts `isolate`):
// only text can go in an attribute.

/** The rule that draws an element's text; every shadow root that draws text includes it. */
export const DRAWN_TEXT_CSS = '[data-text]::before { content: attr(data-text); }';

/** Draws `text` as the element's content (it must have no children of its own). */
export function drawText<E extends Element>(e: E, text: string): E {
  e.setAttribute('data-text', text);
  return e;
}

/** The same for a control (a button, a link): its accessible name too, which checkers read from the DOM. */
export function drawLabel<E extends Element>(e: E, text: string): E {
  e.setAttribute('aria-label', text);
  return drawText(e, text);
}

