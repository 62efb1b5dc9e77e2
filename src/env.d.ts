// What the build tells the code (vite.config.ts `define`); undefined under the unit tests.
interface ImportMetaEnv {
  readonly TARGET?: 'chrome' | 'firefox';
}
interface ImportMeta {
  readonly env: ImportMetaEnv;
}

// OpenCC's character tables, as opencc-js ships them: "體 体|於 于|…".
declare module 'opencc-js/dict/*' {
  const table: string;
  export default table;
}
