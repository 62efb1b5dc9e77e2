// The notice's "Show what's new" for the scripts that drive real Chromium (the demo, bench:page):
// the notice is in a closed shadow root, which the DevTools protocol reaches and page scripts cannot.
import type { CDPSession } from 'playwright-core';

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
export async function showWhatsNew(cdp: CDPSession, label?: string): Promise<number> {
  const { root } = (await cdp.send('DOM.getDocument', { depth: -1, pierce: true })) as unknown as { root: DomNode };
  let boxes = 0;
  let button: DomNode | undefined;
  const walk = (n: DomNode) => {
    if (n.localName === 'div' && /\bbox new\b/.test((n.attributes ?? []).join(' '))) boxes++;
    // A button's label is drawn as generated content from its data-text (src/content/drawn-text.ts).
    if (label && n.nodeName === 'BUTTON' && (n.attributes ?? []).some((v, i) => i % 2 === 1 && n.attributes?.[i - 1] === 'data-text' && v === label)) button = n;
    [...(n.children ?? []), ...(n.shadowRoots ?? [])].forEach(walk);
  };
  walk(root);
  if (label) {
    if (!button) throw new Error(`no "${label}" button in the notice`);
    const { object } = (await cdp.send('DOM.resolveNode', { backendNodeId: button.backendNodeId })) as { object: { objectId: string } };
    await cdp.send('Runtime.callFunctionOn', { objectId: object.objectId, functionDeclaration: 'function () { this.click(); }' });
  }
  return boxes;
}
