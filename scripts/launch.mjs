// What npm start and npm run dev share: where the browsers are, whether a window can open, the
// flags Chromium needs here, and telling a browser that closed at once from one that runs.

export const BROWSERS = {
  chrome: { target: 'chrome', name: 'Chromium', path: process.env.CHROMIUM_PATH || '/usr/bin/chromium', install: 'install it with "apt-get install -y chromium", or set CHROMIUM_PATH.' },
  firefox: { target: 'firefox', name: 'Firefox', path: process.env.FIREFOX_PATH || '/usr/bin/firefox-esr', install: 'install it with "apt-get install -y firefox-esr", or set FIREFOX_PATH.' },
};

export const hasDisplay = () => Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY);

/** Chromium refuses to start as root unless its sandbox is off. */
export const browserArgs = () => (process.getuid?.() === 0 ? ['--no-sandbox'] : []);

/** How long a browser that will not start takes, at most, to give up. */
const EARLY_MS = 5000;

/**
 * Resolves with why `child` exited, and the end of what it wrote on stderr, if it exits within a few
 * seconds; with null if it is still running by then (it is then let go: this process may end).
 */
export function watchEarlyExit(child) {
  let stderr = '';
  child.stderr?.on('data', (b) => {
    stderr = (stderr + b).slice(-4000);
  });
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.removeAllListeners('exit');
      child.stderr?.destroy();
      child.unref();
      resolve(null);
    }, EARLY_MS);
    const done = (why) => {
      clearTimeout(timer);
      resolve({ why, stderr: stderr.trim().split('\n').slice(-12).join('\n') });
    };
    child.on('error', (e) => done(e.message));
    child.on('exit', (code, signal) => done(signal ? `signal ${signal}` : `exit code ${code}`));
  });
}
