// Counts how long the page has been visible, and calls back once that reaches the dwell time.
// A page opened in a background tab and closed unseen never reaches it.

export function afterVisibleFor(doc: Document, seconds: number, done: () => void): () => void {
  let visibleMs = 0;
  let since: number | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let finished = false;

  const finish = () => {
    if (finished) return;
    finished = true;
    stop();
    done();
  };
  const update = () => {
    if (finished) return;
    const now = performance.now();
    if (since !== null) visibleMs += now - since;
    clearTimeout(timer);
    if (doc.visibilityState === 'visible') {
      since = now;
      const remaining = seconds * 1000 - visibleMs;
      if (remaining <= 0) finish();
      else timer = setTimeout(update, remaining);
    } else {
      since = null;
    }
  };
  const stop = () => {
    clearTimeout(timer);
    doc.removeEventListener('visibilitychange', update);
  };
  doc.addEventListener('visibilitychange', update);
  update();
  return () => {
    finished = true;
    stop();
  };
}
