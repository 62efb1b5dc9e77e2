// Where the test browsers are, and the message to show when one is missing.
import { existsSync } from 'node:fs';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
export const FIREFOX_PATH = process.env.FIREFOX_PATH || '/usr/bin/firefox-esr';

export const distDir = (target: 'chrome' | 'firefox') => new URL(`../../dist/${target}/`, import.meta.url).pathname;

/**
 * Flags for Chromium with the built extension loaded. Without the networking flags Chromium's
 * start-up connections fail on a closed network; --no-sandbox because the tests may run as root.
 */
export function chromiumArgs(extensionDir: string, extra: string[] = []): string[] {
  return [`--disable-extensions-except=${extensionDir}`, `--load-extension=${extensionDir}`, ...chromiumBaseArgs(extra)];
}

/** The same flags without any extension (benchmarks compare a page with and without ours). */
export function chromiumBaseArgs(extra: string[] = []): string[] {
  return ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-gpu', ...extra];
}

/** Problems that stop the end-to-end tests from running, each said in one line. */
export function missingPrerequisites(): string[] {
  const problems: string[] = [];
  if (!existsSync(CHROMIUM_PATH))
    problems.push(`Chromium not found at ${CHROMIUM_PATH}: install it with "apt-get install -y chromium", or set CHROMIUM_PATH to a Chromium binary.`);
  if (!existsSync(FIREFOX_PATH))
    problems.push(`Firefox not found at ${FIREFOX_PATH}: install it with "apt-get install -y firefox-esr", or set FIREFOX_PATH to a Firefox binary.`);
  for (const target of ['chrome', 'firefox'] as const) {
    if (!existsSync(`${distDir(target)}manifest.json`)) problems.push(`dist/${target} is not built: run "npm run build" first.`);
  }
  return problems;
}
