/**
 * The rule that keeps words in the message catalogues: literal text in JSX, or in an accessible
 * name, title or placeholder, fails lint in every renderer file.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const repoRoot = join(import.meta.dirname, '../../..');
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

  it('holds every renderer file to it: none is set aside', async () => {
    const files = (await readdir(join(repoRoot, 'renderer/src'), { recursive: true })).filter(
      (file) => file.endsWith('.tsx'),
    );
    expect(files.length).toBeGreaterThan(50);
    for (const file of files) {
      const config = (await eslint.calculateConfigForFile(join(repoRoot, 'renderer/src', file))) as
        { rules?: Record<string, unknown> } | undefined;
      expect(config?.rules?.[RULE], `${file} is not checked`).toEqual([2, expect.anything()]);
    }
  }, 120_000);
});
