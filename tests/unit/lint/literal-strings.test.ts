/**
 * The rule that keeps words in the message catalogues: literal text in JSX, or in an accessible
 * name, title or placeholder, fails lint in every renderer file but those not yet translated, and
 * that list only shrinks.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const repoRoot = join(import.meta.dirname, '../../..');
/** The list eslint.config.js reads. */
const NOT_YET_TRANSLATED = JSON.parse(
  readFileSync(join(repoRoot, 'renderer/src/i18n/not-yet-translated.json'), 'utf8'),
) as string[];
const eslint = new ESLint({ cwd: repoRoot });
const RULE = 'i18next/no-literal-string';

/** Lines of `code`, linted as the file at `path`, that the rule reports. */
async function literals(path: string, code: string): Promise<number[]> {
  const [result] = await eslint.lintText(code, { filePath: join(repoRoot, path) });
  return (result?.messages ?? []).filter((m) => m.ruleId === RULE).map((m) => m.line);
}

const NEW_FILE = 'renderer/src/features/fixture/fixture.tsx';

describe('no literal strings in the renderer’s JSX', () => {
  it('refuses text, accessible names, titles and placeholders written in place', async () => {
    expect(await literals(NEW_FILE, 'export const Greeting = () => <p>Hello</p>;\n')).toEqual([1]);
    expect(
      await literals(NEW_FILE, 'export const Greeting = () => <button aria-label="Close" />;\n'),
    ).toEqual([1]);
    expect(
      await literals(NEW_FILE, 'export const Greeting = () => <input placeholder="Search" />;\n'),
    ).toHaveLength(1);
    expect(
      await literals(NEW_FILE, 'export const Greeting = () => <span title="Copied" />;\n'),
    ).toHaveLength(1);
    expect(
      await literals(
        NEW_FILE,
        "export const Greeting = ({ b }: { b: boolean }) => <p>{b ? 'Yes' : 'No'}</p>;\n",
      ),
    ).toHaveLength(2);
  });

  it('lets through messages, ids and markup that holds no words', async () => {
    const code = [
      "import { useT } from '../../i18n/i18n';",
      'export function Greeting({ onScreen }: { onScreen(id: string): void }) {',
      '  const t = useT();',
      '  return (',
      '    <button type="button" className="nav-item" aria-label={t(\'nav.label\')} aria-hidden="true" onClick={() => onScreen(\'chat\')}>',
      "      {t('nav.shortcuts')} · 1/2 …",
      '    </button>',
      '  );',
      '}',
      '',
    ].join('\n');
    expect(await literals(NEW_FILE, code)).toEqual([]);
  });

  it('lists only files that exist and still hold words to translate', async () => {
    expect(NOT_YET_TRANSLATED.length).toBeGreaterThan(0);
    for (const file of NOT_YET_TRANSLATED) {
      expect(existsSync(join(repoRoot, file)), `${file} is listed but gone`).toBe(true);
      // The same text under a name the list does not hold: the rule applies.
      const copy = join(dirname(file), '__translated-check.tsx');
      const found = await literals(copy, readFileSync(join(repoRoot, file), 'utf8'));
      expect(
        found.length,
        `${file} has nothing left to translate: take it off the list`,
      ).toBeGreaterThan(0);
    }
  }, 120_000);
});
