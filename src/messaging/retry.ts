// Messages that must arrive. A background can be stopped at any moment (Chrome stops idle service
// workers; a crash or an update does too), and a message in flight then fails or never gets its
// answer. Such a failure is a DeliveryError; an error the handler returned is not, and is final.

/** The message or its answer was lost on the way: sending it again may succeed. */
export class DeliveryError extends Error {
  override name = 'DeliveryError';
}

export interface RetryOptions {
  /** Attempts in all, the first included. */
  tries: number;
  /** Wait before the second attempt; doubled after each failure, up to `maxDelayMs`. */
  delayMs: number;
  maxDelayMs: number;
  /** An attempt with no answer after this long counts as lost. */
  timeoutMs: number;
  /** Called before each retry: the caller may give up (the page was left, say). */
  stillWanted?: () => boolean;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeliveryError(`no answer in ${ms} ms`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Runs `attempt` until it succeeds, retrying only lost deliveries. The message must be idempotent:
 * a lost answer does not mean the background did not act on it.
 */
export async function deliver<T>(attempt: () => Promise<T>, opts: RetryOptions): Promise<T> {
  let delay = opts.delayMs;
  for (let i = 1; ; i++) {
    try {
      return await withTimeout(attempt(), opts.timeoutMs);
    } catch (e) {
      if (!(e instanceof DeliveryError) || i >= opts.tries) throw e;
    }
    await sleep(delay);
    delay = Math.min(delay * 2, opts.maxDelayMs);
    if (opts.stillWanted && !opts.stillWanted()) throw new DeliveryError('no longer wanted');
  }
}
