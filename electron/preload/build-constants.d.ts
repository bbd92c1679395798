/** The app's version from package.json, replaced at build time by electron-vite's `define`. */
declare const __APP_VERSION__: string;
