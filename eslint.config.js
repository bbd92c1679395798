import { builtinModules } from 'node:module';
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import { importX, createNodeResolver } from 'eslint-plugin-import-x';
import i18next from 'eslint-plugin-i18next';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * Lint configuration, including the import rules of the architecture (docs/architecture.md, "Layers"):
 * which folder may import which, and who may import `electron` or Node's modules.
 */

const NODE_BUILTINS = `^(node:.*|(${builtinModules.join('|')})(/.*)?)$`;
const ELECTRON = '^electron(/.*)?$';

const noElectron = (where, allowTypeImports = false) => ({
  regex: ELECTRON,
  allowTypeImports,
  message: `${where} does not import Electron: only electron/main/platform, electron/main/windows, electron/main/index.ts and the preload do.`,
});

const noNode = (where) => ({
  regex: NODE_BUILTINS,
  message: `${where} runs without Node: no Node built-in modules.`,
});

const RENDERER_PATTERNS = [
  noElectron('The renderer'),
  noNode('The renderer'),
  {
    // The shortcut table is plain data that the renderer and the menu share; the prompt template
    // reader, the language list and the check of images for a model that reads none, and the
    // titles main writes (which the page shows translated) are pure functions and data that main
    // and the renderer share; so are the contract's limits, which the page's forms check too.
    regex:
      '(^|/)electron/shared(?!/(shortcuts|prompt-template|locales|images-accepted|conversation-titles|limits)$)(/|$)',
    allowTypeImports: true,
    message: 'The renderer uses only `import type` from electron/shared.',
  },
];

const NO_BRIDGE_IN_COMPONENTS =
  "A component does not call the bridge: it calls its feature's actions module (or lib), which runs the call and turns a failure into the page's (runAction, failureOf).";

/**
 * Attributes that hold no words a person sees or hears (every other attribute is checked:
 * `aria-label`, `title`, `placeholder`, `alt`, and components' text props such as `label`).
 */
const NON_TEXT_ATTRIBUTES = [
  'className',
  // react-virtuoso's grid takes the class names of its list and its cells.
  'listClassName',
  'itemClassName',
  'style',
  'type',
  'key',
  'id',
  'htmlFor',
  'name',
  'value',
  'role',
  'lang',
  'dir',
  'tone',
  'inputMode',
  'autoComplete',
  'rel',
  'target',
  'href',
  'src',
  'accept',
  'method',
  'mode',
  'variant',
  'size',
  'icon',
  'kind',
  'width',
  'height',
  'viewBox',
  'd',
  'fill',
  'stroke',
  'hintId',
  'aria-hidden',
  'aria-live',
  'aria-current',
  'aria-haspopup',
  'aria-expanded',
  'aria-controls',
  'aria-describedby',
  'aria-labelledby',
  'aria-busy',
  'aria-invalid',
  'aria-pressed',
  'aria-sort',
  'aria-orientation',
  'aria-autocomplete',
  'aria-relevant',
  'aria-atomic',
  'data-[\\w-]+',
];

export default defineConfig(
  {
    ignores: [
      'out/',
      'dist/',
      'node_modules/',
      'bench-results/',
      'test-results/',
      'reliability-results/',
      'coverage/',
      '**/*.d.ts',
    ],
  },

  js.configs.recommended,
  tseslint.configs.recommended,

  {
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: globals.node,
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },

  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: globals.browser },
  },

  // Folder-to-folder rules. `from` lists what files under `target` must never import.
  {
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [
        createNodeResolver({
          extensions: ['.ts', '.tsx', '.mts', '.cts', '.js', '.mjs', '.cjs', '.json'],
          extensionAlias: { '.js': ['.ts', '.tsx', '.js'], '.mjs': ['.mts', '.mjs'] },
        }),
      ],
    },
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: import.meta.dirname,
          zones: [
            {
              target: './electron/shared',
              from: [
                './electron/main',
                './electron/preload',
                './electron/demo-relay',
                './renderer',
                './tests',
              ],
              message: 'electron/shared is the contract: it imports nothing of the app.',
            },
            {
              target: './electron/main',
              from: ['./electron/preload', './renderer'],
              message: 'The main process never imports preload or renderer code.',
            },
            {
              target: './electron/preload',
              from: ['./electron/main', './electron/demo-relay', './renderer'],
              message: 'The preload imports only electron/shared and Electron.',
            },
            {
              target: './renderer',
              from: ['./electron/main', './electron/preload', './electron/demo-relay'],
              message: 'The renderer reaches the main process only through window.relay.',
            },
            {
              target: './electron/demo-relay',
              from: ['./electron/preload', './renderer'],
              message: 'The demo relay runs on its own: no preload or renderer code.',
            },
            {
              target: ['./electron', './renderer'],
              from: './tests',
              message: 'Source never imports tests.',
            },
          ],
        },
      ],
    },
  },

  // Package rules. One block per area, because a later block replaces an earlier block's options.
  {
    files: ['electron/shared/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            noElectron('electron/shared'),
            noNode('electron/shared (loaded by every process)'),
          ],
        },
      ],
    },
  },
  {
    // The page imports the limits as values: plain data, so no zod (nor anything else) comes with them.
    files: ['electron/shared/limits.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '.*',
              message:
                'electron/shared/limits.ts is plain data the page loads: it imports nothing (no zod).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['electron/main/**', 'electron/demo-relay/**'],
    ignores: ['electron/main/platform/**', 'electron/main/windows/**', 'electron/main/index.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: [noElectron('This folder')] },
      ],
    },
  },
  {
    // The router stays a plain function, but its handlers may name Electron's event types.
    files: ['electron/main/ipc/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: [noElectron('electron/main/ipc (type imports aside)', true)] },
      ],
    },
  },
  {
    files: ['electron/preload/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!electron$|\\.)',
              message:
                'A sandboxed preload imports only Electron and electron/shared (by relative path).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['renderer/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: RENDERER_PATTERNS }],
    },
  },
  {
    // One error path: a component calls its feature's actions (or lib), which call the bridge
    // and turn a failure into the page's (`runAction`, `failureOf`); a .tsx file never reaches
    // the bridge itself. Its types may still be named.
    files: ['renderer/src/**/*.tsx'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            ...RENDERER_PATTERNS,
            {
              regex: '(^|/)lib/relay-bridge$',
              importNames: ['relayBridge', 'requireBridge'],
              allowTypeImports: true,
              message: NO_BRIDGE_IN_COMPONENTS,
            },
            {
              regex: '(^|/)lib/bridge-error$',
              importNames: ['unwrapBridge', 'answerOf'],
              message: NO_BRIDGE_IN_COMPONENTS,
            },
          ],
        },
      ],
      'no-restricted-properties': [
        'error',
        { object: 'window', property: 'relay', message: NO_BRIDGE_IN_COMPONENTS },
        { object: 'globalThis', property: 'relay', message: NO_BRIDGE_IN_COMPONENTS },
      ],
    },
  },

  {
    // A page under test gets `window.relay` only from the built preload, behind the context
    // bridge's copy rules (tests/harness/context-bridge): a bridge built in the page's own world
    // would hand the page what Electron's contextBridge never does (an Error with its fields).
    files: ['tests/e2e/**', 'tests/bench/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)electron/shared/ipc/bridge$',
              allowTypeImports: true,
              message:
                'A page under test gets window.relay from the built preload (tests/harness/context-bridge), never from createBridge in its own world.',
            },
          ],
        },
      ],
    },
  },

  // Every word the page shows comes from the message catalogues (renderer/src/i18n/messages):
  // no literal text in JSX, nor in an accessible name, label, title or placeholder.
  {
    files: ['renderer/src/**/*.tsx'],
    plugins: { i18next },
    rules: {
      'i18next/no-literal-string': [
        'error',
        {
          mode: 'jsx-only',
          'jsx-attributes': { exclude: NON_TEXT_ATTRIBUTES },
          // Punctuation and numbers, acronyms (HTTP, SOCKS5), and example addresses in placeholders.
          words: {
            exclude: [
              '[\\s0-9!-/:-@[-`{-~·…→←↑↓×–—‹›]+',
              '[A-Z0-9_-]+',
              '(https?://)?[\\w.-]*example\\.com[\\w/.-]*',
            ],
          },
          callees: {
            // Calls whose string arguments are ids, not words: screens, fields, elements.
            exclude: [
              't',
              'i18n(ext)?',
              'require',
              'addEventListener',
              'includes',
              'getElementById',
              'querySelector(All)?',
              'on[A-Z]\\w*',
              'set[A-Z]\\w*',
              'edit',
              'remember',
              'recall',
            ],
          },
          message: 'Words the page shows come from the message catalogues (useT, t)',
        },
      ],
    },
  },
);
