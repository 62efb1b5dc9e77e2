// npm start: builds the extension and opens Chromium with it loaded in a fresh profile, where
// there is a display. Without one, runs the demo (headless Chromium, screenshots in demo-out/) and
// says how to load the extension by hand.
// npm run start:firefox (this script with --firefox): the same in Firefox, through web-ext run.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { browserArgs, BROWSERS, hasDisplay, watchEarlyExit } from './launch.mjs';

const root = new URL('..', import.meta.url).pathname;
const firefox = process.argv.includes('--firefox');
const browser = BROWSERS[firefox ? 'firefox' : 'chrome'];

execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { stdio: 'inherit' });

const ext = join(root, 'dist', browser.target);
if (!hasDisplay()) {
  if (firefox) {
    console.error(`\nNo display here, so Firefox cannot open a window. On a desktop, run "npm run start:firefox" again,
or load the add-on by hand: about:debugging#/runtime/this-firefox → Load Temporary Add-on → ${join(ext, 'manifest.json')}`);
    process.exit(1);
  }
  console.log('\nNo display here, so no browser window can open: running the demo in headless Chromium instead.\n');
  const demo = spawnSync('npm', ['run', 'demo', '--', '--no-build'], { cwd: root, stdio: 'inherit' });
  const ok = demo.status === 0;
  console.log(
    ok
      ? `\nScreenshots of the notice, the popup, the options and the history (English and Chinese, light and dark) are in ${join(root, 'demo-out')}.`
      : '\nThe demo did not finish (see above), so there are no new screenshots.',
  );
  console.log(`
  - On a desktop, load the built extension yourself:
      Chrome/Chromium: chrome://extensions → Developer mode → Load unpacked → ${ext}
      Firefox: about:debugging#/runtime/this-firefox → Load Temporary Add-on → ${join(root, 'dist', 'firefox', 'manifest.json')}
  - Or run "npm test": it drives headless Chromium and Firefox through the whole flow.`);
  process.exit(ok ? 0 : (demo.status ?? 1));
}
if (!existsSync(browser.path)) {
  console.error(`${browser.name} not found at ${browser.path}: ${browser.install}`);
  process.exit(1);
}

if (firefox) {
  // web-ext runs Firefox with the add-on in a fresh profile and stays in the foreground; Ctrl+C closes both.
  console.log(`Opening Firefox with Déjà Read loaded (web-ext run, fresh profile).`);
  const run = spawnSync(join(root, 'node_modules', '.bin', 'web-ext'), ['run', '--source-dir', ext, '--firefox', browser.path, '--no-reload', '--no-input'], { stdio: 'inherit' });
  process.exit(run.status ?? 1);
}

const profile = mkdtempSync(join(tmpdir(), 'deja-read-profile-'));
const args = [`--user-data-dir=${profile}`, `--disable-extensions-except=${ext}`, `--load-extension=${ext}`, '--no-first-run', '--no-default-browser-check', ...browserArgs()];
console.log(`Opening Chromium with Déjà Read loaded (fresh profile ${profile})${args.includes('--no-sandbox') ? ', without its sandbox: Chromium refuses to run as root with it' : ''}.`);
const child = spawn(browser.path, args, { stdio: ['ignore', 'ignore', 'pipe'], detached: true });
const exit = await watchEarlyExit(child);
if (exit) {
  console.error(`Chromium closed at once (${exit.why}).${exit.stderr ? ` It said:\n${exit.stderr}` : ''}`);
  process.exit(1);
}
console.log(`Chromium is running (process ${child.pid}).`);
