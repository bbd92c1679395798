/**
 * The composer's drafts, read in process from a temporary folder: a good file kept and a bad one
 * refused by name, a pasted file kept as pasted, and at the sending a file deleted meanwhile, an
 * unknown draft, too many files or too many tokens refused before anything is stored.
 */
import { mkdtemp, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  AttachmentDrafts,
  DEFAULT_ATTACHMENT_LIMITS,
  type AttachmentLimits,
} from '../../../../electron/main/services/chat/attachment-drafts';
import { readDocumentsInProcess } from '../../../../electron/main/services/documents/read-documents';
import { MAX_ATTACHMENTS } from '../../../../electron/shared/ipc/routes/chat';

let dir: string;
let limits: AttachmentLimits;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'relay-attachment-drafts-'));
  limits = { ...DEFAULT_ATTACHMENT_LIMITS, maxBytes: 1000 };
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const drafts = () => new AttachmentDrafts(readDocumentsInProcess(), async () => limits);

describe('AttachmentDrafts', () => {
  it('keeps the files that read, and refuses the others by name with why', async () => {
    await writeFile(join(dir, 'note.md'), '# Harbour\n\nOpens at six.');
    await writeFile(join(dir, 'big.txt'), 'x'.repeat(2000));
    const { attached, refused } = await drafts().attachPaths([
      join(dir, 'note.md'),
      join(dir, 'big.txt'),
      join(dir, 'gone.txt'),
    ]);
    expect(attached.map((a) => [a.name, a.kind, a.mimeType])).toEqual([
      ['note.md', 'text', 'text/markdown'],
    ]);
    expect(attached[0]?.tokens).toBeGreaterThan(0);
    expect(refused.map((r) => [r.name, r.reason])).toEqual([
      ['big.txt', 'too_large'],
      ['gone.txt', 'missing'],
    ]);
    expect(refused[0]?.message).toMatch(/^big\.txt was not added:/);
  });

  it('keeps a pasted file as pasted, its name without a folder', async () => {
    const composer = drafts();
    const { attached } = await composer.attachBytes('C:\\Users\\x\\pasted.txt', Buffer.from('hi'));
    expect(attached[0]?.name).toBe('pasted.txt');
    const files = await composer.prepare([attached[0]!.id], 'Read this');
    expect(files).toEqual([
      {
        name: 'pasted.txt',
        kind: 'text',
        mimeType: 'text/plain',
        data: Buffer.from('hi'),
        text: 'hi',
      },
    ]);
    const bad = await composer.attachBytes('blob.bin', new Uint8Array([0, 1, 2, 0, 255]));
    expect(bad.attached).toEqual([]);
    expect(bad.refused[0]?.name).toBe('blob.bin');
  });

  it('reads a file again when sent, and refuses it by name when it is gone', async () => {
    await writeFile(join(dir, 'a.txt'), 'First.');
    const composer = drafts();
    const { attached } = await composer.attachPaths([join(dir, 'a.txt')]);
    const id = attached[0]!.id;
    await writeFile(join(dir, 'a.txt'), 'First, changed.');
    expect((await composer.prepare([id], ''))[0]?.text).toBe('First, changed.');
    await unlink(join(dir, 'a.txt'));
    await expect(composer.prepare([id], '')).rejects.toThrow(/^a\.txt was not sent: /);
    // The draft is kept: the person may remove it and send again.
    composer.discard([id]);
    await expect(composer.prepare([id], '')).rejects.toMatchObject({ kind: 'invalid_request' });
  });

  it('refuses too many files, and a message with its files over the token budget', async () => {
    const composer = drafts();
    await expect(
      composer.prepare(
        Array.from({ length: MAX_ATTACHMENTS + 1 }, (_, i) => `d-${i}`),
        '',
      ),
    ).rejects.toMatchObject({ kind: 'invalid_request' });
    expect(await composer.prepare([], 'x'.repeat(1_000_000))).toEqual([]);
    const { attached } = await composer.attachBytes('n.txt', Buffer.from('y'.repeat(400)));
    limits = { ...limits, contextTokens: 100 };
    await expect(composer.prepare([attached[0]!.id], 'Hi')).rejects.toMatchObject({
      kind: 'invalid_request',
    });
    limits = { ...limits, contextTokens: 1000 };
    expect(await composer.prepare([attached[0]!.id], 'Hi')).toHaveLength(1);
    composer.sent([attached[0]!.id]);
    await expect(composer.prepare([attached[0]!.id], 'Hi')).rejects.toMatchObject({
      kind: 'invalid_request',
    });
  });
});
