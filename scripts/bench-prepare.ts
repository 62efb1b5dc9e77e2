// What every benchmark in real Chromium does first: check the browser is there, build the
// extension unless told not to, and check the build it will load.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CHROMIUM_PATH } from '../tests/e2e/browsers';
import { BenchError } from './bench-error';

const ROOT = new URL('../', import.meta.url).pathname;

export function prepareChromiumBench(opts: { build: boolean; extension: string; log: (msg: string) => void }): void {
  if (!existsSync(CHROMIUM_PATH)) throw new BenchError(`Chromium not found at ${CHROMIUM_PATH}: install it with "apt-get install -y chromium", or set CHROMIUM_PATH to a Chromium binary.`, 2);
  if (opts.build) {
    opts.log('npm run build');
    try {
      execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: ['ignore', 2, 2] });
    } catch {
      throw new BenchError('npm run build failed (its output is above)');
    }
  }
  if (!existsSync(join(opts.extension, 'manifest.json'))) throw new BenchError(`${opts.extension} holds no built extension: run "npm run build", or leave out --no-build`, 2);
}
