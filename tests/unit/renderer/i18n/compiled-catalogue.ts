/**
 * A namespace's messages in a language, compiled as the build compiles them, loaded into the
 * renderer's `i18n` (unit tests run without Vite's catalogue plugin).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Messages } from '@lingui/core';
import { compileCatalogue } from '../../../../scripts/vite-catalogues';
import { i18n, type Namespace } from '../../../../renderer/src/i18n/i18n';

const MESSAGES = join(import.meta.dirname, '../../../../renderer/src/i18n/messages');

export function loadCompiled(locale: string, namespace: Namespace): void {
  const file = join(MESSAGES, locale, `${namespace}.json`);
  i18n.load(locale, compileCatalogue(readFileSync(file, 'utf8'), file) as Messages);
}

/** Shows `locale` with `namespaces` loaded. */
export function inLocale(locale: string, ...namespaces: Namespace[]): void {
  for (const namespace of namespaces) loadCompiled(locale, namespace);
  i18n.activate(locale);
}
