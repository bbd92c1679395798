/**
 * Images attached to a message: checked by their bytes, scaled down to the longest side set,
 * refused by name with the reason when they cannot be sent; and the `content` a message with
 * images is sent as (text files stay text, images become image parts).
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  dataUrlOf,
  isImageName,
  prepareImage,
  thumbnailOf,
} from '../../../../electron/main/services/chat/attachment-images';
import { messageContent } from '../../../../electron/main/services/chat/attachments';

function solid(
  width: number,
  height: number,
  colour: { r: number; g: number; b: number },
): ReturnType<typeof sharp> {
  return sharp({ create: { width, height, channels: 3, background: colour } });
}

const RED = { r: 220, g: 30, b: 30 };

describe('prepareImage', () => {
  it('scales a large PNG so its longest side is the one set, keeping its shape and format', async () => {
    const png = await solid(3000, 1500, RED).png().toBuffer();
    const result = await prepareImage('wide.png', png, 1000);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.image).toMatchObject({
      mimeType: 'image/png',
      width: 1000,
      height: 500,
      originalWidth: 3000,
      originalHeight: 1500,
    });
    const read = await sharp(result.image.data).metadata();
    expect([read.format, read.width, read.height]).toEqual(['png', 1000, 500]);
  });

  it('never scales a small image up, and keeps JPEG and WebP as they came', async () => {
    const jpeg = await solid(40, 30, RED).jpeg().toBuffer();
    const webp = await solid(30, 60, RED).webp().toBuffer();
    const fromJpeg = await prepareImage('photo.JPG', jpeg, 1536);
    const fromWebp = await prepareImage('tall.webp', webp, 20);
    expect(fromJpeg.ok && [fromJpeg.image.mimeType, fromJpeg.image.width]).toEqual([
      'image/jpeg',
      40,
    ]);
    expect(
      fromWebp.ok && [fromWebp.image.mimeType, fromWebp.image.width, fromWebp.image.height],
    ).toEqual(['image/webp', 10, 20]);
  });

  it('sends a GIF as a PNG of its first frame', async () => {
    const gif = await solid(64, 64, RED).gif().toBuffer();
    const result = await prepareImage('spin.gif', gif, 32);
    expect(result.ok && [result.image.mimeType, result.image.width]).toEqual(['image/png', 32]);
    if (result.ok) expect((await sharp(result.image.data).metadata()).format).toBe('png');
  });

  it('turns a photo upright by its EXIF orientation', async () => {
    // Stored 80x40, tagged "rotate 90°": a person sees it 40 wide and 80 high.
    const rotated = await solid(80, 40, RED).withMetadata({ orientation: 6 }).jpeg().toBuffer();
    const result = await prepareImage('phone.jpg', rotated, 1536);
    expect(result.ok && [result.image.width, result.image.height]).toEqual([40, 80]);
  });

  it('refuses a truncated image by name with the reason', async () => {
    const png = await solid(400, 400, RED).png({ compressionLevel: 0 }).toBuffer();
    const result = await prepareImage('cut.png', png.subarray(0, png.length / 2), 1536);
    expect(result).toEqual({
      ok: false,
      refusal: {
        name: 'cut.png',
        reason: 'damaged',
        message: expect.stringMatching(/^cut\.png was not added: .*truncated/),
        messageId: 'documents.notAdded',
        values: { name: 'cut.png', why: { id: 'images.why.truncated' } },
      },
    });
  });

  it('refuses bytes that are no image at all, whatever the name says', async () => {
    const result = await prepareImage('fake.png', new TextEncoder().encode('hello, not a PNG'));
    expect(result.ok || result.refusal).toEqual({
      name: 'fake.png',
      reason: 'damaged',
      message:
        'fake.png was not added: it is not a readable image (damaged, or not an image at all).',
      messageId: 'documents.notAdded',
      values: { name: 'fake.png', why: { id: 'images.why.unreadable' } },
    });
  });

  it('refuses the image formats it does not send, by name, saying what to do instead', async () => {
    const tiff = await solid(8, 8, RED).tiff().toBuffer();
    for (const name of ['scan.bmp', 'scan.tiff', 'IMG_0001.HEIC']) {
      const result = await prepareImage(name, tiff);
      expect(result.ok || [result.refusal.reason, result.refusal.message]).toEqual([
        'unsupported',
        expect.stringMatching(new RegExp(`^${name.replace('.', '\\.')} was not added: .*not sent`)),
      ]);
    }
    // A TIFF named .png is refused for what it is.
    const named = await prepareImage('really.png', tiff);
    expect(named.ok || named.refusal.message).toBe(
      'really.png was not added: it is a TIFF image; only PNG, JPEG, WebP and GIF are sent.',
    );
  });

  it('knows images by name, the four it sends and the others it refuses', () => {
    expect(['a.png', 'b.JPEG', 'c.webp', 'd.gif', 'e.bmp', 'f.heic'].map(isImageName)).toEqual([
      true,
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(['notes.md', 'x.pdf', 'icon.svg'].map(isImageName)).toEqual([false, false, false]);
  });

  it('makes a small WebP thumbnail as a data: URL', async () => {
    const url = await thumbnailOf(await solid(1000, 500, RED).png().toBuffer());
    expect(url).toMatch(/^data:image\/webp;base64,[A-Za-z0-9+/]+=*$/);
    const thumb = await sharp(Buffer.from(url.split(',')[1]!, 'base64')).metadata();
    expect([thumb.width, thumb.height]).toEqual([192, 96]);
  });
});

describe('messageContent', () => {
  const text = {
    name: 'notes.md',
    mimeType: 'text/markdown',
    text: '# Tides',
    kind: 'text' as const,
  };
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47]);
  const image = {
    name: 'a.png',
    mimeType: 'image/png',
    text: '',
    kind: 'image' as const,
    data: png,
  };

  it('stays a plain string when no image is attached', () => {
    expect(messageContent('Hello', [text])).toBe(
      'Hello\n\n<attached-file name="notes.md" type="text/markdown">\n# Tides\n</attached-file>',
    );
  });

  it('is a content array with images: the text and text files first, then each image', () => {
    const second = { ...image, name: 'b.jpg', mimeType: 'image/jpeg' };
    expect(messageContent('What is this?', [image, text, second])).toEqual([
      {
        type: 'text',
        text: 'What is this?\n\n<attached-file name="notes.md" type="text/markdown">\n# Tides\n</attached-file>',
      },
      { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw==' } },
      { type: 'image_url', image_url: { url: 'data:image/jpeg;base64,iVBORw==' } },
    ]);
    expect(dataUrlOf('image/png', png)).toBe('data:image/png;base64,iVBORw==');
  });

  it('leaves out an empty text part when only an image is sent', () => {
    expect(messageContent('', [image])).toEqual([
      { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw==' } },
    ]);
  });
});
