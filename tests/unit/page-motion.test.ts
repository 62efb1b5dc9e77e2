// @vitest-environment jsdom
// The layer follows the page's body even when the page swaps it for another (Turbo does so on every
// in-app navigation): the new body is watched for size changes, and the layer is placed again.
import { describe, expect, it, vi } from 'vitest';
import { watchPageMotion } from '../../src/content/page-motion';

describe('page motion', () => {
  it('watches the body the page puts in place of the old one', async () => {
    const observed = new Set<Element>();
    vi.stubGlobal(
      'ResizeObserver',
      class {
        observe(e: Element) {
          observed.add(e);
        }
        unobserve(e: Element) {
          observed.delete(e);
        }
        disconnect() {
          observed.clear();
        }
      },
    );
    const onResize = vi.fn();
    const stop = watchPageMotion(document, window, () => undefined, onResize);
    expect([...observed]).toEqual([document.body]);
    const next = document.createElement('body');
    document.documentElement.replaceChild(next, document.body);
    await vi.waitFor(() => expect([...observed]).toEqual([next]));
    expect(onResize).toHaveBeenCalled();
    stop();
    expect(observed.size).toBe(0);
    vi.unstubAllGlobals();
  });
});
