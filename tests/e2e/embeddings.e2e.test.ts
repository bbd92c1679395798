import { mkdtemp, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Locator } from 'playwright-core';
import { describe, expect, it, onTestFinished } from 'vitest';
import { startDemoRelay } from '../../electron/demo-relay/index';
import { embedText } from '../../electron/demo-relay/models/embeddings';
import type { Dialogs } from '../../electron/main/app-context';
import { e2eSuite, type ConnectedOptions } from './harness/suite';
import { EmbeddingsPage } from './pages/embeddings-page';
import { cutPlaceholders } from './pages/layout';

const suite = e2eSuite({
  relay: { ratePerMinute: 100_000 },
  scratch: true,
  connectionName: 'Embeddings relay',
});
const key = suite.key;
const connected = (options: ConnectedOptions = {}) => suite.connected(EmbeddingsPage, options);

describe('embeddings playground', () => {
  it('embeds texts, shows their vectors, and ranks by meaning: cat is nearer kitten than invoice', async () => {
    const page = await connected();
    await page.embedLines(['cat', 'kitten', 'invoice', 'receipt']);
    await page.waitForPictures();
    await expect.poll(() => page.row(0).textContent()).toContain('256');
    expect(await page.row(0).textContent()).toContain('1.0000');

    // Hovering a cell of the heatmap says the pair and its similarity.
    await page.heatmap.hover({ position: { x: 20, y: 20 } });
    await expect.poll(() => page.heatmapReadout.textContent()).toMatch(/: 1\.000$/);

    // And by keyboard: the arrow keys walk the cells, the value is announced.
    await page.heatmap.focus();
    await suite.app.page.keyboard.press('ArrowRight');
    await suite.app.page.keyboard.press('ArrowRight');
    await expect.poll(() => page.heatmapReadout.textContent()).toMatch(/” and “.*”: -?\d\.\d{3}$/);

    const ranked = await page.nearest('kitty');
    expect(ranked.indexOf('kitten')).toBeLessThan(ranked.indexOf('invoice'));
    expect(ranked[0]).toMatch(/^(cat|kitten)$/);
    expect(suite.app.pageErrors).toEqual([]);
    expect(suite.app.cspViolations.filter((v) => !v.startsWith('font-src'))).toEqual([]);
  });

  it('on a wide window, the pictures sit beside the inputs, numbered, labelled apart, dark in the dark theme', async () => {
    const page = await connected({ colorScheme: 'dark' });
    await suite.app.page.setViewportSize({ width: 1280, height: 800 });
    const texts = [
      'cat',
      'kitten',
      'invoice',
      'receipt',
      'dog',
      'puppy',
      'The quarterly report is due on Friday afternoon',
      'Please pay the attached invoice by Monday',
    ];
    await page.embedLines(texts);
    await page.waitForPictures();
    await suite.app.screenshot('embeddings-wide-dark');
    const box = async (locator: Locator) => {
      const found = await locator.boundingBox();
      if (!found) throw new Error('not shown');
      return {
        left: found.x,
        top: found.y,
        right: found.x + found.width,
        bottom: found.y + found.height,
      };
    };

    // Beside, not below: the heatmap starts right of the inputs, level with them.
    const inputs = await box(suite.app.page.locator('.embeddings-input'));
    const heatmap = await box(page.heatmap);
    expect(heatmap.left).toBeGreaterThanOrEqual(inputs.right);
    expect(heatmap.top).toBeLessThan(inputs.bottom);

    // The vectors table stays in its column and scrolls within its box.
    const results = await box(page.results);
    expect(results.right).toBeLessThanOrEqual(heatmap.left);
    const scroller = page.results.locator('.embeddings-table-scroll');
    const inner = await box(scroller);
    expect(inner.right).toBeLessThanOrEqual(results.right);
    const overflow = await scroller.evaluate(
      (element) =>
        (
          globalThis as unknown as {
            getComputedStyle(e: unknown): { overflowX: string };
          }
        ).getComputedStyle(element).overflowX,
    );
    expect(['auto', 'scroll']).toContain(overflow);

    // Rows and columns carry the numbers of the inputs table: in input order, 1 to n.
    await suite.app.page.getByLabel('Order by similarity').setChecked(false);
    const numbers = texts.map((_, i) => String(i + 1));
    await expect
      .poll(() => suite.app.page.locator('.heatmap-cols .heatmap-number').allTextContents())
      .toEqual(numbers);
    await expect(
      suite.app.page.locator('.heatmap-rows .heatmap-number').allTextContents(),
    ).resolves.toEqual(numbers);

    // The map's labels: several shown, none over another, none past the edge of the plot.
    const plot = await box(page.scatter);
    const labels = await Promise.all(
      (await suite.app.page.locator('.scatter-label').all()).map((label) => box(label)),
    );
    expect(labels.length).toBeGreaterThanOrEqual(texts.length / 2);
    for (const [i, a] of labels.entries()) {
      expect(a.left).toBeGreaterThanOrEqual(plot.left);
      expect(a.right).toBeLessThanOrEqual(plot.right);
      expect(a.top).toBeGreaterThanOrEqual(plot.top);
      expect(a.bottom).toBeLessThanOrEqual(plot.bottom);
      for (const b of labels.slice(i + 1))
        expect(
          a.right <= b.left || b.right <= a.left || a.bottom <= b.top || b.bottom <= a.top,
        ).toBe(true);
    }

    // In the dark theme, the least related pair is a dark cell, not a near-white block.
    const vectors = texts.map((text) => embedText(text));
    const cos = (a: number[], b: number[]) =>
      a.reduce((sum, v, k) => sum + v * b[k]!, 0) / Math.hypot(...a) / Math.hypot(...b);
    let least = { row: 0, col: 1, value: Infinity };
    for (let row = 0; row < texts.length; row++)
      for (let col = row + 1; col < texts.length; col++) {
        const value = Math.abs(cos(vectors[row]!, vectors[col]!));
        if (value < least.value) least = { row, col, value };
      }
    const luminance = await page.heatmap.evaluate(
      (canvas, { row, col, n }) => {
        const element = canvas as unknown as {
          width: number;
          getContext(kind: '2d'): { getImageData(...a: number[]): { data: number[] } };
        };
        const step = element.width / n;
        const { data } = element
          .getContext('2d')
          .getImageData(Math.floor((col + 0.5) * step), Math.floor((row + 0.5) * step), 1, 1);
        const linear = (c: number) =>
          c / 255 <= 0.04045 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4;
        return 0.2126 * linear(data[0]!) + 0.7152 * linear(data[1]!) + 0.0722 * linear(data[2]!);
      },
      { ...least, n: texts.length },
    );
    expect(luminance).toBeLessThan(0.1);
  });

  for (const [size, colorScheme] of [
    [{ width: 900, height: 650 }, 'dark'],
    [{ width: 1280, height: 800 }, 'light'],
  ] as const) {
    it(`labels the map's points apart, past 40 inputs too, and always the one in focus, readable (${size.width}×${size.height}, ${colorScheme})`, async () => {
      const page = await connected({ colorScheme });
      await suite.app.page.setViewportSize(size);
      const words = [
        'cat',
        'invoice',
        'rain',
        'guitar',
        'orbit',
        'bread',
        'tax',
        'river',
        'chess',
        'tulip',
      ];
      const texts = Array.from(
        { length: 50 },
        (_, i) => `${words[i % 10]} ${words[(i * 3 + 1) % 10]} ${i + 1}`,
      );
      await page.embedLines(texts);
      await page.waitForPictures();
      const box = async (locator: Locator) => {
        const found = (await locator.boundingBox())!;
        return {
          left: found.x,
          top: found.y,
          right: found.x + found.width,
          bottom: found.y + found.height,
        };
      };
      const apart = (a: Awaited<ReturnType<typeof box>>, b: Awaited<ReturnType<typeof box>>) =>
        a.right <= b.left || b.right <= a.left || a.bottom <= b.top || b.bottom <= a.top;
      await page.scatter.scrollIntoViewIfNeeded();
      const plot = await box(page.scatter);
      const labels = suite.app.page.locator('.scatter-label');
      await expect.poll(() => labels.count()).toBeGreaterThanOrEqual(5);
      const boxes = await Promise.all((await labels.all()).map(box));
      for (const [i, a] of boxes.entries()) {
        expect(a.left).toBeGreaterThanOrEqual(plot.left);
        expect(a.right).toBeLessThanOrEqual(plot.right);
        for (const b of boxes.slice(i + 1)) expect(apart(a, b)).toBe(true);
      }

      // The point in focus (End: the last input) is named on the map, over no other label.
      await page.scatter.focus();
      await suite.app.page.keyboard.press('End');
      const focused = suite.app.page.locator(
        '.scatter-label[data-active="true"], .scatter-callout',
      );
      await expect.poll(() => focused.textContent()).toBe(texts[49]);
      if ((await suite.app.page.locator('.scatter-callout').count()) === 0) {
        const mine = await box(focused);
        for (const other of await suite.app.page.locator('.scatter-label:not([data-active])').all())
          expect(apart(mine, await box(other))).toBe(true);
      }

      // Readable in the theme: the labels' text against what is behind it, at least 4.5:1.
      const ratio = await labels.first().evaluate((label) => {
        type Style = { color: string; backgroundColor: string };
        const view = globalThis as unknown as {
          getComputedStyle(e: unknown): Style;
        };
        const card = (label as unknown as { closest(s: string): unknown }).closest('.card');
        const rgba = (text: string) => {
          const [r, g, b, a = 1] = (text.match(/[\d.]+/g) ?? []).map(Number);
          return { r: r!, g: g!, b: b!, a };
        };
        const under = rgba(view.getComputedStyle(card).backgroundColor);
        const over = rgba(view.getComputedStyle(label).backgroundColor);
        const mix = (k: 'r' | 'g' | 'b') => over[k] * over.a + under[k] * (1 - over.a);
        const back = { r: mix('r'), g: mix('g'), b: mix('b') };
        const ink = rgba(view.getComputedStyle(label).color);
        const lum = (c: { r: number; g: number; b: number }) => {
          const l = (v: number) =>
            (v /= 255) <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
          return 0.2126 * l(c.r) + 0.7152 * l(c.g) + 0.0722 * l(c.b);
        };
        const [hi, lo] = [lum(back), lum(ink)].sort((a, b) => b - a);
        return (hi! + 0.05) / (lo! + 0.05);
      });
      expect(ratio).toBeGreaterThanOrEqual(4.5);
      await suite.app.screenshot(`embeddings-map-labels-${size.width}-${colorScheme}`);
    });
  }

  it('the vectors table reads: whole column headers, scrollbars that show, every row reachable', async () => {
    const page = await connected({ colorScheme: 'dark' });
    const texts = Array.from({ length: 14 }, (_, i) => `sentence number ${i + 1} about cats`);
    await page.embedLines(texts);
    await page.waitForPictures();
    const scroller = page.results.locator('.embeddings-table-scroll');
    for (const size of [
      { width: 1280, height: 800 },
      { width: 900, height: 650 },
    ]) {
      await suite.app.page.setViewportSize(size);
      const fit = await scroller.evaluate((element) => {
        interface Shown {
          clientWidth: number;
          clientHeight: number;
          scrollWidth: number;
          scrollHeight: number;
          offsetWidth: number;
          offsetHeight: number;
          clientLeft: number;
          clientTop: number;
          textContent: string | null;
          getBoundingClientRect(): { left: number; right: number };
          querySelectorAll(selector: string): ArrayLike<Shown>;
        }
        const box = element as unknown as Shown;
        const rect = box.getBoundingClientRect();
        const visibleRight = rect.left + box.clientLeft + box.clientWidth;
        const cut = Array.from(box.querySelectorAll('thead th'))
          .filter((th) => th.textContent?.trim())
          .filter(
            (th) =>
              th.scrollWidth > th.clientWidth ||
              // The first columns (up to the norm) show without scrolling; the tokens, the first
              // values and Copy may be scrolled to in a narrow box.
              (['#', 'Dims', 'Norm'].includes(th.textContent!.trim()) &&
                th.getBoundingClientRect().right > visibleRight + 0.5),
          )
          .map((th) => th.textContent);
        // Whether any scrollbar shows: a plain box that always scrolls, measured.
        const doc = (
          globalThis as unknown as {
            document: {
              body: { append(e: unknown): void };
              createElement(tag: 'div'): Shown & {
                style: { cssText: string };
                remove(): void;
              };
              styleSheets: ArrayLike<{ cssRules: ArrayLike<{ cssText: string }> }>;
            };
          }
        ).document;
        const probe = doc.createElement('div');
        probe.style.cssText = 'position:absolute;width:100px;height:100px;overflow:scroll';
        doc.body.append(probe);
        const browserShowsScrollbars = probe.offsetWidth > probe.clientWidth;
        probe.remove();
        const rules = Array.from(doc.styleSheets).flatMap((sheet) =>
          Array.from(sheet.cssRules).map((rule) => rule.cssText),
        );
        const ownScrollbar =
          rules.some((rule) =>
            /\.embeddings-table-scroll::-webkit-scrollbar \{[^}]*width: \d+px/.test(rule),
          ) &&
          rules.some((rule) =>
            /\.embeddings-table-scroll::-webkit-scrollbar-thumb \{[^}]*background/.test(rule),
          );
        return {
          cut,
          ownScrollbar,
          browserShowsScrollbars,
          overflowsDown: box.scrollHeight > box.clientHeight,
          overflowsSideways: box.scrollWidth > box.clientWidth,
          // A scrollbar takes room: what the border box holds beyond the content box and borders.
          barWidth: box.offsetWidth - 2 * box.clientLeft - box.clientWidth,
          barHeight: box.offsetHeight - 2 * box.clientTop - box.clientHeight,
        };
      });
      expect(fit.cut, `${size.width}×${size.height}`).toEqual([]);
      // The field beside the table shows its placeholder whole.
      expect(await cutPlaceholders(suite.app.page, '.embeddings-nearest')).toEqual([]);
      // The box draws its own scrollbars, in the theme's colours; where the browser shows
      // scrollbars at all (the test browser, headless, hides every one), they take room.
      expect(fit.ownScrollbar).toBe(true);
      if (fit.browserShowsScrollbars) {
        if (fit.overflowsDown) expect(fit.barWidth).toBeGreaterThan(0);
        if (fit.overflowsSideways) expect(fit.barHeight).toBeGreaterThan(0);
      }
      // More than the eight rows a fixed 320 px box held, and the last one reached by scrolling.
      const box = await scroller.boundingBox();
      expect(box!.height).toBeGreaterThan(size.height >= 800 ? 400 : 320);
      await scroller.evaluate((element) => {
        const box = element as unknown as { scrollTop: number; scrollHeight: number };
        box.scrollTop = box.scrollHeight;
      });
      await expect.poll(() => page.row(13).isVisible()).toBe(true);
      await scroller.evaluate((element) => {
        (element as unknown as { scrollTop: number }).scrollTop = 0;
      });
    }
  });

  it('refuses empty lines before sending anything, naming them', async () => {
    const page = await connected();
    await page.lines.fill('one\ntwo\n\nfour\nfive\nsix\n  \neight');
    await page.embedButton.click();
    await expect.poll(() => page.inputError.textContent()).toContain('Lines 3 and 7 are empty.');
    expect(suite.app.messages.some((m) => m.channel === 'embeddings:start')).toBe(false);
  });

  it('exports JSON and CSV through the save dialog, matching the vectors', async () => {
    const saved: string[] = [];
    const dialogs: Dialogs = {
      chooseSavePath: async ({ defaultName }) => {
        const path = join(suite.scratch, defaultName);
        saved.push(path);
        return path;
      },
      chooseOpenPaths: async () => [],
    };
    const page = await connected({ dialogs });
    await page.embedLines(['cat', 'kitten']);
    await page.waitForPictures();
    await suite.app.page.getByRole('button', { name: 'Export JSON…' }).click();
    await expect.poll(() => suite.app.page.getByText(/^Saved 2 vectors to/).count()).toBe(1);
    const json = JSON.parse(await readFile(saved[0]!, 'utf8')) as {
      inputs: Array<{ text: string; embedding: number[] }>;
    };
    expect(json.inputs.map((i) => i.embedding)).toEqual([embedText('cat'), embedText('kitten')]);

    await suite.app.page.getByRole('button', { name: 'Export CSV…' }).click();
    await expect.poll(() => saved.length).toBe(2);
    await expect
      .poll(async () => (await readFile(saved[1]!, 'utf8').catch(() => '')).length)
      .toBeGreaterThan(0);
    const lines = (await readFile(saved[1]!, 'utf8')).trim().split('\r\n');
    expect(lines[1]!.split(',').slice(2).map(Number)).toEqual(embedText('cat'));
  });

  it('a cancelled large run keeps its finished batches and can go on', async () => {
    const slow = await startDemoRelay({
      keys: [key],
      tokensPerSecond: 0,
      ratePerMinute: 100_000,
      // Slow enough that a run of 15 batches, six at a time, is still going when it is cancelled.
      latencyMs: 600,
    });
    onTestFinished(() => slow.close());
    const page = await connected({ name: 'Slow relay', baseUrl: slow.url });
    await page.embedLines(Array.from({ length: 960 }, (_, i) => `text number ${i}`));
    await page.progress.waitFor();
    await expect
      .poll(() => page.progress.getByRole('status').textContent())
      .toMatch(/^[1-9]\d* of 960/);
    await page.progress.getByRole('button', { name: 'Cancel' }).click();
    const notice = suite.app.page.getByText(
      /inputs were embedded before it stopped, and were kept/,
    );
    await notice.waitFor();
    const done = Number(/^(\d+) of 960/.exec((await notice.textContent()) ?? '')?.[1]);
    expect(done).toBeGreaterThan(0);
    expect(done % 64).toBe(0);
    expect(done).toBeLessThan(960);
    await page.waitForPictures();
    await expect.poll(() => page.row(0).textContent()).toContain('256');
  });

  it('a failing server offers Retry in place', async () => {
    const page = await connected();
    suite.relay.setFaults({ status: 503 });
    await page.embedLines(['cat', 'dog']);
    const notice = suite.app.page.getByRole('alert').filter({ hasText: 'HTTP 503' });
    await notice.waitFor({ timeout: 20_000 });
    suite.relay.setFaults(undefined);
    await notice.getByRole('button', { name: 'Retry' }).click();
    await page.waitForPictures();
  });

  it('a run survives a restart and can be reopened and run again', async () => {
    const userDataDir = await mkdtemp(join(suite.scratch, 'restart-'));
    let page = await connected({ userDataDir });
    await page.embedLines(['dog', 'puppy', 'invoice']);
    await page.waitForPictures();
    await suite.closeApp();

    page = new EmbeddingsPage((await suite.openApp({ userDataDir })).page);
    await page.open();
    await page.runs.getByRole('button', { name: 'Open the run “dog”' }).click();
    await page.waitForPictures();
    expect(await page.row(1).textContent()).toContain('puppy');
    await page.runs.getByRole('button', { name: 'Re-run “dog”' }).first().click();
    await expect.poll(() => page.runs.getByRole('listitem').count()).toBe(2);
  });
});
