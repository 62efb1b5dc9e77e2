// The CSS the content script draws with on web pages (the notice, the overlay's marks and tips, the
// "what's new" boxes) must take nothing from the page. Two things cross a closed shadow root from the
// page: custom properties (inherited through the host whatever `all: initial` says, and registrable
// by the page with `@property`), and fonts by name (the page's `@font-face` rules define them for
// shadow roots too, so a character our text needs would load the page's face for it). A review
// found both used to learn which links were read and which characters the notice wrote; the
// hostile pages of the end-to-end suites check what a page sees, this checks the source.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const DIR = join(process.cwd(), 'src/content');
const sources = readdirSync(DIR)
  .filter((f) => f.endsWith('.ts'))
  .map((f) => ({ file: f, text: readFileSync(join(DIR, f), 'utf8') }));
/** Families no `@font-face` can take over. */
const GENERIC = new Set(['system-ui', 'sans-serif', 'serif', 'monospace', 'cursive', 'fantasy', 'ui-sans-serif', 'ui-serif', 'ui-monospace', 'inherit', 'initial']);

/** The font families a `font` or `font-family` declaration names. */
function families(property: string, value: string): string[] {
  const parts = value.split(',').map((p) => p.trim());
  // The shorthand puts style, weight, size and line height before the first family.
  if (property === 'font') parts[0] = parts[0].split(/\s+/).at(-1) ?? '';
  return parts;
}

describe('the CSS drawn on web pages', () => {
  it('reads the content script', () => {
    expect(sources.map((s) => s.file)).toEqual(expect.arrayContaining(['notice.ts', 'overlay.ts', 'whats-new.ts', 'link-marks.ts']));
  });

  it('uses no custom property and registers none', () => {
    const found = sources.flatMap(({ file, text }) => [...text.matchAll(/var\(\s*--[\w-]+|--[\w-]+\s*:|@property\s+--/g)].map((m) => `${file}: ${m[0]}`));
    expect(found).toEqual([]);
  });

  it('names generic font families only, and defines no font', () => {
    const named: string[] = [];
    for (const { file, text } of sources) {
      for (const m of text.matchAll(/(?<![\w-])(font-family|font)\s*:\s*([^;`}]+)/g)) {
        // A line of TypeScript that merely mentions the word is not CSS.
        if (!/\d|system-ui|sans-serif|inherit|"|'/.test(m[2])) continue;
        for (const family of families(m[1], m[2])) if (!GENERIC.has(family)) named.push(`${file}: ${m[0].trim()} (${family})`);
      }
      if (/@font-face\s*\{/.test(text)) named.push(`${file}: @font-face`);
    }
    expect(named).toEqual([]);
  });
});
