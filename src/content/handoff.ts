// What draws on the page (the notice, what is new, the link marks) is not in the script declared for
// every page the reader opens: most pages never get anything drawn, and every page pays for each
// kilobyte of that script evaluated (docs/extraction.md, "What every page pays"). It is a second
// script, drawing.ts, which the declared one imports when there is something to draw. The two share
// the content script's world (its own globals, which the page cannot see): the imported script
// leaves what it offers there.
import browser from '../ext';
import type { focusNotice, removeNotice, showNotice } from './notice';
import type { showNewParts } from './whats-new';
import type { startLinkMarks } from './link-marks';

/** drawing.ts as built: a web-accessible resource, so that the declared script can import it. */
export const DRAWING_SCRIPT = 'src/content/drawing.js';

export interface Drawing {
  showNotice: typeof showNotice;
  removeNotice: typeof removeNotice;
  focusNotice: typeof focusNotice;
  showNewParts: typeof showNewParts;
  startLinkMarks: typeof startLinkMarks;
}

/**
 * A symbol, not a name: a page's element with an id answers to that id as a property of the
 * window, in the content script's world too (Chrome), so a named global could be shadowed by the page.
 */
const KEY = Symbol.for('deja-read:drawing');

/** drawing.ts leaves what it offers for the declared script. */
export function offerDrawing(drawing: Drawing): void {
  Object.defineProperty(globalThis, KEY, { value: drawing, configurable: true });
}

/** What has been drawn with, if the drawing script has been imported yet. */
export const drawingLoaded = (): Drawing | undefined => (globalThis as Record<symbol, unknown>)[KEY] as Drawing | undefined;

let loading: Promise<Drawing> | undefined;

/** The drawing script, imported the first time it is asked for. */
export function loadDrawing(): Promise<Drawing> {
  if (loading) return loading;
  const load = (async () => {
    // The extension's own file (docs/privacy.md, "the drawing script's import"). addons-linter warns
    // of any import() of a computed address: REVIEWERS.md explains this one.
    await import(/* @vite-ignore */ browser.runtime.getURL(DRAWING_SCRIPT));
    const drawing = drawingLoaded();
    if (!drawing) throw new Error(`${DRAWING_SCRIPT} offered nothing`);
    return drawing;
  })();
  // A failed import (the extension reloaded under the page) may be tried again later.
  load.catch(() => {
    if (loading === load) loading = undefined;
  });
  return (loading = load);
}
