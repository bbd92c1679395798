import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  contentFields,
  describeError,
  formatEvent,
  logText,
  makeLogRedactor,
  rotateLogFiles,
  withholdContent,
} from '../../../electron/main/services/log-policy';
import { RelayError } from '../../../electron/main/services/relay/relay-client';

const KEY = 'canary-key-7f3a9c1e5b';

describe('the log redactor', () => {
  const redact = makeLogRedactor(() => [KEY]);

  it('removes a connection key in use wherever it appears', () => {
    expect(redact(`key ${KEY} then x${KEY}y`)).toBe('key [redacted] then x[redacted]y');
  });

  it('removes key-shaped tokens, Bearer headers and key parameters it was never told about', () => {
    const out = redact(
      'sk-live-0123456789abcdef Authorization: Bearer abc.def-123 https://h/v1?api_key=zzz9&x=1 token=qwerty',
    );
    expect(out).toBe('[redacted] Authorization: Bearer [redacted] https://h/v1 token=[redacted]');
  });

  it('logs an address as its origin and path only: no user name, password, query or fragment', () => {
    expect(
      redact('url=https://alice:s3cret@relay.example.com/v1?token=abc&x=1#frag next http://h:1/p'),
    ).toBe('url=https://relay.example.com/v1 next http://h:1/p');
  });

  it.each([
    // A password with a quote, a space or a backslash in it, as a hostile address can have.
    ['https://alice:pa"SECRET@relay.invalid/v1', 'https://relay.invalid/v1'],
    ["https://alice:pa'SECRET@relay.invalid/v1", 'https://relay.invalid/v1'],
    ['https://alice:pa SECRET@relay.invalid/v1', 'https://relay.invalid/v1'],
    ['https://alice:pa\\SECRET@relay.invalid', 'https://relay.invalid/'],
    // As the log quotes a value with a quote in it.
    ['url="https://alice:pa\\"SECRET@relay.invalid/v1"', 'url="https://relay.invalid/v1"'],
    ['https://relay.invalid/v1#SECRET', 'https://relay.invalid/v1'],
    ['https://relay.invalid/v1?SECRET', 'https://relay.invalid/v1'],
    ['wss://u:SECRET@relay.invalid/socket', 'wss://relay.invalid/socket'],
    ['relay-desktop://connect?name=a&SECRET=1', 'relay-desktop://connect'],
    ['see https://SECRET@', 'see https://[redacted]'],
  ])('%s', (text, logged) => {
    expect(redact(text)).toBe(logged);
    expect(redact(text)).not.toContain('SECRET');
  });

  it('redacts every kind of value passed to a log call: text, objects, errors and their causes', () => {
    const error = new Error(`failed with ${KEY}`, { cause: new Error('inner sk-abcdefghijkl') });
    const text = logText(
      ['start', { header: `Bearer ${KEY}`, nested: { key: KEY } }, error],
      redact,
    );
    expect(text).not.toContain(KEY);
    expect(text).not.toContain('sk-abcdefghijkl');
    expect(text).toContain('start');
    expect(text).toContain('failed with [redacted]');
    expect(text).toContain('cause: Error: inner [redacted]');
  });
});

describe('errors in the log', () => {
  it('name the relay kind and status but never the reply text a broken stream carried', () => {
    const error = new RelayError('server_error', 'The relay failed.', {
      status: 502,
      code: 'upstream',
      partialText: 'REPLY-CANARY text of the reply',
    });
    const text = describeError(error);
    expect(text).toContain(
      'RelayError: The relay failed. (kind=server_error, status=502, code=upstream)',
    );
    expect(text).not.toContain('REPLY-CANARY');
  });
});

describe('log events and content', () => {
  it('writes key=value pairs, quoting values with spaces and leaving out undefined ones', () => {
    expect(
      formatEvent('relay.request', {
        route: 'models',
        status: 401,
        model: undefined,
        message: 'no "key" given',
      }),
    ).toBe('relay.request route=models status=401 message="no \\"key\\" given"');
  });

  it('keeps content out unless prompts are allowed, and clips it when they are', () => {
    const content = { prompt: 'PROMPT-CANARY', input: ['a', 'b'] };
    expect(contentFields(content, false)).toEqual({});
    expect(contentFields(content, true)).toEqual({ prompt: 'PROMPT-CANARY', input: '["a","b"]' });
    const long = contentFields({ prompt: 'x'.repeat(5000) }, true)['prompt'];
    expect(String(long)).toHaveLength(2000 + '… (5000 characters)'.length);
  });

  it('cuts a prompt the relay echoed out of an error message, and its opening when cut short', () => {
    const prompt = 'Tell me the secret plan of the canary 42, in detail please';
    expect(withholdContent(`Refused: "${prompt}" breaks the rules`, { sent: [prompt] })).toBe(
      'Refused: "[content withheld]" breaks the rules',
    );
    expect(withholdContent(`Refused: "${prompt.slice(0, 40)}…"`, { sent: [prompt] })).not.toContain(
      prompt.slice(0, 32),
    );
    // Very short texts are left alone: cutting "hi" would mangle ordinary words.
    expect(withholdContent('this is fine', { sent: ['hi'] })).toBe('this is fine');
  });
});

describe('rotateLogFiles', () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('shifts main.log to main.1.log and main.1.log to main.2.log, dropping the oldest', async () => {
    dir = await mkdtemp(join(tmpdir(), 'relay-log-rotate-'));
    const path = join(dir, 'main.log');
    for (const n of [1, 2, 3]) {
      await writeFile(path, `generation ${n}`);
      rotateLogFiles(path, 3);
    }
    expect((await readdir(dir)).sort()).toEqual(['main.1.log', 'main.2.log']);
    expect(await readFile(join(dir, 'main.1.log'), 'utf8')).toBe('generation 3');
    expect(await readFile(join(dir, 'main.2.log'), 'utf8')).toBe('generation 2');
  });
});
