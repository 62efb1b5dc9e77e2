// What the build tells the code (vite.config.ts `define`); undefined under the unit tests.
interface ImportMetaEnv {
  readonly TARGET?: 'chrome' | 'firefox';
}
interface ImportMeta {
  readonly env: ImportMetaEnv;
}
