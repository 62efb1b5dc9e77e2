// npm run dev [-- --firefox]: rebuilds the extension whenever a source file changes (vite build
// --watch) and runs it in a browser that reloads it after each rebuild (web-ext run, which drives
// Chromium or Firefox with a fresh profile). Ctrl+C stops both.
import { spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { browserArgs, BROWSERS, hasDisplay } from './launch.mjs';

const root = new URL('..', import.meta.url).pathname;
const browser = BROWSERS[process.argv.includes('--firefox') ? 'firefox' : 'chrome'];
const dir = join(root, 'dist', browser.target);
const bin = (name) => join(root, 'node_modules', '.bin', name);

if (!hasDisplay()) {
  console.error('npm run dev opens a browser window, and there is no display here. "npm run build" builds, "npm test" tests.');
  process.exit(1);
}
if (!existsSync(browser.path)) {
  console.error(`${browser.name} not found at ${browser.path}: ${browser.install}`);
  process.exit(1);
}

const children = [];
const stop = (code) => {
  for (const c of children) c.kill('SIGTERM');
  process.exit(code);
};
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));

// The first build writes the manifest; the browser starts once it is there.
rmSync(join(dir, 'manifest.json'), { force: true });
const vite = spawn(bin('vite'), ['build', '--watch', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit', env: { ...process.env, TARGET: browser.target } });
children.push(vite);
vite.on('exit', (code) => {
  console.error(`dev: the build stopped (exit code ${code}).`);
  stop(code ?? 1);
});
while (!existsSync(join(dir, 'manifest.json'))) await new Promise((r) => setTimeout(r, 250));

const runArgs =
  browser.target === 'firefox'
    ? ['run', '--source-dir', dir, '--target', 'firefox-desktop', '--firefox', browser.path, '--no-input']
    : ['run', '--source-dir', dir, '--target', 'chromium', '--chromium-binary', browser.path, '--no-input', ...browserArgs().map((a) => `--arg=${a}`)];
console.log(`dev: ${browser.name} with Déjà Read from dist/${browser.target}; it reloads after each rebuild.`);
const run = spawn(bin('web-ext'), runArgs, { cwd: root, stdio: 'inherit' });
children.push(run);
run.on('exit', (code) => {
  console.error(`dev: ${browser.name} closed (exit code ${code}).`);
  stop(code ?? 0);
});
