import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import type { Plugin } from 'vite';
import {
  CHAT_IMPORT_WORKER,
  DOCUMENT_WORKER,
  MAIN_BUNDLED_DEPENDENCIES,
} from './electron/main/build-entries';
import { compiledCatalogues } from './scripts/vite-catalogues';

const root = import.meta.dirname;
const { version } = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as {
  version: string;
};

/**
 * Loosens the page's Content-Security-Policy for the dev server only.
 *
 * `renderer/index.html` carries the strict policy that ships. While developing, Vite injects an
 * inline React Refresh preamble and inline `<style>` tags and talks to its HMR socket, so the dev
 * page alone gets 'unsafe-inline' for scripts and styles and may connect to the dev server.
 */
function devContentSecurityPolicy(): Plugin {
  return {
    name: 'relay-desktop:dev-csp',
    apply: 'serve',
    transformIndexHtml(html) {
      return html.replace(
        /(<meta\s+http-equiv="Content-Security-Policy"\s+content=")([^"]*)(")/,
        (_match, open: string, policy: string, close: string) =>
          open +
          policy
            .replace("script-src 'self'", "script-src 'self' 'unsafe-inline'")
            .replace("style-src 'self'", "style-src 'self' 'unsafe-inline'")
            .replace("connect-src 'self'", "connect-src 'self' ws://localhost:* ws://127.0.0.1:*") +
          close,
      );
    },
  };
}

export default defineConfig({
  main: {
    // Main's words (`electron/shared/messages`), compiled as the page's are.
    plugins: [compiledCatalogues()],
    build: {
      // The other dependencies stay imports of node_modules (native modules among them).
      externalizeDeps: { exclude: MAIN_BUNDLED_DEPENDENCIES },
      rolldownOptions: {
        input: {
          index: resolve(root, 'electron/main/index.ts'),
          // Chat imports are read in a worker thread, which index.ts starts from this file.
          [CHAT_IMPORT_WORKER]: resolve(root, 'electron/main/services/chat/import-worker.ts'),
          // Documents (attachments, knowledge-base files) are read for their text in another.
          [DOCUMENT_WORKER]: resolve(root, 'electron/main/services/documents/document-worker.ts'),
        },
      },
    },
  },
  preload: {
    define: { __APP_VERSION__: JSON.stringify(version) },
    build: {
      // A sandboxed preload is run as a classic script with a minimal `require`: it must be a
      // single CommonJS file with every dependency but `electron` bundled in.
      externalizeDeps: false,
      rolldownOptions: {
        input: { index: resolve(root, 'electron/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(root, 'renderer'),
    plugins: [react(), devContentSecurityPolicy(), compiledCatalogues()],
    resolve: {
      alias: [
        {
          // rehype-katex turns KaTeX's HTML back into a tree. In a browser this package parses
          // it through a <template>, and every style="" KaTeX writes then counts as a blocked
          // inline style under the page's CSP (dozens of violation reports per formula, though
          // React applies the styles afterwards). Its parse5 build parses without the DOM.
          find: /^hast-util-from-html-isomorphic$/,
          replacement: resolve(root, 'node_modules/hast-util-from-html-isomorphic/index.js'),
        },
      ],
    },
    build: {
      // electron-vite leaves the renderer unminified by default: 2.1 MB of script to parse at
      // every start instead of about a third of that.
      minify: true,
      // Fonts stay files: the page's CSP allows fonts from 'self' only, not data: URLs.
      assetsInlineLimit: (file: string) => (/\.(woff2?|ttf|otf)$/.test(file) ? false : undefined),
      rolldownOptions: {
        input: {
          index: resolve(root, 'renderer/index.html'),
          // The quick ask window's page: same preload, CSP and markdown renderer as the chat.
          quick: resolve(root, 'renderer/quick.html'),
        },
        output: {
          // A language's catalogue is a chunk of its own, named by its language and namespace
          // (`messages-de-chat-<hash>.js`), not by its file alone: six `chat.json` would all be
          // `chat-<hash>.js` beside the chat's own code.
          chunkFileNames: (chunk) => {
            const catalogue = /\/messages\/([\w-]+)\/([\w-]+)\.json$/.exec(
              chunk.facadeModuleId ?? '',
            );
            return catalogue
              ? `assets/messages-${catalogue[1]}-${catalogue[2]}-[hash].js`
              : 'assets/[name]-[hash].js';
          },
        },
      },
    },
  },
});
