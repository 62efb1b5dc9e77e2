// The notice's "Show what's new" for the scripts that drive real Chromium (the demo, bench:page):
// the marks are in the notice host's closed shadow root, which the DevTools protocol reaches and page
// scripts cannot; the buttons are in the notice's frame (the extension's page, src/notice).
import type { CDPSession, Page } from 'playwright-core';

interface DomNode {
  localName?: string;
  nodeName: string;
  nodeValue?: string;
  backendNodeId: number;
  attributes?: string[];
  children?: DomNode[];
  shadowRoots?: DomNode[];
}

/** How many "what's new" boxes are drawn; given a `label`, first clicks the notice's button of that label. */
export async function showWhatsNew(page: Page, cdp: CDPSession, label?: string): Promise<number> {
  if (label) {
    const frame = page.frames().find((f) => f.url().includes('/src/notice/index.html'));
    // A button's label is drawn as generated content from its data-text (src/content/drawn-text.ts).
    const clicked = await frame?.evaluate((l) => {
      const button = [...document.querySelectorAll('button')].find((b) => b.getAttribute('data-text') === l);
      button?.click();
      return button !== undefined;
    }, label);
    if (!clicked) throw new Error(`no "${label}" button in the notice`);
  }
  const { root } = (await cdp.send('DOM.getDocument', { depth: -1, pierce: true })) as unknown as { root: DomNode };
  let boxes = 0;
  const walk = (n: DomNode) => {
    if (n.localName === 'div' && /\bbox new\b/.test((n.attributes ?? []).join(' '))) boxes++;
    [...(n.children ?? []), ...(n.shadowRoots ?? [])].forEach(walk);
  };
  walk(root);
  return boxes;
}
