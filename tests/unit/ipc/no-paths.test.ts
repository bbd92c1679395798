/**
 * The page never names a path: no route of the contract takes a field named like one, at any
 * depth of its request. A file reaches main from main's own dialogs, or as an opaque grant main
 * issued for a file the person dropped (`files:grant-dropped`, the preload's channel, which is no
 * route of the page's bridge).
 */
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { ROUTES } from '../../../electron/shared/ipc/contract';

const PATH_LIKE = /^(path|paths|filePath|filePaths|folder|folders|dir|dirs|directory|file|files)$/i;

interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  element?: z.ZodType;
  options?: z.ZodType[];
  in?: z.ZodType;
  out?: z.ZodType;
  left?: z.ZodType;
  right?: z.ZodType;
  valueType?: z.ZodType;
}

/** Every field name a request takes, with where it sits (`a.b[].c`). */
function fieldsOf(schema: z.ZodType | undefined, at = '', seen = new Set<unknown>()): string[] {
  if (schema === undefined || seen.has(schema)) return [];
  seen.add(schema);
  const def = (schema as unknown as { _zod: { def: Def } })._zod.def;
  const shape =
    def.type === 'object' ? (schema as unknown as { shape: Def['shape'] }).shape : undefined;
  const out: string[] = [];
  for (const [name, field] of Object.entries(shape ?? {})) {
    out.push(`${at}${name}`, ...fieldsOf(field, `${at}${name}.`, seen));
  }
  for (const inner of [def.innerType, def.in, def.out, def.left, def.right, def.valueType])
    out.push(...fieldsOf(inner, at, seen));
  if (def.element) out.push(...fieldsOf(def.element, `${at.replace(/\.$/, '')}[].`, seen));
  for (const option of def.options ?? []) out.push(...fieldsOf(option, at, seen));
  return out;
}

describe('the contract', () => {
  it('reads the fields of a request at every depth (the walk itself works)', () => {
    const fields = fieldsOf(ROUTES.updateConnection.request);
    expect(fields).toEqual(expect.arrayContaining(['id', 'changes', 'changes.baseUrl']));
  });

  it('has no route whose request names a path', () => {
    const named = Object.entries(ROUTES).flatMap(([name, spec]) =>
      fieldsOf(spec.request)
        .filter((field) => PATH_LIKE.test(field.split('.').at(-1)!.replace('[]', '')))
        .map((field) => `${name} (${spec.channel}): ${field}`),
    );
    expect(named).toEqual([]);
  });

  it('has no route of the preload’s own: the page cannot ask for a grant', () => {
    expect(Object.values(ROUTES).map((r) => r.channel)).not.toContain('files:grant-dropped');
  });
});
