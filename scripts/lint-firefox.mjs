// npm run lint:firefox: addons.mozilla.org's linter (web-ext lint) on the built Firefox add-on.
// It fails on any error, and on any warning except the three that REVIEWERS.md explains: the two
// `innerHTML` assignments inside the bundled @mozilla/readability, and the content script's import
// of its own drawing script, each recognised by its code, not by a line number that moves with
// every build.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const dir = join(root, 'dist', 'firefox');
const EXPLAINED = [/\bpage\.innerHTML = pageCacheHtml\b/, /\btmp\.innerHTML = noscript\.innerHTML\b/, /\bimport\(\s*(\/\*[^*]*\*\/\s*)?ext\.runtime\.getURL\(DRAWING_SCRIPT\)/];

let out;
try {
  out = execFileSync(join(root, 'node_modules', '.bin', 'web-ext'), ['lint', '--source-dir', dir, '--output', 'json', '--no-input'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
} catch (e) {
  // web-ext exits non-zero when it finds errors; its report is still on stdout.
  out = e.stdout;
  if (!out) throw e;
}
const report = JSON.parse(out);
const explained = (w) => {
  if (w.code !== 'UNSAFE_VAR_ASSIGNMENT' || !w.file || !w.line) return false;
  // The warned line and the two after it: the bundler writes an import's argument on lines of its own.
  const line = readFileSync(join(dir, w.file), 'utf8').split('\n').slice(w.line - 1, w.line + 2).join('\n');
  return EXPLAINED.some((re) => re.test(line));
};
const problems = [...report.errors, ...report.warnings.filter((w) => !explained(w))];
const shown = (w) => `${w.code} ${w.file ?? ''}${w.line ? `:${w.line}` : ''}: ${w.message}`;
if (problems.length) {
  for (const p of problems) console.error(`lint:firefox: ${shown(p)}`);
  console.error(`lint:firefox: ${report.errors.length} errors, ${report.warnings.length} warnings (${report.warnings.length - problems.length + report.errors.length} explained in REVIEWERS.md)`);
  process.exit(1);
}
console.log(`lint:firefox: web-ext lint on dist/firefox: 0 errors; ${report.warnings.length} warnings, all explained in REVIEWERS.md; ${report.notices.length} notices`);
