/**
 * Compiles the message catalogues at build time: the renderer's and main's.
 *
 * Each `renderer/src/i18n/messages/<locale>/<namespace>.json` (and main's, in
 * `electron/shared/messages/<locale>/<namespace>.json`, which the main build and the page both
 * load) holds ICU messages ("{count, plural, one {# file} other {# files}}"); the page would need
 * Lingui's ICU parser (about 19 kB) to read them. This turns each file, as Vite loads it, into the same JSON with every message in Lingui's
 * compiled form, so the page ships only the small runtime. A message that does not parse fails
 * the build, naming the file and key.
 */
import { compileMessageOrThrow } from '@lingui/message-utils/compileMessage';
import type { Plugin } from 'vite';

export const CATALOGUE_FILE =
  /[\\/](renderer[\\/]src[\\/]i18n|electron[\\/]shared)[\\/]messages[\\/][^\\/]+[\\/][\w-]+\.json$/;

/** A catalogue's messages, compiled. */
export function compileCatalogue(source: string, file: string): Record<string, unknown> {
  const messages = JSON.parse(source) as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(messages).map(([key, message]) => {
      if (typeof message !== 'string') throw new Error(`${file}: "${key}" is not a string`);
      try {
        return [key, compileMessageOrThrow(message)];
      } catch (error) {
        throw new Error(`${file}: "${key}" is not a valid ICU message: ${String(error)}`);
      }
    }),
  );
}

export function compiledCatalogues(): Plugin {
  return {
    name: 'relay-desktop:compiled-catalogues',
    enforce: 'pre',
    transform(code, id) {
      const file = id.split('?')[0]!;
      if (!CATALOGUE_FILE.test(file)) return null;
      return { code: JSON.stringify(compileCatalogue(code, file)), map: null };
    },
  };
}
