/**
 * Renders every icon file the installers need from the one source image, `resources/icon.svg`,
 * and the tray icon's images from `resources/tray/tray.svg`.
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
import { chromium, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../tests/e2e/harness/browser';

const resourcesDir = join(import.meta.dirname, '..', 'resources');

/** The sizes of the Linux icon set (`resources/icons/<size>x<size>.png`). */
const LINUX_ICON_SIZES = [16, 24, 32, 48, 64, 128, 256, 512] as const;

/**
 * The tray images, from `tray/tray.svg` in one colour each: a template image for the macOS menu
 * bar (black, at 16 pt and @2x: macOS tints it for the bar's appearance), and for Windows and
 * Linux a dark glyph for light panels and a white one for dark panels, at 24 px and @2x.
 */
export const TRAY_IMAGES = [
  { name: 'trayTemplate.png', size: 16, colour: '#000000' },
  { name: 'trayTemplate@2x.png', size: 32, colour: '#000000' },
  { name: 'tray-light.png', size: 24, colour: '#1b1f24' },
  { name: 'tray-light@2x.png', size: 48, colour: '#1b1f24' },
  { name: 'tray-dark.png', size: 24, colour: '#ffffff' },
  { name: 'tray-dark@2x.png', size: 48, colour: '#ffffff' },
] as const;

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Renders an SVG at `size` px with a transparent background. */
async function render(page: Page, svg: Uint8Array, size: number): Promise<Uint8Array> {
  const source = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
  await page.setViewportSize({ width: size, height: size });
  await page.setContent(
    `<html><body style="margin:0;background:transparent">` +
      `<img src="${source}" width="${size}" height="${size}" style="display:block"></body></html>`,
  );
  await page.locator('img').evaluate((img: { decode(): Promise<void> }) => img.decode());
  return page.screenshot({ omitBackground: true, clip: { x: 0, y: 0, width: size, height: size } });
}

async function makeTrayImages(page: Page): Promise<void> {
  const dir = join(resourcesDir, 'tray');
  const svg = await readFile(join(dir, 'tray.svg'));
  const lines = [`${sha256(svg)}  tray/tray.svg`];
  for (const image of TRAY_IMAGES) {
    const coloured = Buffer.from(svg.toString('utf8').replaceAll('currentColor', image.colour));
    const png = await render(page, coloured, image.size);
    await writeFile(join(dir, image.name), png);
    lines.push(`${sha256(png)}  tray/${image.name}`);
  }
  await writeFile(join(dir, 'source.sha256'), `${lines.join('\n')}\n`);
}

async function main(): Promise<void> {
  const svg = await readFile(join(resourcesDir, 'icon.svg'));
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const outputs = new Map<string, Uint8Array>();
  try {
    const page = await browser.newPage({ deviceScaleFactor: 1 });
    await makeTrayImages(page);
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
  console.log(
    `Wrote ${outputs.size} icon files from resources/icon.svg and ${TRAY_IMAGES.length} tray images from resources/tray/tray.svg.`,
  );
}

await main();
