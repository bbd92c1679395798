/**
 * The demo relay's content arrays: each malformed part refused with a 400 in the canonical error
 * body whose `param` names the part, images refused for a model that reads none, and the demo
 * vision model's reply with what it measures in each image (size, dominant colours).
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoRelay, type DemoRelay } from '../../electron/demo-relay/index';

let relay: DemoRelay;
let png: string;

beforeAll(async () => {
  relay = await startDemoRelay({ tokensPerSecond: 0 });
  // 120x80: the left three quarters red, the right quarter blue.
  const red = await sharp({
    create: { width: 90, height: 80, channels: 3, background: '#dc1e1e' },
  })
    .png()
    .toBuffer();
  const image = await sharp({
    create: { width: 120, height: 80, channels: 3, background: '#1e6edc' },
  })
    .composite([{ input: red, left: 0, top: 0 }])
    .png()
    .toBuffer();
  png = `data:image/png;base64,${image.toString('base64')}`;
});
afterAll(() => relay.close());

function ask(model: string, content: unknown, stream = false): Promise<Response> {
  return fetch(`${relay.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${relay.keys[0]}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ model, stream, messages: [{ role: 'user', content }] }),
  });
}

async function error(response: Response) {
  expect(response.status).toBe(400);
  const body = (await response.json()) as {
    error: { message: string; type: string; param: string; code: string };
  };
  expect(Object.keys(body.error).sort()).toEqual(['code', 'message', 'param', 'type']);
  expect(body.error.type).toBe('invalid_request_error');
  return body.error;
}

describe('content arrays at the demo relay', () => {
  const text = { type: 'text', text: 'What is in this picture?' };

  it.each([
    [
      'an unknown part type',
      [text, { type: 'audio', audio: 'x' }],
      'messages[0].content[1].type',
      /must be "text" or "image_url"/,
    ],
    [
      'a remote image URL',
      [text, { type: 'image_url', image_url: { url: 'https://example.com/a.png' } }],
      'messages[0].content[1].image_url.url',
      /data: URL/,
    ],
    [
      'bad base64',
      [text, { type: 'image_url', image_url: { url: 'data:image/png;base64,@@not*base64' } }],
      'messages[0].content[1].image_url.url',
      /not hold valid base64/,
    ],
    [
      'bytes that are not an image',
      [
        text,
        {
          type: 'image_url',
          image_url: { url: `data:image/png;base64,${Buffer.from('hello').toString('base64')}` },
        },
      ],
      'messages[0].content[1].image_url.url',
      /its bytes are not such an image/,
    ],
    [
      'a type that is not an image',
      [{ type: 'image_url', image_url: { url: 'data:text/plain;base64,aGk=' } }],
      'messages[0].content[0].image_url.url',
      /text\/plain/,
    ],
    [
      'a text part without text',
      [{ type: 'text' }],
      'messages[0].content[0].text',
      /must be a string/,
    ],
    ['an empty array', [], 'messages[0].content', /at least one content part/],
  ])('refuses %s with param naming the part', async (_kind, content, param, message) => {
    const body = await error(await ask('demo-vision', content));
    expect(body.param).toBe(param);
    expect(body.message).toMatch(message);
  });

  it('refuses an image whose bytes start right but are cut short', async () => {
    const bytes = Buffer.from(png.split(',')[1]!, 'base64');
    const cut = bytes.subarray(0, 60).toString('base64').replace(/=+$/, '');
    const padded = cut + '='.repeat((4 - (cut.length % 4)) % 4);
    const body = await error(
      await ask('demo-vision', [
        text,
        { type: 'image_url', image_url: { url: `data:image/png;base64,${padded}` } },
      ]),
    );
    expect(body.param).toBe('messages[0].content[1].image_url.url');
    expect(body.message).toMatch(/cannot be decoded/);
  });

  it('refuses images for a model that reads none, naming the part', async () => {
    const body = await error(
      await ask('demo-chat', [text, { type: 'image_url', image_url: { url: png } }]),
    );
    expect(body).toMatchObject({ param: 'messages[0].content[1]', code: 'unsupported_value' });
    expect(body.message).toMatch(/demo-chat does not accept images/);
  });

  it('takes a content array of text parts for any chat model', async () => {
    const response = await ask('demo-chat-fast', [text]);
    expect(response.status).toBe(200);
  });

  it("answers, from the vision model, each image's size and dominant colours", async () => {
    const response = await ask('demo-vision', [
      text,
      { type: 'image_url', image_url: { url: png } },
    ]);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { choices: { message: { content: string } }[] };
    const reply = body.choices[0]!.message.content;
    expect(reply).toContain('**Image 1**: 120 × 80 pixels');
    expect(reply).toMatch(/mostly red \(#dc1e1e, 75%\), blue \(#1[ef]6edc, 25%\)/);
    expect(reply).toContain('You asked: “What is in this picture?”');
  });

  it('streams the same facts', async () => {
    const response = await ask(
      'demo-vision',
      [{ type: 'image_url', image_url: { url: png } }],
      true,
    );
    const text = await response.text();
    const streamed = text
      .split('\n')
      .filter((line) => line.startsWith('data: {'))
      .map((line) => JSON.parse(line.slice(6)) as { choices: { delta: { content?: string } }[] })
      .map((chunk) => chunk.choices[0]?.delta.content ?? '')
      .join('');
    expect(streamed).toContain('120 × 80 pixels; mostly red');
  });
});
