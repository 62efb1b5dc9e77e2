// npm start: builds the extension and opens Chromium with it loaded in a fresh profile, where
// there is a display. Without one, runs the demo (headless Chromium, screenshots in demo-out/) and
// says how to load the extension by hand.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const chromium = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { stdio: 'inherit' });

const ext = join(root, 'dist', 'chrome');
if (!process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
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
if (!existsSync(chromium)) {
  console.error(`Chromium not found at ${chromium}: install it with "apt-get install -y chromium", or set CHROMIUM_PATH.`);
  process.exit(1);
}
const profile = mkdtempSync(join(tmpdir(), 'deja-read-profile-'));
console.log(`Opening Chromium with Déjà Read loaded (fresh profile ${profile}).`);
spawn(
  chromium,
  [`--user-data-dir=${profile}`, `--disable-extensions-except=${ext}`, `--load-extension=${ext}`, '--no-first-run', '--no-default-browser-check'],
  { stdio: 'ignore', detached: true },
).unref();
