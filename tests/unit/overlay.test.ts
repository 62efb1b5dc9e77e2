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

/** A page whose closed shadow roots the test can reach (captured as they are attached). */
function pageKeepingRoot() {
  const d = page();
  const win = d.defaultView as Window & typeof globalThis;
  let root: ShadowRoot | undefined;
  const attach = win.Element.prototype.attachShadow;
  win.Element.prototype.attachShadow = function (init) {
    return (root = attach.call(this, init));
  };
  return { d, win, root: () => root };
}

describe('the overlay', () => {
  it('is one host with a closed root, fixed, taking no pointer events', () => {
    const d = page();
    createOverlay(d);
    const host = d.documentElement.lastElementChild as HTMLElement;
    // A built-in element: a custom element's name would let a page that defined it read the closed root (attachInternals).
    expect([host.localName, host.getAttribute('data-deja-read')]).toEqual(['div', 'overlay']);
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
    expect(seen((o, links) => o.showTip(links[0], 'Read yesterday'))).toEqual(none);
  });

  it('holds no text node: labels and tips are drawn as generated content, which window.find cannot search', () => {
    const { d, root: shadow } = pageKeepingRoot();
    const o = createOverlay(d);
    const links = [...d.querySelectorAll('a')];
    o.set('links', links.map((anchor, i) => ({ anchor, label: 'read', shown: i === 0 })));
    o.showTip(links[0], 'Read on Nov 3, 2025 · a copy of \u2068Another title\u2069');
    const root = shadow();
    if (!root) throw new Error('no shadow root');
    const texts: string[] = [];
    const walker = d.createTreeWalker(root, 4 /* NodeFilter.SHOW_TEXT */);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) if (n.parentElement?.localName !== 'style') texts.push(n.nodeValue ?? '');
    expect(texts).toEqual([]);
    expect([...root.querySelectorAll('.label')].map((l) => l.getAttribute('data-text'))).toEqual(['read', 'read']);
    expect(root.querySelector('.tip')?.getAttribute('data-text')).toContain('a copy of');
    expect(root.querySelector('style')?.textContent).toContain('content: attr(data-text)');
    o.hideTip();
    expect(root.querySelector('.tip')?.getAttribute('data-text')).toBe('');
  });

  it('leaves the page as it was once destroyed', () => {
    const d = page();
    const before = serialised(d);
    const o = createOverlay(d);
    o.set('links', [{ anchor: d.querySelector('a') as Element, label: 'read' }]);
    o.destroy();
    expect(serialised(d)).toBe(before);
  });

  it('keeps the marks it is asked for again drawn, with no frame without them, and drops the others', async () => {
    const { d, win, root: shadow } = pageKeepingRoot();
    const links = [...d.querySelectorAll('a')];
    // jsdom lays nothing out: each link gets a rect in view.
    links.forEach((a, i) => (a.getClientRects = () => [new win.DOMRect(10 + 40 * i, 10, 30, 16)] as unknown as DOMRectList));
    const o = createOverlay(d);
    const labels = () => [...(shadow()?.querySelectorAll('.label') ?? [])] as HTMLElement[];
    const frame = () => new Promise((resolve) => win.requestAnimationFrame(resolve));

    o.set('links', links.map((anchor) => ({ anchor, label: 'read', shown: true })));
    await frame();
    const drawn = labels();
    expect(drawn.map((l) => l.hidden)).toEqual([false, false]);
    // Asked for again (as after every scroll that brings a block into view): the same labels, shown meanwhile.
    o.set('links', links.map((anchor) => ({ anchor, label: 'read', shown: true })));
    expect(labels()).toEqual(drawn);
    expect(labels().map((l) => l.hidden)).toEqual([false, false]);
    // One changed: that one is drawn anew, the other kept; one gone: removed.
    o.set('links', [{ anchor: links[0], label: 'read', shown: true }, { anchor: links[1], label: 'read', shown: false }]);
    await frame();
    expect(labels()[0]).toBe(drawn[0]);
    expect(labels()[1]).not.toBe(drawn[1]);
    expect(labels()[1].classList.contains('unshown')).toBe(true);
    // Set from a frame's callback and placed at once: drawn in that frame, not the next.
    o.set('links', [{ anchor: links[1], label: 'read', shown: false }, { anchor: links[0], label: 'read', shown: false }]);
    expect(labels()[1].hidden).toBe(true);
    o.placeNow();
    expect(labels().map((l) => l.hidden)).toEqual([false, false]);
    o.set('links', [{ anchor: links[1], label: 'read', shown: false }]);
    expect(labels()).toHaveLength(1);
    o.set('links', []);
    expect(labels()).toHaveLength(0);
  });
});
