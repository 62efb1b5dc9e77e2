// What both browser suites check the same way.
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { pinnedVectors, VECTORS } from '../fixtures/vectors';
import type { Site } from './site';

/** The minimal page surface both Playwright and Puppeteer pages offer. */
interface AnyPage {
  goto(url: string): Promise<unknown>;
  evaluate<R>(fn: () => R): Promise<Awaited<R>>;
}

/** Opens a page and waits until the extension has checked it (recorded or not). */
export async function openAndSettle(page: AnyPage, url: string): Promise<void> {
  await page.goto(url);
  // The content script runs at document idle and answers within a few hundred milliseconds.
  await new Promise((resolve) => setTimeout(resolve, 1500));
}

/**
 * Which of the words the extension draws (the notice's heading and buttons, a link's tip) the page's
 * own script finds with window.find(), which searches closed shadow roots too (clipped and
 * transparent text included): none, since the extension draws its text as generated content.
 */
export function foundByPage(page: AnyPage): Promise<string[]> {
  return page.evaluate(() => {
    const find = (window as unknown as { find(text: string, caseSensitive: boolean, backwards: boolean, wrap: boolean): boolean }).find.bind(window);
    const found = ["You've read this before", 'Not the same', 'Dismiss', 'Read on', 'Read today', 'Read before'].filter((word) => {
      getSelection()?.removeAllRanges();
      return find(word, false, false, true);
    });
    getSelection()?.removeAllRanges();
    return found;
  });
}

/** Whether the in-page notice is on the page and visible (its content is in a closed shadow root). */
export function noticeShown(page: AnyPage): Promise<boolean> {
  return page.evaluate(() => {
    const host = document.querySelector('[data-deja-read=notice]');
    if (!host) return false;
    const box = host.getBoundingClientRect();
    return box.width > 0 && box.height > 0;
  });
}

/**
 * Presses Escape with the focus in the notice's frame, and waits until the notice is gone, as the
 * reader sees it. The key's release closes the frame it is delivered to, and Chromium's DevTools
 * protocol then sometimes never answers for that key (1 or 2 presses of 40 or 60 in loops: the
 * notice closed, the press never resolved; awaited, the test hung), so the press itself is given
 * half a second, and then left.
 */
export async function escapeFromNotice(page: AnyPage & { keyboard: { press(key: string): Promise<unknown> } }): Promise<void> {
  const press = page.keyboard.press('Escape').catch(() => undefined);
  await expect.poll(() => noticeShown(page), { timeout: 5000 }).toBe(false);
  await Promise.race([press, new Promise((resolve) => setTimeout(resolve, 500))]);
}

export function expectWellFormedExport(doc: unknown, urls: string[]): void {
  const d = doc as { format: string; version: number; algorithm: { name: string }; exportedAt: string; pages: Array<Record<string, unknown>> };
  expect(d.format).toBe('deja-read-history');
  expect(d.version).toBe(1);
  expect(Number.isNaN(Date.parse(d.exportedAt))).toBe(false);
  expect(d.pages.map((p) => p.url).sort()).toEqual([...urls].sort());
  for (const p of d.pages) {
    expect(p.fp).toMatch(/^[0-9a-f]{16}$/);
    expect(p.algo).toBe(d.algorithm.name);
    expect(p.visits).toBe(1);
    expect([p.b0, p.b1, p.b2, p.b3]).toEqual([0, 4, 8, 12].map((i) => parseInt((p.fp as string).slice(i, i + 4), 16)));
  }
}

export interface ExportedDoc {
  pages: Array<{ url: string; fp: string } & Record<string, unknown>>;
  notSame?: Array<{ a: string; b: string; at: number }>;
}

/** The vectors long enough for the extension to fingerprint as pages. */
export const browserVectors = Object.keys(VECTORS).filter((name) => VECTORS[name].browser);

/**
 * Each vector page was recorded with the fingerprint and passage signature pinned in vectors.json,
 * and the read set pinned in digests.json (computed in Node).
 */
export function expectVectorFingerprints(doc: ExportedDoc, site: Site): void {
  const pinned = pinnedVectors();
  const digests = (JSON.parse(readFileSync(new URL('../fixtures/digests.json', import.meta.url), 'utf8')) as { digests: Record<string, { readSet: string }> }).digests;
  const page = (name: string) => doc.pages.find((p) => p.url === site.vectorUrl(name));
  const seen = Object.fromEntries(browserVectors.map((name) => [name, { fp: page(name)?.fp, passages: page(name)?.passages, readSet: page(name)?.readSet }]));
  expect(seen).toEqual(Object.fromEntries(browserVectors.map((name) => [name, { fp: pinned.fingerprints[name], passages: pinned.passages[name], readSet: digests[name].readSet }])));
}
