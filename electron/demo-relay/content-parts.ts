/**
 * `content` as an array of parts (the OpenAI convention the app follows, docs/design/attachments.md):
 * `{type:'text', text}` and `{type:'image_url', image_url:{url:'data:image/…;base64,…'}}`. Each
 * part is checked, and a bad one is a 400 whose `param` names it
 * (`messages[0].content[1].image_url.url`). The demo relay fetches no remote image: an image
 * must come as a data: URL of a PNG, JPEG, WebP or GIF whose bytes are what it says.
 *
 * The demo vision model reads the images' facts with sharp (the app's own image library): size,
 * and the colours that cover most of each.
 */
import { invalidRequest, RelayHttpError } from './errors';

export interface ContentImage {
  /** Where the part sat in the request, for errors: `messages[0].content[1]`. */
  param: string;
  mimeType: string;
  bytes: Buffer;
}

const PART_FIELDS: Record<string, readonly string[]> = {
  text: ['type', 'text'],
  image_url: ['type', 'image_url'],
};

const SIGNATURES: Record<string, (bytes: Buffer) => boolean> = {
  'image/png': (b) => b.subarray(0, 8).equals(Buffer.from([137, 80, 78, 71, 13, 10, 26, 10])),
  'image/jpeg': (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  'image/gif': (b) => /^GIF8[79]a/.test(b.subarray(0, 6).toString('latin1')),
  'image/webp': (b) =>
    b.subarray(0, 4).toString('latin1') === 'RIFF' &&
    b.subarray(8, 12).toString('latin1') === 'WEBP',
};

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Reads an array `content`: its text parts joined, and its images, each checked. */
export function readContentParts(
  content: unknown[],
  param: string,
): { text: string; images: ContentImage[] } {
  if (content.length === 0)
    throw invalidRequest(param, `${param} must hold at least one content part.`);
  const texts: string[] = [];
  const images: ContentImage[] = [];
  content.forEach((part, index) => {
    const at = `${param}[${index}]`;
    if (!isObject(part))
      throw invalidRequest(at, `${at} must be a content part object with a type.`, 'invalid_type');
    const type = part.type;
    if (typeof type !== 'string' || !Object.hasOwn(PART_FIELDS, type))
      throw invalidRequest(
        `${at}.type`,
        `${at}.type must be "text" or "image_url", not ${JSON.stringify(type ?? null)}.`,
      );
    for (const field of Object.keys(part))
      if (!PART_FIELDS[type]!.includes(field))
        throw invalidRequest(
          `${at}.${field}`,
          `Unrecognized field in a ${type} part: ${at}.${field}.`,
          'unknown_parameter',
        );
    if (type === 'text') {
      if (typeof part.text !== 'string')
        throw invalidRequest(`${at}.text`, `${at}.text must be a string.`, 'invalid_type');
      texts.push(part.text);
      return;
    }
    images.push(readImagePart(part.image_url, at));
  });
  return { text: texts.join('\n\n'), images };
}

function readImagePart(imageUrl: unknown, at: string): ContentImage {
  if (!isObject(imageUrl) || typeof imageUrl.url !== 'string')
    throw invalidRequest(
      `${at}.image_url.url`,
      `${at}.image_url must be an object with a url string.`,
      'invalid_type',
    );
  for (const field of Object.keys(imageUrl))
    if (field !== 'url' && field !== 'detail')
      throw invalidRequest(
        `${at}.image_url.${field}`,
        `Unrecognized field: ${at}.image_url.${field}.`,
        'unknown_parameter',
      );
  const url = imageUrl.url;
  const param = `${at}.image_url.url`;
  const match = /^data:([^;,]+);base64,(.*)$/s.exec(url);
  if (match === null)
    throw invalidRequest(
      param,
      `${param} must be a data: URL with base64 bytes (data:image/png;base64,…): the demo relay fetches no image from the network.`,
    );
  const mimeType = match[1]!.toLowerCase();
  const payload = match[2]!;
  const signature = SIGNATURES[mimeType];
  if (signature === undefined)
    throw invalidRequest(
      param,
      `${param} is of type ${mimeType}: only image/png, image/jpeg, image/webp and image/gif are read.`,
    );
  if (payload.length === 0 || payload.length % 4 !== 0 || !BASE64.test(payload))
    throw invalidRequest(param, `${param} does not hold valid base64 data.`);
  const bytes = Buffer.from(payload, 'base64');
  if (!signature(bytes))
    throw invalidRequest(param, `${param} says ${mimeType}, but its bytes are not such an image.`);
  return { param: at, mimeType, bytes };
}

/** Colours a person names, for saying what an image mostly is. */
const NAMED_COLOURS: ReadonlyArray<readonly [string, number, number, number]> = [
  ['black', 0, 0, 0],
  ['white', 255, 255, 255],
  ['grey', 128, 128, 128],
  ['red', 220, 30, 30],
  ['orange', 245, 140, 20],
  ['yellow', 240, 220, 40],
  ['green', 40, 170, 60],
  ['cyan', 30, 200, 220],
  ['blue', 30, 110, 220],
  ['purple', 130, 50, 190],
  ['pink', 240, 120, 180],
  ['brown', 130, 80, 40],
];

function nameOf(r: number, g: number, b: number): string {
  let best = NAMED_COLOURS[0]!;
  let distance = Infinity;
  for (const colour of NAMED_COLOURS) {
    const d = (colour[1] - r) ** 2 + (colour[2] - g) ** 2 + (colour[3] - b) ** 2;
    if (d < distance) [best, distance] = [colour, d];
  }
  return best[0];
}

const hex = (n: number) => Math.round(n).toString(16).padStart(2, '0');

export interface ImageFacts {
  width: number;
  height: number;
  /** The colours that cover most of it, largest share first (at most three, each ≥ 5 %). */
  colours: { name: string; hex: string; share: number }[];
}

/**
 * What the demo vision model can say about an image: its size and dominant colours (pixels of a
 * 64x64 copy grouped into coarse colour cells, each cell's mean colour named). A file whose bytes
 * begin right but cannot be decoded is a 400 naming its part.
 */
export async function imageFacts(image: ContentImage): Promise<ImageFacts> {
  // Loaded at the first image, not when the relay (or the app holding it) starts.
  const sharp = (await import('sharp')).default;
  try {
    const metadata = await sharp(image.bytes).metadata();
    const { data, info } = await sharp(image.bytes, { failOn: 'error' })
      .flatten({ background: '#ffffff' })
      .resize(64, 64, { fit: 'fill' })
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const cells = new Map<number, { count: number; r: number; g: number; b: number }>();
    for (let i = 0; i < data.length; i += info.channels) {
      const [r, g, b] = [data[i]!, data[i + 1]!, data[i + 2]!];
      const key = ((r >> 6) << 4) | ((g >> 6) << 2) | (b >> 6);
      const cell = cells.get(key) ?? { count: 0, r: 0, g: 0, b: 0 };
      cell.count++;
      cell.r += r;
      cell.g += g;
      cell.b += b;
      cells.set(key, cell);
    }
    const total = info.width * info.height;
    const colours = [...cells.values()]
      .sort((a, b) => b.count - a.count)
      .filter((cell) => cell.count / total >= 0.05)
      .slice(0, 3)
      .map((cell) => {
        const [r, g, b] = [cell.r / cell.count, cell.g / cell.count, cell.b / cell.count];
        return {
          name: nameOf(r, g, b),
          hex: `#${hex(r)}${hex(g)}${hex(b)}`,
          share: Math.round((cell.count / total) * 100),
        };
      });
    return { width: metadata.width, height: metadata.height, colours };
  } catch (error) {
    if (error instanceof RelayHttpError) throw error;
    throw invalidRequest(
      `${image.param}.image_url.url`,
      `${image.param}.image_url.url holds an image that cannot be decoded (damaged or cut short).`,
    );
  }
}

/** The demo vision model's reply: the facts of each image, then a word on the question. */
export function describeImages(question: string, facts: readonly ImageFacts[]): string {
  const lines = facts.map((fact, index) => {
    const colours = fact.colours.map((c) => `${c.name} (${c.hex}, ${c.share}%)`).join(', ');
    return `- **Image ${index + 1}**: ${fact.width} × ${fact.height} pixels; mostly ${colours}.`;
  });
  const asked = question.trim().split('\n')[0]!.slice(0, 200);
  return [
    `## What I see`,
    '',
    `${facts.length === 1 ? 'One image' : `${facts.length} images`} came with your message.`,
    '',
    ...lines,
    '',
    asked === ''
      ? 'Ask me about them.'
      : `You asked: “${asked}”. These are the facts I can measure.`,
  ].join('\n');
}
