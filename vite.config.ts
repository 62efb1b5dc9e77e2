// One build per browser: TARGET=chrome|firefox picks the manifest's {{chrome}}/{{firefox}} keys
// and the output folder dist/<target>.
import { defineConfig } from 'vite';
import webExtension from 'vite-plugin-web-extension';

const target = process.env.TARGET === 'firefox' ? 'firefox' : 'chrome';

export default defineConfig({
  // The browser built for, as code sees it (src/env.d.ts): what only one browser needs is left out of the other's build.
  define: { 'import.meta.env.TARGET': JSON.stringify(target) },
  build: {
    outDir: `dist/${target}`,
    emptyOutDir: true,
    target: 'es2022',
    minify: false,
    sourcemap: false,
    rollupOptions: {
      // Readability has no side effects when loaded: a bundle that never calls it (Chrome's service
      // worker, which leaves extraction to the offscreen document) does not carry it, and starts quicker.
      treeshake: { moduleSideEffects: (id) => !id.includes('@mozilla/readability') },
    },
  },
  plugins: [
    webExtension({
      browser: target,
      disableAutoLaunch: true,
      printSummary: false,
      // Validation fetches a schema from the network; the build stays offline.
      skipManifestValidation: true,
      // Extension pages opened by the extension itself, not named in the manifest (Chrome's
      // offscreen document, where pages are parsed, only in Chrome: Firefox's event page has a DOM).
      // Also what the content script draws, imported by the script declared for every page (src/content/handoff.ts).
      additionalInputs: ['src/content/drawing.ts', 'src/notice/index.html', 'src/welcome/index.html', 'src/history/index.html', ...(target === 'chrome' ? ['src/offscreen/index.html'] : [])],
    }),
  ],
});
