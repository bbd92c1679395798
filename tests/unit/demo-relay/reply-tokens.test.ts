/**
 * `replyTokens`: chat replies of a known length, for long streams (benchmarks), in the library
 * and on the command line.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { startDemoRelay, type DemoRelay } from '../../../electron/demo-relay/index';
import { composeDemoReply, padReply, tokenize } from '../../../electron/demo-relay/models/chat';
import { resolveOptions } from '../../../electron/demo-relay/options';

const KEY = 'sk-demo-reply-tokens';
let relay: DemoRelay | undefined;

afterEach(async () => {
  await relay?.close();
  relay = undefined;
});

async function ask(body: Record<string, unknown>): Promise<Response> {
  return fetch(`${relay!.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      model: 'demo-chat',
      messages: [{ role: 'user', content: 'A long one, please' }],
      ...body,
    }),
  });
}

/** The content pieces of an event stream, its finish reason and its usage. */
async function readStream(response: Response) {
  const text = await response.text();
  const events = text
    .split('\n\n')
    .filter((block) => block.startsWith('data: '))
    .map((block) => block.slice('data: '.length));
  expect(events.at(-1)).toBe('[DONE]');
  const chunks = events.slice(0, -1).map(
    (event) =>
      JSON.parse(event) as {
        choices: Array<{ delta: { content?: string }; finish_reason: string | null }>;
        usage?: { completion_tokens: number };
      },
  );
  const pieces = chunks
    .map((chunk) => chunk.choices[0]?.delta.content)
    .filter((content): content is string => content !== undefined && content !== '');
  const finish = chunks.map((chunk) => chunk.choices[0]?.finish_reason).find((r) => r);
  const usage = chunks.find((chunk) => chunk.usage)?.usage;
  return { pieces, finish, usage };
}

describe('padReply', () => {
  it('continues a reply with numbered plain paragraphs to exactly the count asked', () => {
    const natural = tokenize(composeDemoReply('hello there'));
    const padded = padReply(natural, 2_000);
    expect(padded).toHaveLength(2_000);
    expect(padded.slice(0, natural.length)).toEqual(natural);
    const added = padded.slice(natural.length).join('');
    expect(added).toMatch(/^\n\nParagraph 1 [a-z ,:.]+\n\nParagraph 2 /);
    // Plain prose: nothing a markdown renderer would turn into anything but paragraphs.
    expect(added).not.toMatch(/[#*`|>_[\]-]/);
    // Each paragraph's number appears once: any stretch of the text can be found again.
    const numbers = [...added.matchAll(/Paragraph (\d+) /g)].map((m) => Number(m[1]));
    expect(numbers).toEqual(numbers.map((_, i) => i + 1));
  });

  it('leaves a reply that is already long enough as it is', () => {
    const natural = tokenize(composeDemoReply('hello there'));
    expect(padReply(natural, 0)).toEqual(natural);
    expect(padReply(natural, 10)).toEqual(natural);
  });
});

describe('replyTokens', () => {
  it('is off by default, and refuses a count that is not a whole number in range', () => {
    expect(resolveOptions({}).settings.replyTokens).toBe(0);
    expect(() => resolveOptions({ replyTokens: -1 })).toThrow(/replyTokens must be an integer/);
    expect(() => resolveOptions({ replyTokens: 2.5 })).toThrow(/replyTokens/);
    expect(() => resolveOptions({ replyTokens: 2_000_000 })).toThrow(/from 0 to 1000000/);
  });

  it('streams exactly that many content chunks, with the usage to match', async () => {
    relay = await startDemoRelay({ keys: [KEY], tokensPerSecond: 0, replyTokens: 3_000 });
    const { pieces, finish, usage } = await readStream(
      await ask({ stream: true, stream_options: { include_usage: true } }),
    );
    expect(pieces).toHaveLength(3_000);
    expect(finish).toBe('stop');
    expect(usage?.completion_tokens).toBe(3_000);
    expect(pieces.join('')).toContain('synthetic demo reply');
    expect(pieces.join('')).toMatch(/Paragraph \d+ /);
  });

  it('gives the same text without streaming, and max_tokens still cuts it', async () => {
    relay = await startDemoRelay({ keys: [KEY], tokensPerSecond: 0, replyTokens: 1_000 });
    const streamed = (await readStream(await ask({ stream: true }))).pieces.join('');
    const whole = (await (await ask({})).json()) as {
      choices: Array<{ message: { content: string } }>;
      usage: { completion_tokens: number };
    };
    expect(whole.choices[0]!.message.content).toBe(streamed);
    expect(whole.usage.completion_tokens).toBe(1_000);
    const cut = await readStream(await ask({ stream: true, max_tokens: 400 }));
    expect(cut.pieces).toHaveLength(400);
    expect(cut.finish).toBe('length');
  });

  it('is paced by tokensPerSecond', async () => {
    relay = await startDemoRelay({ keys: [KEY], tokensPerSecond: 2_000, replyTokens: 1_000 });
    const started = performance.now();
    const { pieces } = await readStream(await ask({ stream: true }));
    // 1,000 tokens at 2,000 a second: half a second at the very least (no upper bound: timings
    // on a shared machine are not asserted).
    expect(pieces).toHaveLength(1_000);
    expect(performance.now() - started).toBeGreaterThanOrEqual(450);
  });
});

describe('--reply-tokens', () => {
  const root = fileURLToPath(new URL('../../..', import.meta.url));
  const tsx = fileURLToPath(new URL('../../../node_modules/.bin/tsx', import.meta.url));

  function run(args: string[]) {
    const child = spawn(tsx, ['electron/demo-relay/cli.ts', ...args], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (data: Buffer) => (stdout += data.toString()));
    child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    return { child, exited, output: () => ({ stdout, stderr }) };
  }

  it('sets the length of replies and says so', async () => {
    const cli = run(['--port', '0', '--key', KEY, '--reply-tokens', '500', '--quiet']);
    try {
      let url: string | undefined;
      // The banner may arrive in pieces: wait for its line about replies too.
      for (let waited = 0; waited < 20_000; waited += 50) {
        url = /listening on (http:\/\/\S+)/.exec(cli.output().stdout)?.[1];
        if (url && /replies of/.test(cli.output().stdout)) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(url).toBeDefined();
      expect(cli.output().stdout).toMatch(/replies of 500 tokens/);
      const response = await fetch(`${url}/v1/chat/completions`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ model: 'demo-chat', messages: [{ role: 'user', content: 'hi' }] }),
      });
      const body = (await response.json()) as { usage: { completion_tokens: number } };
      expect(body.usage.completion_tokens).toBe(500);
    } finally {
      cli.child.kill('SIGTERM');
    }
    expect(await cli.exited).toBe(0);
  }, 30_000);

  it('refuses a count that is not a whole number', async () => {
    const cli = run(['--reply-tokens', 'many']);
    expect(await cli.exited).toBe(2);
    expect(cli.output().stderr).toContain('--reply-tokens must be an integer from 0 to 1000000');
  }, 30_000);
});
