// npm run build: dist/chrome and dist/firefox, each loadable unpacked, and a store-ready zip of each.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { zipSync } from 'fflate';

const root = new URL('..', import.meta.url).pathname;
const vite = join(root, 'node_modules', '.bin', 'vite');

function filesUnder(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

for (const target of ['chrome', 'firefox']) {
  execFileSync(vite, ['build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit', env: { ...process.env, TARGET: target } });
  const dir = join(root, 'dist', target);
  const files = Object.fromEntries(filesUnder(dir).map((f) => [relative(dir, f), readFileSync(f)]));
  const zip = zipSync(files, { level: 9, mtime: new Date('2026-01-01T00:00:00Z') });
  const zipPath = join(root, 'dist', `deja-read-${target}.zip`);
  writeFileSync(zipPath, zip);
  const bytes = Object.values(files).reduce((n, b) => n + b.length, 0);
  console.log(`dist/${target}: ${Object.keys(files).length} files, ${(bytes / 1024).toFixed(1)} KiB; ${relative(root, zipPath)}: ${(zip.length / 1024).toFixed(1)} KiB`);
}
