/**
 * The guard that keeps right-to-left possible: a physical left or right in the renderer's CSS
 * fails `npm run lint` (Stylelint with stylelint-plugin-logical-css, stylelint.config.js), its
 * logical form passes, and the top, bottom and sizes the guard leaves alone stay allowed.
 */
import { join } from 'node:path';
import stylelint from 'stylelint';
import { describe, expect, it } from 'vitest';

const repoRoot = join(import.meta.dirname, '../../..');
const FILE = join(repoRoot, 'renderer/src/features/fixture/fixture.css');

/** The declarations of `css` the project's Stylelint config refuses, as "line: rule". */
async function refused(css: string): Promise<string[]> {
  const { results } = await stylelint.lint({ code: css, codeFilename: FILE, cwd: repoRoot });
  return (results[0]?.warnings ?? []).map((w) => `${w.line}: ${w.rule}`);
}

describe('logical CSS in the renderer', () => {
  it('refuses every physical left or right', async () => {
    const physical = [
      'margin-left: 4px;',
      'margin-right: auto;',
      'padding-left: 1rem;',
      'padding-right: 6px;',
      'left: 0;',
      'right: 22%;',
      'border-left: 3px solid;',
      'border-right-color: red;',
      'border-top-left-radius: 4px;',
      'text-align: left;',
      'text-align: right;',
      'float: left;',
      'clear: right;',
    ];
    const css = physical.map((declaration) => `.a { ${declaration} }`).join('\n');
    const lines = (await refused(css)).map((found) => Number(found.split(':')[0]));
    expect([...new Set(lines)]).toEqual(physical.map((_, index) => index + 1));
  });

  it('accepts their logical forms, and top, bottom, width and height', async () => {
    const css = `.a {
  margin-inline-start: 4px;
  padding-inline: 1rem 6px;
  inset-inline: 0 22%;
  border-inline-start: 3px solid;
  border-start-start-radius: 4px;
  text-align: start;
  float: inline-end;
  top: 0;
  bottom: 0;
  width: 10px;
  max-height: 50vh;
  margin-top: 2px;
  overflow-x: auto;
}`;
    expect(await refused(css)).toEqual([]);
  });
});
