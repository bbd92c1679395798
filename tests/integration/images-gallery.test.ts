/**
 * The gallery on a real disk and a real SQLite file: atomic saves, a process killed mid-save,
 * hostile names and planted links that must not lead a write or a read out of the folder, and
 * the index rebuilt from the files.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rm,
  symlink,
  unlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../electron/main/services/database';
import { renameLegacyImage, sha256Hex } from '../../electron/main/services/images/gallery-files';
import { nameDate } from '../../electron/main/services/images/image-names';
import { ImageGallery, type NewImage } from '../../electron/main/services/images/gallery';

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function fakePng(size = 256): Uint8Array {
  const bytes = new Uint8Array(randomBytes(size));
  bytes.set(PNG_SIGNATURE, 0);
  return bytes;
}

function image(overrides: Partial<NewImage> = {}): NewImage {
  return {
    bytes: fakePng(),
    mimeType: 'image/png',
    prompt: 'a lighthouse at dusk',
    model: 'demo-image',
    size: '512x512',
    ...overrides,
  };
}

let root: string;
let folder: string;
let dbs: Db[];

async function openGallery(dbFile = join(root, 'data', 'relay.db'), at = folder) {
  const db = await openDatabase({ path: dbFile });
  dbs.push(db);
  const gallery = await ImageGallery.open({ db, defaultFolder: at });
  await gallery.whenIndexed();
  return gallery;
}

/** `count` distinct PNG files with sidecars in `at`, named by hash as before 0.2; their ids. */
async function fillFolder(at: string, count: number): Promise<string[]> {
  await mkdir(at, { recursive: true });
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const png = fakePng(64);
    const id = sha256Hex(png);
    await writeFile(join(at, `${id}.png`), png);
    const createdAt = new Date(Date.parse('2026-01-01T00:00:00Z') + i * 1000).toISOString();
    await writeFile(
      join(at, `${id}.json`),
      JSON.stringify({ prompt: `image ${i}`, model: 'demo-image', size: '64x64', createdAt }),
    );
    ids.push(id);
  }
  return ids;
}

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'relay-gallery-'));
  folder = join(root, 'Pictures', 'Relay Desktop');
  dbs = [];
});
afterEach(async () => {
  for (const db of dbs) db.close();
  await rm(root, { recursive: true, force: true });
});

describe('saving an image', () => {
  it('writes the file named by its prompt and date, its sidecar with the hash, then the row; no temp file stays', async () => {
    const gallery = await openGallery();
    const bytes = fakePng(4096);
    const saved = await gallery.save(image({ bytes, revisedPrompt: 'a tall lighthouse' }));
    const id = sha256Hex(bytes);
    const stem = `a-lighthouse-at-dusk-${nameDate(new Date(saved.createdAt))}-1`;
    expect(saved).toMatchObject({
      id,
      fileName: `${stem}.png`,
      url: `/gallery/${id}.png`,
      mimeType: 'image/png',
      prompt: 'a lighthouse at dusk',
      revisedPrompt: 'a tall lighthouse',
      model: 'demo-image',
      size: '512x512',
      bytes: 4096,
    });
    expect(new Uint8Array(await readFile(join(folder, `${stem}.png`)))).toEqual(bytes);
    const sidecar = JSON.parse(await readFile(join(folder, `${stem}.json`), 'utf8'));
    expect(sidecar).toMatchObject({
      prompt: 'a lighthouse at dusk',
      revisedPrompt: 'a tall lighthouse',
      model: 'demo-image',
      size: '512x512',
      sha256: id,
    });
    expect(Date.parse(sidecar.createdAt)).not.toBeNaN();
    expect((await readdir(folder)).sort()).toEqual([`${stem}.json`, `${stem}.png`]);
    expect(gallery.list().images.map((i) => i.id)).toEqual([id]);
    expect((await gallery.get(id)).path).toBe(join(await gallery.realFolder(), `${stem}.png`));
  });

  it('names the file after the type its bytes show, whatever it was called', async () => {
    const gallery = await openGallery();
    const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, ...randomBytes(64)]);
    const saved = await gallery.save(image({ bytes: jpeg, mimeType: 'image/jpeg' }));
    expect(saved.fileName).toMatch(/^a-lighthouse-at-dusk-\d{4}-\d\d-\d\d-1\.jpg$/);
    expect(saved.url).toBe(`/gallery/${sha256Hex(jpeg)}.jpg`);
    await expect(gallery.save(image({ mimeType: 'image/svg+xml' }))).rejects.toThrow(
      /image\/svg\+xml are not saved/,
    );
  });

  it('lists newest first, a page at a time', async () => {
    let clock = Date.parse('2026-01-01T00:00:00Z');
    const db = await openDatabase({ path: join(root, 'paged.db') });
    dbs.push(db);
    const gallery = await ImageGallery.open({
      db,
      defaultFolder: folder,
      now: () => new Date((clock += 1000)),
    });
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) ids.push((await gallery.save(image())).id);
    const first = gallery.list({ limit: 3 });
    expect(first.total).toBe(7);
    expect(first.images.map((i) => i.id)).toEqual(ids.slice().reverse().slice(0, 3));
    const second = gallery.list({ limit: 3, ...(first.next ? { after: first.next } : {}) });
    const third = gallery.list({ limit: 3, ...(second.next ? { after: second.next } : {}) });
    expect([...first.images, ...second.images, ...third.images].map((i) => i.id)).toEqual(
      ids.slice().reverse(),
    );
    expect(third.next).toBeUndefined();
  });
});

describe('a process killed with SIGKILL in the middle of saving', () => {
  it('leaves no partial image and no row without its file', async () => {
    const dbFile = join(root, 'data', 'relay.db');
    await mkdir(join(root, 'data'), { recursive: true });
    const gallerySource = resolve(
      import.meta.dirname,
      '../../electron/main/services/images/gallery.ts',
    );
    const databaseSource = resolve(import.meta.dirname, '../../electron/main/services/database.ts');
    const child = join(root, 'save-loop.mts');
    await writeFile(
      child,
      `import { randomBytes } from 'node:crypto';
import { openDatabase } from ${JSON.stringify(databaseSource)};
import { ImageGallery } from ${JSON.stringify(gallerySource)};
const db = await openDatabase({ path: ${JSON.stringify(dbFile)} });
const gallery = await ImageGallery.open({ db, defaultFolder: ${JSON.stringify(folder)} });
for (let i = 0; ; i++) {
  const bytes = new Uint8Array(randomBytes(6 * 1024 * 1024));
  bytes.set([${PNG_SIGNATURE.join(', ')}], 0);
  await gallery.save({ bytes, mimeType: 'image/png', prompt: 'loop ' + i, model: 'm', size: '1x1' });
  process.stdout.write('saved\\n');
}
`,
    );
    const repo = resolve(import.meta.dirname, '../..');
    for (let round = 0; round < 3; round++) {
      // Node itself with tsx's loader, so the signal reaches the process that writes.
      const proc = spawn(process.execPath, ['--import', 'tsx', child], {
        cwd: repo,
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      await new Promise<void>((done, fail) => {
        let saves = 0;
        proc.stdout.on('data', (chunk: Buffer) => {
          saves += chunk.toString().split('saved').length - 1;
          // Kill it a little after a save, in the middle of the next one.
          if (saves >= 2) setTimeout(() => proc.kill('SIGKILL'), 5 + round * 7);
        });
        proc.on('exit', () => done());
        proc.on('error', fail);
      });
      expect(proc.signalCode).toBe('SIGKILL');

      // Before anything tidies up: every image at its final name is whole (its sidecar, written
      // first, says the hash of its bytes).
      for (const name of await readdir(folder)) {
        if (!name.endsWith('.png') || name.startsWith('.')) continue;
        const sidecar = JSON.parse(
          await readFile(join(folder, name.replace(/\.png$/, '.json')), 'utf8'),
        ) as { sha256: string };
        expect(sha256Hex(await readFile(join(folder, name)))).toBe(sidecar.sha256);
      }
    }

    const gallery = await openGallery(dbFile);
    const names = await readdir(folder);
    expect(names.filter((n) => n.endsWith('.tmp'))).toEqual([]);
    const { images, total } = gallery.list({ limit: 10_000 });
    expect(total).toBeGreaterThanOrEqual(6);
    for (const saved of images) {
      expect(names).toContain(saved.fileName);
      expect(sha256Hex(await readFile(join(folder, saved.fileName)))).toBe(saved.id);
      expect(saved.prompt).toMatch(/^loop \d+$/);
    }
    // Every whole image on disk is in the gallery too.
    expect(names.filter((n) => n.endsWith('.png')).sort()).toEqual(
      images.map((i) => i.fileName).sort(),
    );
  }, 60_000);
});

describe('names and links that try to leave the folder', () => {
  it('never turns a prompt, a revised prompt or a model name into a path', async () => {
    const gallery = await openGallery();
    const hostile = '../../../../outside/evil.png';
    const saved = await gallery.save(
      image({ prompt: hostile, revisedPrompt: '..\\..\\evil', model: '/etc/passwd' }),
    );
    const stem = `outside-evil-png-${nameDate(new Date(saved.createdAt))}-1`;
    expect((await readdir(folder)).sort()).toEqual([`${stem}.json`, `${stem}.png`]);
    expect(await readdir(join(root, 'Pictures'))).toEqual(['Relay Desktop']);
    expect((await gallery.get(saved.id)).prompt).toBe(hostile);
  });

  it('serves only gallery images by their hashes, never a file name the page says', async () => {
    const gallery = await openGallery();
    const saved = await gallery.save(image());
    await writeFile(join(root, 'secret.txt'), 'secret');
    expect(saved.url).toBe(`/gallery/${saved.id}.png`);
    expect(await gallery.servedFile(saved.url)).toBe(
      join(await gallery.realFolder(), saved.fileName),
    );
    for (const path of [
      `/gallery/${saved.fileName}`,
      `/gallery/${saved.id}.jpg`,
      '/gallery/../../secret.txt',
      '/gallery/..%2f..%2fsecret.txt',
      `/gallery/${saved.id}.json`,
      `/gallery/${saved.id}.PNG`,
      `/gallery/${saved.fileName}/..`,
      `/gallery/sub/${saved.fileName}`,
      `/assets/${saved.fileName}`,
      '/gallery/',
    ]) {
      expect(await gallery.servedFile(path), path).toBeUndefined();
    }
    await expect(gallery.get('../../secret')).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('replaces a link planted at the name it writes instead of writing through it', async () => {
    const gallery = await openGallery();
    const bytes = fakePng();
    const id = sha256Hex(bytes);
    const outsideImage = join(root, 'outside.png');
    const outsideSidecar = join(root, 'outside.json');
    await writeFile(outsideImage, 'do not touch');
    await writeFile(outsideSidecar, 'do not touch');
    await mkdir(folder, { recursive: true });
    const stem = `a-lighthouse-at-dusk-${nameDate(new Date())}-1`;
    await symlink(outsideImage, join(folder, `${stem}.png`));
    await symlink(outsideSidecar, join(folder, `${stem}.json`));

    const saved = await gallery.save(image({ bytes }));
    expect(saved.id).toBe(id);
    expect(await readFile(outsideImage, 'utf8')).toBe('do not touch');
    expect(await readFile(outsideSidecar, 'utf8')).toBe('do not touch');
    // The name a link holds is taken: the image goes to the next one, a file of its own.
    expect(saved.fileName).toBe(`${stem.replace(/-1$/, '-2')}.png`);
    expect((await lstat(join(folder, saved.fileName))).isFile()).toBe(true);
    expect(new Uint8Array(await readFile(join(folder, saved.fileName)))).toEqual(bytes);
  });

  it('neither indexes nor serves a link to an image outside the folder', async () => {
    const bytes = fakePng();
    const id = sha256Hex(bytes);
    const elsewhere = join(root, 'elsewhere');
    await mkdir(elsewhere, { recursive: true });
    await writeFile(join(elsewhere, `${id}.png`), bytes);
    await mkdir(folder, { recursive: true });
    await symlink(join(elsewhere, `${id}.png`), join(folder, `${id}.png`));
    await symlink(elsewhere, join(folder, 'linked-folder'));

    const gallery = await openGallery();
    expect(gallery.list().total).toBe(0);
    expect(await gallery.servedFile(`/gallery/${id}.png`)).toBeUndefined();
  });

  it('serves a file only under its own name: a <hash>.png link to a page in the folder is refused', async () => {
    const gallery = await openGallery();
    const saved = await gallery.save(image());
    // A page placed in the gallery folder, and a link with an image's name pointing at it.
    await writeFile(join(folder, 'page.html'), '<script>alert(1)</script>');
    const id = sha256Hex(fakePng());
    await symlink('page.html', join(folder, `${id}.png`));
    // Even a link to a real image under another image's name is not served.
    await symlink(saved.fileName, join(folder, `${sha256Hex(fakePng())}.png`));
    expect(await gallery.servedFile(`/gallery/${id}.png`)).toBeUndefined();
    for (const name of await readdir(folder)) {
      if (name === saved.fileName || !name.endsWith('.png')) continue;
      expect(await gallery.servedFile(`/gallery/${name}`), name).toBeUndefined();
    }
    expect(await gallery.servedFile(saved.url)).toBe(
      join(await gallery.realFolder(), saved.fileName),
    );
  });

  it('refuses a relative gallery folder', async () => {
    const gallery = await openGallery();
    await expect(gallery.setFolder('relative/place')).rejects.toMatchObject({
      kind: 'invalid_request',
    });
  });
});

describe('the folder is the source of truth', () => {
  it('rebuilds a lost index from the files and their sidecars', async () => {
    const first = await openGallery(join(root, 'first.db'));
    const saved = [
      await first.save(image({ prompt: 'one' })),
      await first.save(image({ prompt: 'two', revisedPrompt: 'two, revised' })),
    ];
    const loose = fakePng();
    await writeFile(join(folder, `${sha256Hex(loose)}.png`), loose);
    await writeFile(join(folder, `${'0'.repeat(64)}.png`), fakePng()); // bytes do not match the name
    await writeFile(join(folder, 'holiday.png'), fakePng());

    const rebuilt = await openGallery(join(root, 'second.db'));
    const { images } = rebuilt.list();
    expect(images.map((i) => i.id).sort()).toEqual(
      [...saved.map((s) => s.id), sha256Hex(loose)].sort(),
    );
    expect(await rebuilt.get(saved[1]!.id)).toMatchObject({
      prompt: 'two',
      revisedPrompt: 'two, revised',
      model: 'demo-image',
      size: '512x512',
      createdAt: saved[1]!.createdAt,
    });
    expect(await rebuilt.get(sha256Hex(loose))).toMatchObject({ prompt: '', model: '' });
  });

  it('drops rows whose file is gone and sweeps temp files left by a crash', async () => {
    const dbFile = join(root, 'data.db');
    const gallery = await openGallery(dbFile);
    const kept = await gallery.save(image());
    const gone = await gallery.save(image());
    await unlink(join(folder, gone.fileName));
    const temp = join(folder, `.${gone.id}.png.1234.abcdef012345.tmp`);
    await writeFile(temp, 'half');
    await writeFile(join(folder, 'notes.tmp'), 'not ours');

    const reopened = await openGallery(dbFile);
    expect(reopened.list().images.map((i) => i.id)).toEqual([kept.id]);
    const names = await readdir(folder);
    expect(names).not.toContain(`.${gone.id}.png.1234.abcdef012345.tmp`);
    expect(names).toContain('notes.tmp');
    await expect(reopened.get(gone.id)).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('shows what is in a newly chosen folder', async () => {
    const gallery = await openGallery();
    await gallery.save(image());
    const other = join(root, 'Other');
    const { path, isDefault } = await gallery.setFolder(other);
    expect({ path, isDefault }).toEqual({ path: other, isDefault: false });
    expect(gallery.list().total).toBe(0);
    const there = await gallery.save(image());
    expect(await readdir(other)).toContain(there.fileName);
    await gallery.whenIndexed();
    expect(gallery.list().images.map((i) => i.id)).toEqual([there.id]);
  });

  it('deletes by moving the file and its sidecar away, then the row', async () => {
    const gallery = await openGallery();
    const saved = await gallery.save(image());
    const trashed: string[] = [];
    await gallery.delete(saved.id, async (path) => {
      trashed.push(path);
      await rm(path);
    });
    const real = await gallery.realFolder();
    expect(trashed).toEqual([
      join(real, saved.fileName),
      join(real, saved.fileName.replace(/\.png$/, '.json')),
    ]);
    expect(gallery.list().total).toBe(0);
  });
});

describe('indexing in the background', () => {
  it('opens at once and shows what is indexed so far, with how far it has got', async () => {
    const ids = await fillFolder(folder, 120);
    const db = await openDatabase({ path: join(root, 'background.db') });
    dbs.push(db);
    const seen: Array<{ total: number; indexing?: { done: number; total: number } | undefined }> =
      [];
    const held: { gallery?: ImageGallery } = {};
    const gallery = await ImageGallery.open({
      db,
      defaultFolder: folder,
      batchSize: 10,
      changeIntervalMs: 0,
      onChange: () => {
        const page = held.gallery?.list({ limit: 1 });
        if (page) seen.push({ total: page.total, indexing: page.indexing });
      },
    });
    held.gallery = gallery;
    // Open resolves before the files are read: nothing indexed yet, and it says so.
    expect(gallery.list().total).toBe(0);
    expect(gallery.list().indexing).toEqual({ done: 0, total: 0 });

    await gallery.whenIndexed();
    expect(gallery.list().total).toBe(120);
    expect(gallery.list().indexing).toBeUndefined();
    expect(gallery.list({ limit: 500 }).images.map((i) => i.id)).toEqual(ids.slice().reverse());
    // The page was told after each batch, with the rows indexed by then and the progress.
    const partial = seen.filter((s) => s.indexing && s.total > 0 && s.total < 120);
    expect(partial.length).toBeGreaterThan(5);
    for (const step of partial) expect(step.indexing).toEqual({ done: step.total, total: 120 });
    expect(seen.at(-1)).toEqual({ total: 120, indexing: undefined });
  });

  it('keeps answering while it indexes: the event loop is free between batches', async () => {
    await fillFolder(folder, 200);
    const db = await openDatabase({ path: join(root, 'responsive.db') });
    dbs.push(db);
    const gallery = await ImageGallery.open({ db, defaultFolder: folder, batchSize: 8 });
    const totals: number[] = [];
    while (gallery.indexing() !== undefined) {
      await new Promise((resolve) => setImmediate(resolve));
      totals.push(gallery.list({ limit: 1 }).total);
    }
    await gallery.whenIndexed();
    expect(new Set(totals).size).toBeGreaterThan(10);
    expect(gallery.list().total).toBe(200);
  });

  it('stops indexing a folder left for another, and indexes the new one', async () => {
    await fillFolder(folder, 150);
    const other = join(root, 'Other');
    const theirs = await fillFolder(other, 3);
    const db = await openDatabase({ path: join(root, 'switch.db') });
    dbs.push(db);
    const gallery = await ImageGallery.open({ db, defaultFolder: folder, batchSize: 5 });
    while ((gallery.indexing()?.done ?? 0) === 0) await new Promise((r) => setImmediate(r));
    await gallery.setFolder(other);
    await gallery.whenIndexed();
    expect(
      gallery
        .list()
        .images.map((i) => i.id)
        .sort(),
    ).toEqual(theirs.slice().sort());
  });

  it('stops when closed, keeping what it indexed, and goes on at the next start', async () => {
    await fillFolder(folder, 150);
    const dbFile = join(root, 'closed.db');
    const db = await openDatabase({ path: dbFile });
    const gallery = await ImageGallery.open({ db, defaultFolder: folder, batchSize: 5 });
    while ((gallery.indexing()?.done ?? 0) < 20) await new Promise((r) => setImmediate(r));
    await gallery.close();
    const kept = gallery.list().total;
    expect(kept).toBeGreaterThanOrEqual(20);
    expect(kept).toBeLessThan(150);
    db.close();

    const reopened = await openGallery(dbFile);
    expect(reopened.list().total).toBe(150);
  });

  it('never drops an image saved while the folder is being read', async () => {
    await fillFolder(folder, 100);
    const db = await openDatabase({ path: join(root, 'race.db') });
    dbs.push(db);
    const gallery = await ImageGallery.open({ db, defaultFolder: folder, batchSize: 4 });
    const saved = await gallery.save(image({ prompt: 'saved meanwhile' }));
    await gallery.whenIndexed();
    expect(gallery.list({ limit: 500 }).images.map((i) => i.id)).toContain(saved.id);
    expect(gallery.list().total).toBe(101);
  });
});

describe('indexing put off at start (indexAfterMs)', () => {
  /** Rows indexed so far, read from the table (a `list` would start the indexing). */
  const rowsIn = (db: Db) => Number(db.one<{ n: number }>('SELECT COUNT(*) AS n FROM images')?.n);
  /** A few turns of the event loop and of the thread pool, time for an indexing to begin. */
  const settle = async () => {
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setTimeout(resolve, 5));
  };

  it('reads nothing of the folder until the gallery is asked for, then indexes it all', async () => {
    await fillFolder(folder, 30);
    const db = await openDatabase({ path: join(root, 'deferred.db') });
    dbs.push(db);
    const gallery = await ImageGallery.open({ db, defaultFolder: folder, indexAfterMs: 600_000 });
    await settle();
    expect(gallery.indexing()).toBeUndefined();
    expect(rowsIn(db)).toBe(0);

    // The person opens the gallery: the page learns it is being indexed, and it all comes in.
    expect(gallery.list().indexing).toEqual({ done: 0, total: 0 });
    await gallery.whenIndexed();
    expect(gallery.list().total).toBe(30);
  });

  it('starts by itself once the time is up', async () => {
    await fillFolder(folder, 10);
    const db = await openDatabase({ path: join(root, 'timed.db') });
    dbs.push(db);
    await ImageGallery.open({ db, defaultFolder: folder, indexAfterMs: 20 });
    while (rowsIn(db) < 10) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(rowsIn(db)).toBe(10);
  });

  it('is started by whenIndexed, and never once closed', async () => {
    await fillFolder(folder, 10);
    const db = await openDatabase({ path: join(root, 'asked.db') });
    dbs.push(db);
    const asked = await ImageGallery.open({ db, defaultFolder: folder, indexAfterMs: 600_000 });
    await asked.whenIndexed();
    expect(rowsIn(db)).toBe(10);

    const other = await openDatabase({ path: join(root, 'closed-early.db') });
    dbs.push(other);
    const closed = await ImageGallery.open({ db: other, defaultFolder: folder, indexAfterMs: 20 });
    await closed.close();
    await settle();
    expect(rowsIn(other)).toBe(0);
  });
});

describe('files saved before 0.2 under their hashes', () => {
  /** A `<hash>.png` with its `<hash>.json`, as 0.1 saved them; its id. */
  async function legacy(prompt: string, createdAt = '2026-11-24T14:01:13.085Z') {
    await mkdir(folder, { recursive: true });
    const png = fakePng(128);
    const id = sha256Hex(png);
    await writeFile(join(folder, `${id}.png`), png);
    await writeFile(
      join(folder, `${id}.json`),
      JSON.stringify({ prompt, model: 'demo-image', size: '64x64', createdAt }),
    );
    return { id, png, day: nameDate(new Date(createdAt)) };
  }

  it('are renamed from their prompts and dates, the hash kept in the sidecar, nothing lost', async () => {
    const fox = await legacy('Fox in snow');
    const emoji = await legacy('🦊/🌨️');
    const gallery = await openGallery();
    expect((await readdir(folder)).sort()).toEqual(
      [
        `fox-in-snow-${fox.day}-1.json`,
        `fox-in-snow-${fox.day}-1.png`,
        `image-${emoji.day}-1.json`,
        `image-${emoji.day}-1.png`,
      ].sort(),
    );
    const sidecar = JSON.parse(
      await readFile(join(folder, `fox-in-snow-${fox.day}-1.json`), 'utf8'),
    );
    expect(sidecar).toMatchObject({ prompt: 'Fox in snow', model: 'demo-image', sha256: fox.id });
    expect(new Uint8Array(await readFile(join(folder, `fox-in-snow-${fox.day}-1.png`)))).toEqual(
      fox.png,
    );
    const shown = await gallery.get(fox.id);
    expect(shown).toMatchObject({
      fileName: `fox-in-snow-${fox.day}-1.png`,
      url: `/gallery/${fox.id}.png`,
      prompt: 'Fox in snow',
    });
    expect(await gallery.servedFile(shown.url)).toBe(shown.path);
    // Opened again, nothing moves.
    await openGallery();
    expect((await readdir(folder)).length).toBe(4);
  });

  it('take the next number when the name is taken, by the person’s own file or another image', async () => {
    const first = await legacy('a red bicycle');
    const second = await legacy('a red bicycle');
    await writeFile(join(folder, `a-red-bicycle-${first.day}-1.png`), 'the person’s own file');
    const gallery = await openGallery();
    expect(await readFile(join(folder, `a-red-bicycle-${first.day}-1.png`), 'utf8')).toBe(
      'the person’s own file',
    );
    const names = [(await gallery.get(first.id)).fileName, (await gallery.get(second.id)).fileName];
    expect(names.sort()).toEqual([
      `a-red-bicycle-${first.day}-2.png`,
      `a-red-bicycle-${first.day}-3.png`,
    ]);
    expect(gallery.list().total).toBe(2);
  });

  it('leave a sidecar without its image, and an image whose bytes are not its hash, as they are', async () => {
    await mkdir(folder, { recursive: true });
    const orphan = sha256Hex(fakePng());
    await writeFile(join(folder, `${orphan}.json`), JSON.stringify({ prompt: 'gone' }));
    const wrong = `${'0'.repeat(64)}.png`;
    await writeFile(join(folder, wrong), fakePng());
    const gallery = await openGallery();
    expect((await readdir(folder)).sort()).toEqual([`${orphan}.json`, wrong].sort());
    expect(gallery.list().total).toBe(0);
  });

  it('are left as they were when the image goes missing during the rename', async () => {
    const gone = await legacy('a lighthouse at dusk');
    await unlink(join(folder, `${gone.id}.png`));
    await expect(renameLegacyImage(folder, gone.id, 'png', new Date())).resolves.toBeUndefined();
    expect(await readdir(folder)).toEqual([`${gone.id}.json`]);
  });

  it('pick up a rename a crash cut short, under the name it had begun', async () => {
    const cut = await legacy('a lighthouse at dusk');
    // The crash came after the new sidecar was written, before the image was linked to its name.
    await writeFile(
      join(folder, `a-lighthouse-at-dusk-${cut.day}-1.json`),
      JSON.stringify({ prompt: 'a lighthouse at dusk', sha256: cut.id }),
    );
    const gallery = await openGallery();
    expect((await readdir(folder)).sort()).toEqual([
      `a-lighthouse-at-dusk-${cut.day}-1.json`,
      `a-lighthouse-at-dusk-${cut.day}-1.png`,
    ]);
    expect((await gallery.get(cut.id)).fileName).toBe(`a-lighthouse-at-dusk-${cut.day}-1.png`);
  });
});
