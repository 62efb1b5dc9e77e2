// The add-on's own pages in Firefox over WebDriver BiDi, which cannot navigate a tab to a
// moz-extension:// URL: the welcome page the add-on opens on install is found, and sent on to the
// other pages by setting location.href from inside it.
import type { Browser, Page } from 'puppeteer-core';

/** The add-on's welcome page, opened on install. */
export async function findExtensionPage(browser: Browser): Promise<Page> {
  for (let attempt = 0; attempt < 50; attempt++) {
    for (const p of await browser.pages()) {
      const href = await p.evaluate(() => location.href).catch(() => '');
      if (href.startsWith('moz-extension://')) return p;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('the add-on did not open its welcome page');
}

let navigations = 0;

/**
 * Sends the add-on's page to `path`. A query parameter of its own makes each address new, so the
 * wait cannot be satisfied by the document being left (going to the page it is already on would be
 * a reload whose old document still reads as complete).
 */
export async function goToExtensionPage(page: Page, path: string): Promise<void> {
  const origin = await page.evaluate(() => location.origin);
  const target = `${origin}${path}${path.includes('?') ? '&' : '?'}nav=${++navigations}`;
  await page.evaluate((url) => void (location.href = url), target);
  await waitInPage(page, (url) => location.href === url && document.readyState === 'complete', target);
}

/**
 * Waits until `test`, run in the page, returns a truthy value. Puppeteer's waitForFunction and
 * waitForSelector build their test with Function() inside the page, which an extension page's CSP
 * refuses in Firefox ESR 140 ("call to Function() blocked by CSP"); evaluate() does not.
 */
export async function waitInPage<A extends unknown[]>(page: Page, test: (...args: A) => unknown, ...args: A): Promise<void> {
  const until = Date.now() + 30_000;
  let failed: unknown;
  for (;;) {
    // A page being navigated has no context to run in for a moment: that is a "not yet" (and the
    // last such error is told if the wait runs out).
    const done = await page.evaluate(test as (...a: unknown[]) => unknown, ...args).catch((e: unknown) => void (failed = e));
    if (done) return;
    if (Date.now() > until) throw new Error(`waited 30 s in ${page.url()} for ${test.toString().slice(0, 120)}${failed ? ` (last error: ${String(failed)})` : ''}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
