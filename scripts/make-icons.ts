/**
 * Renders every icon file the installers need from the one source image, `resources/icon.svg`.
 *
 * `npm run icons` after changing the SVG, then commit what it wrote. Chromium rasterises the SVG at
 * each Linux size (so small sizes are drawn, not shrunk from a big bitmap); png2icons packs the
 * 1024 px rendering into macOS `.icns` and Windows `.ico`. `resources/icons/source.sha256` records
 * the SVG's hash and each output's, in `sha256sum -c` form relative to `resources/`, so a test can
 * tell when the files are stale or were edited by hand.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import png2icons from 'png2icons';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../tests/e2e/harness/browser';

const resourcesDir = join(import.meta.dirname, '..', 'resources');

/** The sizes of the Linux icon set (`resources/icons/<size>x<size>.png`). */
const LINUX_ICON_SIZES = [16, 24, 32, 48, 64, 128, 256, 512] as const;

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

async function main(): Promise<void> {
  const svg = await readFile(join(resourcesDir, 'icon.svg'));
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const outputs = new Map<string, Uint8Array>();
  try {
    const page = await browser.newPage({ deviceScaleFactor: 1 });
    const source = `data:image/svg+xml;base64,${svg.toString('base64')}`;
    for (const size of [1024, ...LINUX_ICON_SIZES]) {
      await page.setViewportSize({ width: size, height: size });
      await page.setContent(
        `<html><body style="margin:0;background:transparent">` +
          `<img src="${source}" width="${size}" height="${size}" style="display:block"></body></html>`,
      );
      await page.locator('img').evaluate((img: { decode(): Promise<void> }) => img.decode());
      const png = await page.screenshot({
        omitBackground: true,
        clip: { x: 0, y: 0, width: size, height: size },
      });
      outputs.set(size === 1024 ? 'icon.png' : `icons/${size}x${size}.png`, png);
    }
  } finally {
    await browser.close();
  }

  const large = Buffer.from(outputs.get('icon.png') ?? []);
  const icns = png2icons.createICNS(large, png2icons.BICUBIC, 0);
  // PNG entries above 64 px and bitmaps below, as Windows expects of an executable's own icon.
  const ico = png2icons.createICO(large, png2icons.BICUBIC, 0, false, true);
  if (!icns || !ico) throw new Error('png2icons could not build icon.icns or icon.ico.');
  outputs.set('icon.icns', icns);
  outputs.set('icon.ico', ico);

  await rm(join(resourcesDir, 'icons'), { recursive: true, force: true });
  await mkdir(join(resourcesDir, 'icons'), { recursive: true });
  const lines = [`${sha256(svg)}  icon.svg`];
  for (const [name, bytes] of outputs) {
    await writeFile(join(resourcesDir, name), bytes);
    lines.push(`${sha256(bytes)}  ${name}`);
  }
  await writeFile(join(resourcesDir, 'icons', 'source.sha256'), `${lines.join('\n')}\n`);
  console.log(`Wrote ${outputs.size} icon files from resources/icon.svg.`);
}

await main();
