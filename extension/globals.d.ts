/** Set by extension/build.ts: the store this package is built for (Edge runs the Chrome one). */
declare const __MARKET__: 'chrome' | 'firefox';
/** The extension's version (src/schemas/extension.ts EXTENSION_VERSION). */
declare const __VERSION__: string;
/** Every `extension.*` string in each of the 17 languages, bundled at build time. */
declare const __MESSAGES__: Record<string, Record<string, string>>;
/** Stylesheets are bundled as text (esbuild's text loader) and adopted into shadow roots. */
declare module '*.css' {
  const text: string;
  export default text;
}
