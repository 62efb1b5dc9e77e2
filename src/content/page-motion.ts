// What moves the page under the content script's layer: any scroller scrolled (capture: scroll does
// not bubble), the window resized, the body resized, or replaced (Turbo and similar libraries swap
// the whole <body> on each in-app navigation). Passive listeners and observers in the content
// script's world, so the page sees no difference. Returns the function that stops watching.
export function watchPageMotion(doc: Document, win: Window, onScroll: (e: Event) => void, onResize: () => void): () => void {
  const listen = { capture: true, passive: true } as const;
  doc.addEventListener('scroll', onScroll, listen);
  win.addEventListener('resize', onResize, listen);
  const resized = typeof ResizeObserver === 'function' ? new ResizeObserver(onResize) : null;
  let body = doc.body;
  if (resized && body) resized.observe(body);
  const Observer = (win as Window & typeof globalThis).MutationObserver;
  const swapped = new Observer(() => {
    if (doc.body === body) return;
    if (body) resized?.unobserve(body);
    body = doc.body;
    if (body) resized?.observe(body);
    onResize();
  });
  swapped.observe(doc.documentElement, { childList: true });
  return () => {
    doc.removeEventListener('scroll', onScroll, listen);
    win.removeEventListener('resize', onResize, listen);
    resized?.disconnect();
    swapped.disconnect();
  };
}
