/**
 * The message catalogues, the renderer's and main's (`electron/shared/messages`): every language
 * has exactly English's keys, each message with the same placeholders, plural and select
 * arguments and markup tags, every message is valid ICU (the build compiles them), and each
 * language has its glossary beside the renderer's messages (main's words follow the same ones).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compileMessageOrThrow, type CompiledMessage } from '@lingui/message-utils/compileMessage';
import { describe, expect, it } from 'vitest';
import { LOCALES } from '../../../../electron/shared/locales';
import { compileCatalogue } from '../../../../scripts/vite-catalogues';
import { MAIN_NAMESPACES } from '../../../../electron/shared/messages/keys';
import { NAMESPACES } from '../../../../renderer/src/i18n/i18n';

const MESSAGES = join(import.meta.dirname, '../../../../renderer/src/i18n/messages');
const MAIN_MESSAGES = join(import.meta.dirname, '../../../../electron/shared/messages');

/** Each set of catalogues: its folder of `<locale>/<namespace>.json`, and its namespaces. */
const CATALOGUE_SETS = [
  { name: 'renderer', folder: MESSAGES, namespaces: NAMESPACES as readonly string[] },
  { name: 'main', folder: MAIN_MESSAGES, namespaces: MAIN_NAMESPACES as readonly string[] },
];

const read = (locale: string, namespace: string, folder = MESSAGES) =>
  JSON.parse(readFileSync(join(folder, locale, `${namespace}.json`), 'utf8')) as Record<
    string,
    string
  >;

/** What a translation must keep of a message: its arguments (with their kind) and its tags. */
function shape(message: string): string[] {
  const found = new Set<string>();
  const walk = (compiled: CompiledMessage) => {
    for (const token of compiled) {
      if (typeof token === 'string') continue;
      const [name, type, format] = token;
      found.add(type ? `${name}:${type}` : name);
      if (format && typeof format === 'object')
        for (const [choice, value] of Object.entries(format))
          if (choice !== 'offset' && Array.isArray(value)) walk(value as CompiledMessage);
    }
  };
  walk(compileMessageOrThrow(message));
  for (const tag of message.matchAll(/<\/?(\d+)\/?>/g)) found.add(tag[0]);
  return [...found].sort();
}

describe('the message catalogues', () => {
  for (const { name, folder, namespaces } of CATALOGUE_SETS) {
    it(`has a ${name} folder for every language and a file for every namespace, and nothing else`, () => {
      const folders = readdirSync(folder, { withFileTypes: true }).filter((e) => e.isDirectory());
      expect(folders.map((e) => e.name).sort()).toEqual([...LOCALES].sort());
      for (const locale of LOCALES) {
        const files = readdirSync(join(folder, locale)).filter((f) => f.endsWith('.json'));
        expect(files.sort(), locale).toEqual(namespaces.map((ns) => `${ns}.json`).sort());
      }
    });

    for (const namespace of namespaces) {
      const english = read('en', namespace, folder);
      for (const locale of LOCALES.filter((l) => l !== 'en')) {
        it(`${name}: ${locale}/${namespace} has exactly English's keys, with the same placeholders`, () => {
          const translated = read(locale, namespace, folder);
          expect(Object.keys(translated).sort()).toEqual(Object.keys(english).sort());
          for (const [key, message] of Object.entries(english)) {
            expect(shape(translated[key]!), `${locale} ${key}`).toEqual(shape(message));
            expect(translated[key]!.trim(), `${locale} ${key} is empty`).not.toBe('');
          }
        });
      }
      it(`every ${name} ${namespace} message of every language compiles`, () => {
        for (const locale of LOCALES) {
          const file = join(folder, locale, `${namespace}.json`);
          expect(() => compileCatalogue(readFileSync(file, 'utf8'), file)).not.toThrow();
        }
      });
    }
  }

  it('names a broken message and its file when it does not compile', () => {
    expect(() => compileCatalogue('{"a.b": "{count, plural, one {#}"}', 'de/shell.json')).toThrow(
      /de\/shell\.json: "a\.b" is not a valid ICU message/,
    );
    expect(() => compileCatalogue('{"a.b": 3}', 'de/shell.json')).toThrow(/is not a string/);
  });

  it('finds a placeholder a translation lost or renamed', () => {
    expect(shape('Version {version} is ready')).not.toEqual(shape('Version {versión} ist bereit'));
    expect(shape('{n, plural, one {# file} other {# files}}')).not.toEqual(shape('{n} Dateien'));
    expect(shape('is <0>not encrypted</0>')).not.toEqual(shape('ist nicht verschlüsselt'));
  });

  it('gives every key to one namespace only (all of them share one catalogue at run time)', () => {
    const owner = new Map<string, string>();
    const twice: string[] = [];
    for (const namespace of NAMESPACES) {
      for (const key of Object.keys(read('en', namespace))) {
        const first = owner.get(key);
        if (first) twice.push(`${key} in ${first} and ${namespace}`);
        else owner.set(key, namespace);
      }
    }
    expect(twice).toEqual([]);
  });

  it('keeps a glossary beside every language’s messages', () => {
    for (const locale of LOCALES) {
      expect(existsSync(join(MESSAGES, locale, 'GLOSSARY.md')), locale).toBe(true);
    }
  });
});
