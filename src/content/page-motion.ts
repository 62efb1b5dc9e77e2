// What moves the page under the content script's layer: any scroller scrolled (capture: scroll does
// not bubble), the window resized, the body resized. Passive listeners in the content script's
// world, so the page sees no difference. Returns the function that stops watching.
export function watchPageMotion(doc: Document, win: Window, onScroll: (e: Event) => void, onResize: () => void): () => void {
  const listen = { capture: true, passive: true } as const;
  doc.addEventListener('scroll', onScroll, listen);
  win.addEventListener('resize', onResize, listen);
  const resized = typeof ResizeObserver === 'function' ? new ResizeObserver(onResize) : null;
  if (resized && doc.body) resized.observe(doc.body);
  return () => {
    doc.removeEventListener('scroll', onScroll, listen);
    win.removeEventListener('resize', onResize, listen);
    resized?.disconnect();
  };
}
