// Counts how long the page has been visible, and calls back once that reaches the dwell time.
// A page opened in a background tab and closed unseen never reaches it. The count can be paused
// (a single-page app changing its address: the view is checked again before it counts on) and
// resumed where it stopped.

export interface VisibleTimer {
  /** Stops counting, keeping the time counted so far. */
  pause(): void;
  /** Counts on (while the page is visible). */
  resume(): void;
  /** Stops for good: `done` is never called. */
  stop(): void;
}

/** A timer that calls `done` once the page has been visible for `seconds` while resumed; it starts paused. */
export function visibleTimer(doc: Document, seconds: number, done: () => void): VisibleTimer {
  let visibleMs = 0;
  let since: number | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let finished = false;
  let paused = true;

  const stop = () => {
    finished = true;
    clearTimeout(timer);
    doc.removeEventListener('visibilitychange', update);
  };
  function update(): void {
    if (finished) return;
    const now = performance.now();
    if (since !== null) visibleMs += now - since;
    since = null;
    clearTimeout(timer);
    if (paused || doc.visibilityState !== 'visible') return;
    since = now;
    const remaining = seconds * 1000 - visibleMs;
    if (remaining > 0) timer = setTimeout(update, remaining);
    else {
      stop();
      done();
    }
  }
  doc.addEventListener('visibilitychange', update);
  return {
    pause() {
      update();
      paused = true;
      update();
    },
    resume() {
      paused = false;
      update();
    },
    stop,
  };
}
