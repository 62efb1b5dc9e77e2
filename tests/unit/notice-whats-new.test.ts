// @vitest-environment jsdom
// What the notice says of what is new, in English and Chinese, and how "Show what's new" is
// stepped through from the keyboard and the buttons.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { NoticeMatch } from '../../src/messaging/protocol';
import { message, type MESSAGES } from './messages';

const fake = vi.hoisted(() => ({ locale: 'en' as keyof typeof MESSAGES }));
vi.mock('../../src/ext', () => ({
  default: { i18n: { getMessage: (key: string, subs: string[] = []) => message(key, subs, fake.locale), getUILanguage: () => 'en' } },
}));

const { describeFresh, describeReadShare } = await import('../../src/ui/similarity');
const { removeNotice, showNotice } = await import('../../src/content/notice');

const parts = (n: number) => Array.from({ length: n }, (_, k) => [2 * k]);

describe('the wording of what is new', () => {
  afterEach(() => void (fake.locale = 'en'));

  it('gives the share read and the number of new paragraphs', () => {
    expect(describeFresh({ read: 0.8, parts: parts(3) })).toBe("You've read 80% of this — 3 new paragraphs");
    expect(describeFresh({ read: 0.93, parts: parts(1) })).toBe("You've read 93% of this — 1 new paragraph");
    expect(describeFresh({ read: 1, parts: [] })).toBe('Nothing new since you read it');
    expect(describeFresh({ read: 0.35, parts: parts(2), readUpTo: 0.35 })).toBe('You read the first 35% — continue where the preview ended');
    // Never "100 %" of a page that has something new.
    expect(describeFresh({ read: 0.998, parts: parts(1) })).toBe("You've read 99% of this — 1 new paragraph");
    expect(describeReadShare({ read: 0.8, parts: parts(3) })).toBe('read 80%');
    // Where the notice says nothing is new, the popup's list does not give a share short of 100%.
    expect(describeReadShare({ read: 0.96, parts: [] })).toBe('nothing new');
  });

  it('says it in Chinese', () => {
    fake.locale = 'zh_CN';
    expect(describeFresh({ read: 0.8, parts: parts(3) })).toBe('你读过其中的 80%，有 3 段是新的');
    expect(describeFresh({ read: 1, parts: [] })).toBe('自你读过以来没有新内容');
    expect(describeFresh({ read: 0.35, parts: parts(2), readUpTo: 0.35 })).toBe('你读过前 35%，可从预览结束处接着读');
    expect(describeReadShare({ read: 0.8, parts: parts(3) })).toBe('读过 80%');
    expect(describeReadShare({ read: 0.96, parts: [] })).toBe('没有新内容');
  });
});

describe('"Show what\'s new" in the notice', () => {
  const match: NoticeMatch = { url: 'https://a.example/story', title: 'The story', kind: 'contains-earlier', when: '2 days ago', fresh: { read: 0.8, parts: parts(3) } };

  /** Shows the notice and hands back its closed shadow root (captured as it is attached). */
  function shownNotice(actions: Parameters<typeof showNotice>[2], shown: NoticeMatch = match): ShadowRoot {
    let root: ShadowRoot | undefined;
    const attach = Element.prototype.attachShadow;
    const spy = vi.spyOn(Element.prototype, 'attachShadow').mockImplementation(function (this: Element, init) {
      root = attach.call(this, init);
      return root;
    });
    showNotice(shown, 0, actions);
    spy.mockRestore();
    if (!root) throw new Error('no shadow root');
    return root;
  }
  /** What an element of the notice shows (its generated content, isolates left out). */
  const drawn = (e: Element | null | undefined) => e?.getAttribute('data-text')?.replace(/[\u2066-\u2069]/g, '');
  const button = (root: ShadowRoot, label: string) => [...root.querySelectorAll('button')].find((b) => drawn(b) === label) as HTMLButtonElement;
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

  it('steps through the new parts with the buttons and keys, announces where it is, and Esc clears', async () => {
    const went: number[] = [];
    let cleared = 0;
    let within: ParentNode | undefined;
    const root = shownNotice({
      notSame: () => undefined,
      showWhatsNew: async (w) => {
        within = w;
        const view = { count: 3, current: -1, go: (k: number) => (went.push((view.current = ((k % 3) + 3) % 3)), null), clear: () => void cleared++ };
        return view;
      },
    });
    expect(drawn(root.querySelector('.fresh'))).toBe("You've read 80% of this — 3 new paragraphs");
    const show = button(root, "Show what's new");
    expect(show.hidden).toBe(false);
    expect(button(root, 'Next').hidden).toBe(true);
    show.click();
    await settle();
    expect(within).toBe(root);
    expect(went).toEqual([0]);
    expect(drawn(root.querySelector('.fresh'))).toBe('New part 1 of 3');
    expect(drawn(root.querySelector('[role=status].sr'))).toContain('3 new parts marked on the page.');
    button(root, 'Next').click();
    root.querySelector('.box')?.dispatchEvent(new KeyboardEvent('keydown', { key: 'n', bubbles: true }));
    root.querySelector('.box')?.dispatchEvent(new KeyboardEvent('keydown', { key: 'p', bubbles: true }));
    button(root, 'Previous').click();
    expect(went).toEqual([0, 1, 2, 1, 0]);
    expect(drawn(root.querySelector('.fresh'))).toBe('New part 1 of 3');
    root.querySelector('.box')?.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    expect(cleared).toBe(1);
    expect(drawn(root.querySelector('.fresh'))).toBe("You've read 80% of this — 3 new paragraphs");
    expect(button(root, "Show what's new").hidden).toBe(false);
    expect(document.querySelector('[data-deja-read=notice]')).not.toBeNull();
    removeNotice();
  });

  it('has no "Show what\'s new" when nothing is new, and the same rows either way', () => {
    const root = shownNotice({ notSame: () => undefined });
    const rows = [...(root.querySelector('.box')?.children ?? [])].map((e) => e.className);
    expect(button(root, "Show what's new").hidden).toBe(true);
    removeNotice();
    const other = shownNotice({ notSame: () => undefined, showWhatsNew: async () => ({ count: 0, current: -1, go: () => null, clear: () => undefined }) });
    expect([...(other.querySelector('.box')?.children ?? [])].map((e) => e.className)).toEqual(rows);
    removeNotice();
  });

  it('takes as many Tab presses to cross whether something is new or not: its buttons are one toolbar, walked with the arrow keys', async () => {
    /** What Tab stops at in the notice, in order (focusable elements shown, not taken out of the Tab order). */
    const stops = (root: ShadowRoot) =>
      [...root.querySelectorAll<HTMLElement>('a[href], button')].filter((e) => !e.closest('[hidden]') && !e.hidden && e.tabIndex >= 0).map(drawn);
    const arrow = (root: ShadowRoot, key: string) => {
      const event = new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true });
      (root.activeElement ?? root).dispatchEvent(event);
      return event.defaultPrevented;
    };
    const nothingNew = shownNotice({ notSame: () => undefined });
    expect(stops(nothingNew)).toEqual(['The story', 'Dismiss']);
    removeNotice();
    const root = shownNotice({ notSame: () => undefined, showWhatsNew: async () => ({ count: 2, current: -1, go: () => null, clear: () => undefined }) });
    expect(stops(root)).toEqual(['The story', "Show what's new"]);
    expect(root.querySelector('[role=toolbar]')?.getAttribute('aria-label')).toBe("You've read this before");
    button(root, "Show what's new").focus();
    const walked = [];
    for (const key of ['ArrowRight', 'ArrowRight', 'ArrowRight', 'ArrowLeft', 'End', 'Home']) {
      expect(arrow(root, key)).toBe(true);
      walked.push(drawn(root.activeElement));
    }
    expect(walked).toEqual(['Dismiss', 'Not the same', "Show what's new", 'Not the same', 'Not the same', "Show what's new"]);
    // Stepping through the new parts: still one stop, now at the button that has the focus.
    button(root, "Show what's new").click();
    await settle();
    expect(drawn(root.activeElement)).toBe('Next');
    expect(stops(root)).toEqual(['The story', 'Next']);
    removeNotice();
  });

  it('keeps its Tab stops when the page read before has an address no browser opens (kept from an import): the title is then a link marked unavailable', () => {
    const focusable = (root: ShadowRoot) =>
      [...root.querySelectorAll<HTMLElement>('a[href], button, [tabindex]')].filter((e) => !e.closest('[hidden]') && !e.hidden && e.tabIndex >= 0).map((e) => [e.localName, drawn(e), e.localName === 'a' ? (e.hasAttribute('href') ? 'href' : e.getAttribute('aria-disabled')) : '']);
    const usual = shownNotice({ notSame: () => undefined });
    expect(focusable(usual)).toEqual([
      ['a', 'The story', 'href'],
      ['button', 'Dismiss', ''],
    ]);
    removeNotice();
    const long = `https://a.example/${'x'.repeat(9000)}`;
    const unopenable = shownNotice({ notSame: () => undefined }, { ...match, url: long });
    expect(focusable(unopenable)).toEqual([
      ['a', 'The story', 'true'],
      ['button', 'Dismiss', ''],
    ]);
    expect(unopenable.querySelector('.what a')?.getAttribute('role')).toBe('link');
    removeNotice();
  });

  it('holds no text the page could search for (window.find reaches into closed roots): all it says is generated content', () => {
    const root = shownNotice({ notSame: () => undefined, showWhatsNew: async () => ({ count: 2, current: -1, go: () => null, clear: () => undefined }) });
    const texts: string[] = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) if (n.parentElement?.localName !== 'style') texts.push(n.nodeValue ?? '');
    expect(texts).toEqual([]);
    expect(drawn(root.querySelector('.head'))).toBe("You've read this before");
    expect(drawn(root.querySelector('a'))).toBe('The story');
    // The title is isolated, so a right-to-left one cannot reorder the words around it.
    expect(root.querySelector('a')?.getAttribute('data-text')).toBe('\u2068The story\u2069');
    expect(drawn(root.querySelector('.meta'))).toBe(' — a.example, 2 days ago · contains most of what you read');
    // Controls are named for screen readers and checkers, which do not read generated content from the DOM.
    expect(button(root, "Show what's new").getAttribute('aria-label')).toBe("Show what's new");
    removeNotice();
  });

  it('takes no key event the page makes up: a made-up Esc does not clear the marks and move the focus into the notice', async () => {
    let cleared = 0;
    const root = shownNotice({ notSame: () => undefined, showWhatsNew: async () => ({ count: 2, current: -1, go: () => null, clear: () => void cleared++ }) });
    button(root, "Show what's new").click();
    await settle();
    const outside = document.createElement('input');
    document.body.append(outside);
    outside.focus();
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    expect(cleared).toBe(0);
    expect(document.activeElement).toBe(outside);
    outside.remove();
    removeNotice();
  });

  it('gives the focus back to where it came from when closed from the keyboard', () => {
    const before = document.createElement('button');
    document.body.append(before);
    before.focus();
    const root = shownNotice({ notSame: () => undefined });
    button(root, 'Dismiss').focus();
    button(root, 'Dismiss').click();
    expect(document.querySelector('[data-deja-read=notice]')).toBeNull();
    expect(document.activeElement).toBe(before);
    before.remove();
  });
});
