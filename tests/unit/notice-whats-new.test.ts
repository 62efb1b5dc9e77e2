// @vitest-environment jsdom
// What the notice says of what is new, in English and Chinese, and how "Show what's new" is
// stepped through from the keyboard and the buttons: the content script's half (the host on the
// page, the marks) and the frame's (what the reader sees) joined as in the browser.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { NoticeMatch } from '../../src/messaging/protocol';
import { message, type MESSAGES } from './messages';

const fake = vi.hoisted(() => ({ locale: 'en' as keyof typeof MESSAGES }));
vi.mock('../../src/ext', () => ({
  default: {
    i18n: { getMessage: (key: string, subs: string[] = []) => message(key, subs, fake.locale), getUILanguage: () => 'en' },
    runtime: { id: 'ext', getURL: (path: string) => `chrome-extension://ext/${path}` },
  },
}));

const { describeFresh, describeReadShare } = await import('../../src/ui/similarity');
const { focusNotice, removeNotice, showNotice } = await import('../../src/content/notice');
const { awaitChannel, renderNotice } = await import('../../src/notice/view');

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
    // After a preview, the list gives the notice's share: up to where the preview ended.
    expect(describeReadShare({ read: 0.37, parts: parts(2), readUpTo: 0.35 })).toBe('read the first 35%');
  });

  it('says it in Chinese', () => {
    fake.locale = 'zh_CN';
    expect(describeFresh({ read: 0.8, parts: parts(3) })).toBe('你读过其中的 80%，有 3 段是新的');
    expect(describeFresh({ read: 1, parts: [] })).toBe('自你读过以来没有新内容');
    expect(describeFresh({ read: 0.35, parts: parts(2), readUpTo: 0.35 })).toBe('你读过前 35%，可从预览结束处接着读');
    expect(describeReadShare({ read: 0.8, parts: parts(3) })).toBe('读过 80%');
    expect(describeReadShare({ read: 0.96, parts: [] })).toBe('没有新内容');
    expect(describeReadShare({ read: 0.37, parts: parts(2), readUpTo: 0.35 })).toBe('读过前 35%');
  });
});

describe('"Show what\'s new" in the notice', () => {
  const match: NoticeMatch = { url: 'https://a.example/story', title: 'The story', kind: 'contains-earlier', when: '2 days ago', fresh: { read: 0.8, parts: parts(3) } };

  interface Shown {
    /** The page's host and its closed root (captured as it is attached). */
    host: Element;
    root: ShadowRoot;
    /** The frame's document, where the notice is drawn. */
    frame: Document;
  }

  /**
   * Shows the notice as the browser would: the content script makes the host and the frame; the
   * frame "loads", the content script hands it its end of the channel, and the frame's page (drawn
   * here in a document of its own: jsdom loads no extension page) takes it and draws what comes.
   */
  async function shownNotice(actions: Parameters<typeof showNotice>[2], shown: NoticeMatch = match, more = 0): Promise<Shown> {
    let root: ShadowRoot | undefined;
    const attach = Element.prototype.attachShadow;
    const spy = vi.spyOn(Element.prototype, 'attachShadow').mockImplementation(function (this: Element, init) {
      root = attach.call(this, init);
      return root;
    });
    // jsdom gives a frame in a shadow root no window: the frame's window, as far as the content script uses it.
    const handed = vi.fn();
    const sentTo = vi.fn();
    const windowSpy = vi.spyOn(HTMLIFrameElement.prototype, 'contentWindow', 'get').mockReturnValue({ postMessage: handed, location: { replace: sentTo } } as unknown as Window);
    showNotice(shown, more, actions);
    spy.mockRestore();
    if (!root) throw new Error('no shadow root');
    const iframe = root.querySelector('iframe');
    if (!iframe) throw new Error('no frame');
    // The frame names no address (a page may get hold of the element in Firefox): it is sent to the
    // notice's page, with its one-time name, from the content script.
    expect(iframe.hasAttribute('src')).toBe(false);
    expect(sentTo).toHaveBeenCalledTimes(1);
    const [address] = sentTo.mock.calls[0] as [string];
    const [page, name] = address.split('#');
    expect(page).toBe('chrome-extension://ext/src/notice/index.html');
    expect(name).toMatch(/^[0-9a-f]{32}$/);
    iframe.dispatchEvent(new Event('load'));
    windowSpy.mockRestore();
    const [hello, origin, ports] = handed.mock.calls[0] as unknown as [unknown, string, MessagePort[]];
    // Only the extension's own frame may get it: the message goes to the extension's origin alone.
    expect(origin).toBe('chrome-extension://ext');
    // The frame's page: a document with a window of its own (focus moves within it).
    const holder = document.createElement('iframe');
    document.body.append(holder);
    frames.push(holder);
    const frame = holder.contentDocument as Document;
    const frameWindow = holder.contentWindow as Window;
    let taken: MessagePort | undefined;
    awaitChannel(frameWindow, name, (port) => (taken = port));
    frameWindow.dispatchEvent(new MessageEvent('message', { data: hello, ports }));
    if (!taken) throw new Error('the frame took no channel');
    const port = taken;
    port.onmessage = (event) => {
      const m = event.data as Parameters<ReturnType<typeof renderNotice>>[0];
      if (m.type === 'show') take = renderNotice(frame, m.data, (out) => port.postMessage(out));
      else take?.(m);
    };
    let take: ReturnType<typeof renderNotice> | undefined;
    await vi.waitFor(() => expect(take).toBeDefined());
    return { host: root.host, root, frame };
  }
  /** What an element of the notice shows (its generated content, isolates left out). */
  const drawn = (e: Element | null | undefined) => e?.getAttribute('data-text')?.replace(/[\u2066-\u2069]/g, '');
  const button = (doc: Document, label: string) => [...doc.querySelectorAll('button')].find((b) => drawn(b) === label) as HTMLButtonElement;
  /** Lets the channel's messages both ways through. */
  const settle = () => new Promise((resolve) => setTimeout(resolve, 20));
  const key = (target: Element | null | undefined, k: string) => target?.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true }));

  const frames: HTMLIFrameElement[] = [];
  afterEach(() => {
    removeNotice();
    for (const f of frames.splice(0)) f.remove();
  });
  /** New parts as the page would have them: `count` of them, each step logged in `went`. */
  const fakeParts = (count: number, went: number[] = [], onClear = () => undefined) => {
    const view = {
      count,
      current: -1,
      go: (k: number) => (went.push((view.current = ((k % count) + count) % count)), null),
      clear: onClear,
    };
    return view;
  };

  it('steps through the new parts with the buttons and keys, announces where it is, and Esc clears', async () => {
    const went: number[] = [];
    let cleared = 0;
    let within: ParentNode | undefined;
    const { root, frame } = await shownNotice({
      notSame: () => undefined,
      showWhatsNew: async (w) => {
        within = w;
        return fakeParts(3, went, () => void cleared++);
      },
    });
    expect(drawn(frame.querySelector('.fresh'))).toBe("You've read 80% of this — 3 new paragraphs");
    const show = button(frame, "Show what's new");
    expect(show.hidden).toBe(false);
    expect(button(frame, 'Next').hidden).toBe(true);
    show.click();
    await settle();
    // The marks are drawn on the page, in the host's closed root; the notice says what was found.
    expect(within).toBe(root);
    expect(went).toEqual([0]);
    expect(drawn(frame.querySelector('.fresh'))).toBe('New part 1 of 3');
    expect(drawn(frame.querySelector('[role=status].sr'))).toContain('3 new parts marked on the page.');
    button(frame, 'Next').click();
    await settle();
    key(frame.querySelector('.box'), 'n');
    await settle();
    key(frame.querySelector('.box'), 'p');
    await settle();
    button(frame, 'Previous').click();
    await settle();
    expect(went).toEqual([0, 1, 2, 1, 0]);
    expect(drawn(frame.querySelector('.fresh'))).toBe('New part 1 of 3');
    key(frame.querySelector('.box'), 'Escape');
    await settle();
    expect(cleared).toBe(1);
    expect(drawn(frame.querySelector('.fresh'))).toBe("You've read 80% of this — 3 new paragraphs");
    expect(button(frame, "Show what's new").hidden).toBe(false);
    expect(document.querySelector('[data-deja-read=notice]')).not.toBeNull();
    // Esc again, nothing marked now: the notice closes once the key is up (the whole key press goes to the notice).
    key(frame.querySelector('.box'), 'Escape');
    await settle();
    expect(document.querySelector('[data-deja-read=notice]')).not.toBeNull();
    frame.querySelector('.box')?.dispatchEvent(new KeyboardEvent('keyup', { key: 'Escape', bubbles: true }));
    await settle();
    expect(document.querySelector('[data-deja-read=notice]')).toBeNull();
  });

  it('has no "Show what\'s new" when nothing is new, and the same rows either way', async () => {
    const { frame } = await shownNotice({ notSame: () => undefined });
    const rows = [...(frame.querySelector('.box')?.children ?? [])].map((e) => e.className);
    expect(button(frame, "Show what's new").hidden).toBe(true);
    removeNotice();
    const other = await shownNotice({ notSame: () => undefined, showWhatsNew: async () => ({ count: 0, current: -1, go: () => null, clear: () => undefined }) });
    expect([...(other.frame.querySelector('.box')?.children ?? [])].map((e) => e.className)).toEqual(rows);
  });

  it('names this very page, as read on the visit before, where it has changed: no "Not the same" (it is the same page), the rows as ever', async () => {
    const { frame } = await shownNotice({ notSame: () => undefined });
    const rows = [...(frame.querySelector('.box')?.children ?? [])].map((e) => e.className);
    removeNotice();
    const own: NoticeMatch = { url: 'https://a.example/story', title: 'The story', kind: 'earlier-visit', when: '3 days ago', fresh: { read: 0.9, parts: parts(1) } };
    const shown = await shownNotice({ notSame: () => undefined, showWhatsNew: async () => fakeParts(1) }, own);
    expect([...(shown.frame.querySelector('.box')?.children ?? [])].map((e) => e.className)).toEqual(rows);
    expect(shown.frame.querySelector('.meta')?.getAttribute('data-text')).toContain('an earlier version of this page');
    expect(drawn(shown.frame.querySelector('.fresh'))).toBe("You've read 90% of this — 1 new paragraph");
    expect(button(shown.frame, 'Not the same').hidden).toBe(true);
    button(shown.frame, "Show what's new").click();
    await settle();
    button(shown.frame, 'Clear').click();
    await settle();
    expect(button(shown.frame, 'Not the same').hidden).toBe(true);
  });

  it('takes as many Tab presses to cross whether something is new or not: its buttons are one toolbar, walked with the arrow keys', async () => {
    /** What Tab stops at in the notice, in order (focusable elements shown, not taken out of the Tab order). */
    const stops = (doc: Document) => [...doc.querySelectorAll<HTMLElement>('a[href], button')].filter((e) => !e.closest('[hidden]') && !e.hidden && e.tabIndex >= 0).map(drawn);
    const arrow = (doc: Document, k: string) => {
      const event = new KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true });
      (doc.activeElement ?? doc).dispatchEvent(event);
      return event.defaultPrevented;
    };
    const nothingNew = await shownNotice({ notSame: () => undefined });
    expect(stops(nothingNew.frame)).toEqual(['The story', 'Dismiss']);
    removeNotice();
    const { frame } = await shownNotice({ notSame: () => undefined, showWhatsNew: async () => fakeParts(2) });
    expect(stops(frame)).toEqual(['The story', "Show what's new"]);
    expect(frame.querySelector('[role=toolbar]')?.getAttribute('aria-label')).toBe("You've read this before");
    button(frame, "Show what's new").focus();
    const walked = [];
    for (const k of ['ArrowRight', 'ArrowRight', 'ArrowRight', 'ArrowLeft', 'End', 'Home']) {
      expect(arrow(frame, k)).toBe(true);
      walked.push(drawn(frame.activeElement));
    }
    expect(walked).toEqual(['Dismiss', 'Not the same', "Show what's new", 'Not the same', 'Not the same', "Show what's new"]);
    // Stepping through the new parts: still one stop, now at the button that has the focus.
    button(frame, "Show what's new").click();
    await settle();
    expect(drawn(frame.activeElement)).toBe('Next');
    expect(stops(frame)).toEqual(['The story', 'Next']);
  });

  it('opens the list of every page that matches from "See all" on its heading line, there only when more than one does', async () => {
    const stops = (doc: Document) => [...doc.querySelectorAll<HTMLElement>('a[href], button')].filter((e) => !e.closest('[hidden]') && !e.hidden && e.tabIndex >= 0).map(drawn);
    const one = await shownNotice({ notSame: () => undefined });
    expect(stops(one.frame)).toEqual(['The story', 'Dismiss']);
    removeNotice();
    let asked = 0;
    const { frame } = await shownNotice({ notSame: () => undefined, showMatches: () => void asked++ }, match, 2);
    // The closest page is named, and two more match: three in all.
    const all = button(frame, 'See all 3');
    expect(all.closest('.head')).not.toBeNull();
    expect(stops(frame)).toEqual(['See all 3', 'The story', 'Dismiss']);
    all.click();
    await settle();
    expect(asked).toBe(1);
    // It is a request, not a close: the notice stays.
    expect(document.querySelector('[data-deja-read=notice]')).not.toBeNull();
    removeNotice();
    // Naming this page's earlier version, with two pages elsewhere that match: the list holds those two.
    const own = await shownNotice({ notSame: () => undefined, showMatches: () => undefined }, { ...match, kind: 'earlier-visit' }, 2);
    expect(stops(own.frame)[0]).toBe('See all 2');
  });

  it('keeps its Tab stops when the page read before has an address no browser opens (kept from an import): the title is then a link marked unavailable', async () => {
    const focusable = (doc: Document) =>
      [...doc.querySelectorAll<HTMLElement>('a[href], button, [tabindex]')].filter((e) => !e.closest('[hidden]') && !e.hidden && e.tabIndex >= 0).map((e) => [e.localName, drawn(e), e.localName === 'a' ? (e.hasAttribute('href') ? 'href' : e.getAttribute('aria-disabled')) : '']);
    const usual = await shownNotice({ notSame: () => undefined });
    expect(focusable(usual.frame)).toEqual([
      ['a', 'The story', 'href'],
      ['button', 'Dismiss', ''],
    ]);
    removeNotice();
    const long = `https://a.example/${'x'.repeat(9000)}`;
    const unopenable = await shownNotice({ notSame: () => undefined }, { ...match, url: long });
    expect(focusable(unopenable.frame)).toEqual([
      ['a', 'The story', 'true'],
      ['button', 'Dismiss', ''],
    ]);
    expect(unopenable.frame.querySelector('.what a')?.getAttribute('role')).toBe('link');
  });

  it('puts nothing of what it says in the page: the page holds a host, a closed root and a frame of the extension; the frame draws its text as generated content', async () => {
    const { root, frame } = await shownNotice({ notSame: () => undefined, showWhatsNew: async () => fakeParts(2) });
    // On the page: no text, no title, no address; the frame's one-time name is all its address holds.
    const onPage = [...root.querySelectorAll('*')].flatMap((e) => [e.localName, ...[...e.attributes].map((a) => a.value)]).join(' ') + root.textContent;
    expect(onPage).not.toMatch(/story|a\.example/i);
    expect([...root.querySelectorAll('*')].map((e) => e.localName)).toEqual(['style', 'style', 'iframe']);
    // In the frame: no text node either (a page cannot reach into it, and would find nothing to search).
    const texts: string[] = [];
    const walker = frame.createTreeWalker(frame.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) texts.push(n.nodeValue ?? '');
    expect(texts).toEqual([]);
    expect(drawn(frame.querySelector('.head'))).toBe("You've read this before");
    expect(drawn(frame.querySelector('a'))).toBe('The story');
    // The title is isolated, so a right-to-left one cannot reorder the words around it.
    expect(frame.querySelector('a')?.getAttribute('data-text')).toBe('\u2068The story\u2069');
    expect(drawn(frame.querySelector('.meta'))).toBe(' — a.example, 2 days ago · contains most of what you read');
    // A site in another script is named as the reader knows it.
    const idn = await shownNotice({ notSame: () => undefined }, { ...match, url: 'https://www.xn--fsqu00a.example/story' });
    expect(drawn(idn.frame.querySelector('.meta'))).toBe(' — 例子.example, 2 days ago · contains most of what you read');
    // A page that holds all of the page read (or nearly) is not said to hold "most" of it.
    const whole = await shownNotice({ notSame: () => undefined }, { ...match, containment: 1 });
    expect(drawn(whole.frame.querySelector('.meta'))).toBe(' — a.example, 2 days ago · contains what you read');
    const most = await shownNotice({ notSame: () => undefined }, { ...match, containment: 0.8 });
    expect(drawn(most.frame.querySelector('.meta'))).toBe(' — a.example, 2 days ago · contains most of what you read');
    // A page on the site of the page shown is named with its path: the site alone would not say which it was.
    const here = await shownNotice({ notSame: () => undefined }, { ...match, url: new URL('/print/story?p=2', location.href).href });
    expect(drawn(here.frame.querySelector('.meta'))).toBe(` — ${location.hostname}/print/story?p=2, 2 days ago · contains most of what you read`);
    // Controls are named for screen readers and checkers, which do not read generated content from the DOM.
    expect(button(frame, "Show what's new").getAttribute('aria-label')).toBe("Show what's new");
  });

  it('takes no channel but the one its content script hands it: another name, a second channel, or a message without one are ignored', () => {
    const win = new EventTarget() as unknown as Window;
    const taken: MessagePort[] = [];
    awaitChannel(win, 'abc', (port) => taken.push(port));
    const channel = () => new MessageChannel().port2;
    win.dispatchEvent(new MessageEvent('message', { data: { notice: 'abd' }, ports: [channel()] }));
    win.dispatchEvent(new MessageEvent('message', { data: { notice: 'abc' } }));
    win.dispatchEvent(new MessageEvent('message', { data: 'abc', ports: [channel()] }));
    expect(taken).toHaveLength(0);
    const right = channel();
    win.dispatchEvent(new MessageEvent('message', { data: { notice: 'abc' }, ports: [right] }));
    win.dispatchEvent(new MessageEvent('message', { data: { notice: 'abc' }, ports: [channel()] }));
    expect(taken).toEqual([right]);
  });

  it('takes no key event the page makes up: a made-up Esc does not clear the marks', async () => {
    let cleared = 0;
    const { frame } = await shownNotice({ notSame: () => undefined, showWhatsNew: async () => fakeParts(2, [], () => void cleared++) });
    button(frame, "Show what's new").click();
    await settle();
    const outside = document.createElement('input');
    document.body.append(outside);
    outside.focus();
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    await settle();
    expect(cleared).toBe(0);
    expect(drawn(frame.querySelector('.fresh'))).toBe('New part 1 of 2');
    expect(document.activeElement).toBe(outside);
    outside.remove();
  });

  it('gives the focus back to where it came from when closed from the keyboard, and its shortcut focuses the title', async () => {
    const before = document.createElement('button');
    document.body.append(before);
    before.focus();
    const { frame } = await shownNotice({ notSame: () => undefined });
    // The reader's shortcut: the frame takes the focus, and in it the title's link.
    focusNotice();
    await settle();
    expect(drawn(frame.activeElement)).toBe('The story');
    button(frame, 'Dismiss').click();
    await settle();
    expect(document.querySelector('[data-deja-read=notice]')).toBeNull();
    expect(document.activeElement).toBe(before);
    before.remove();
  });

  it('draws nothing on a sandboxed page (an opaque origin), where its frame could not run: the badge tells', () => {
    const origin = Object.getOwnPropertyDescriptor(window, 'origin');
    Object.defineProperty(window, 'origin', { value: 'null', configurable: true });
    try {
      showNotice(match, 0, { notSame: () => undefined });
      expect(document.querySelector('[data-deja-read=notice]')).toBeNull();
    } finally {
      if (origin) Object.defineProperty(window, 'origin', origin);
      else delete (window as { origin?: string }).origin;
    }
    showNotice(match, 0, { notSame: () => undefined });
    expect(document.querySelector('[data-deja-read=notice]')).not.toBeNull();
  });

  it("waits for the page to finish loading before it puts its frame there (a frame holds up its page's load event)", () => {
    const state = vi.spyOn(document, 'readyState', 'get').mockReturnValue('interactive');
    try {
      showNotice(match, 0, { notSame: () => undefined });
      expect(document.querySelector('[data-deja-read=notice]')).toBeNull();
      window.dispatchEvent(new Event('load'));
      expect(document.querySelector('[data-deja-read=notice]')).not.toBeNull();
    } finally {
      state.mockRestore();
    }
  });

  it("follows the page's window: narrower, with its buttons on two rows, when the window is", async () => {
    const { frame } = await shownNotice({ notSame: () => undefined });
    const sizes: number[] = [];
    const width = vi.spyOn(window, 'innerWidth', 'get');
    try {
      for (const w of [1280, 420]) {
        width.mockReturnValue(w);
        window.dispatchEvent(new Event('resize'));
        await settle();
        sizes.push(Number.parseInt(frame.documentElement.style.getPropertyValue('--room'), 10));
        expect(frame.documentElement.classList.contains('narrow'), `${w} px`).toBe(w <= 460);
      }
    } finally {
      width.mockRestore();
    }
    expect(sizes).toEqual([1280, 420]);
  });
});
