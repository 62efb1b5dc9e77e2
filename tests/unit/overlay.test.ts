// The overlay layer: what the page can see of it is the same whatever it draws.
import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { createOverlay } from '../../src/content/overlay';

const page = () => new JSDOM('<!doctype html><body><p><a href="/a">A</a> <a href="/b">B</a></p></body>', { pretendToBeVisual: true }).window.document;

const serialised = (d: Document) => new (d.defaultView as Window & typeof globalThis).XMLSerializer().serializeToString(d);

/** Everything the page's scripts can read of the host. */
const seenByPage = (d: Document) => {
  const host = d.documentElement.lastElementChild as HTMLElement;
  return { tag: host.tagName, attributes: [...host.attributes].map((a) => `${a.name}=${a.value}`), shadow: host.shadowRoot, children: host.childElementCount, html: serialised(d) };
};

describe('the overlay', () => {
  it('is one host with a closed root, fixed, taking no pointer events', () => {
    const d = page();
    createOverlay(d);
    const host = d.documentElement.lastElementChild as HTMLElement;
    expect(host.tagName).toBe('DEJA-READ-OVERLAY');
    expect(host.shadowRoot).toBeNull();
    expect(host.style.getPropertyValue('pointer-events')).toBe('none');
    expect(host.style.getPropertyPriority('pointer-events')).toBe('important');
    expect(host.style.getPropertyValue('position')).toBe('fixed');
  });

  it('looks the same to the page with marks shown, unshown or none, and with a tip', () => {
    const seen = (draw: (o: ReturnType<typeof createOverlay>, links: Element[]) => void) => {
      const d = page();
      const o = createOverlay(d);
      draw(o, [...d.querySelectorAll('a')]);
      return seenByPage(d);
    };
    const none = seen(() => undefined);
    expect(seen((o, links) => o.set('links', links.map((anchor) => ({ anchor, boxClass: 'read', label: 'read' }))))).toEqual(none);
    expect(seen((o, links) => o.set('links', links.map((anchor) => ({ anchor, label: 'read', shown: false }))))).toEqual(none);
    expect(seen((o, links) => o.showTip(links[0], ['Read yesterday']))).toEqual(none);
  });

  it('leaves the page as it was once destroyed', () => {
    const d = page();
    const before = serialised(d);
    const o = createOverlay(d);
    o.set('links', [{ anchor: d.querySelector('a') as Element, label: 'read' }]);
    o.destroy();
    expect(serialised(d)).toBe(before);
  });
});
