/**
 * The chat reply the benchmark streams: realistic token text, framed as canonical SSE.
 *
 * Deterministic (a seeded generator), so the server process and the orchestrator build the same
 * bytes and text independently. Framing follows `wire-conventions.md` §3 exactly: a role chunk,
 * one `data: {chunk}` event per token, a finish chunk, `data: [DONE]`.
 */
import { seededRandom } from '../seeded';

/** How the server splits the same body into socket writes. */
export type Chunking = 'event' | 'small' | 'big';

export interface ReplySpec {
  /** The path segment the scenario is served under (a mount point before `/v1`). */
  id: string;
  chunking: Chunking;
  /** event and small: one event per token. */
  tokens?: number;
  /** big: the size in UTF-8 bytes of the content carried by the single large event. */
  contentBytes?: number;
  /** Pause between two writes, so that each write reaches the reader as its own TCP read. */
  gapUs: number;
}

export interface Reply {
  text: string;
  body: Buffer;
  /** End offset (exclusive) of each socket write into `body`. */
  writeEnds: number[];
}

/**
 * Token pieces weighted roughly like an English answer with some code and non-ASCII text:
 * accents (2-byte UTF-8), arrows and dashes (3-byte), emoji (4-byte, surrogate pairs in JSON
 * strings), quotes, backslashes and newlines (escaped in JSON).
 */
const VOCABULARY: readonly string[] = [
  ...' the| of| and| to| a| in| is| that| for| it| as| with| be| on| not| this| are| by| or| you'.split(
    '|',
  ),
  ...' model| stream| token| reply| request| server| client| value| function| return| const'.split(
    '|',
  ),
  ...'ing|ed|s|ly|tion|er|es|al|ment|ness|.|,|:|;|?|!| (|)| -| 1| 2| 10| 42| 2024'.split('|'),
  ' café',
  'é',
  ' naïve',
  ' Straße',
  ' über',
  ' résumé',
  ' €',
  ' →',
  ' ←',
  '—',
  ' ≤',
  ' ✓',
  ' 日本',
  '語',
  ' 中文',
  ' 🚀',
  ' 👍🏽',
  ' 🎉',
  '🙂',
  ' \u00a0',
  '\n',
  '\n\n',
  '\n- ',
  '\n```ts\n',
  '\n```\n',
  ' "',
  '"',
  '\\',
  '\\n',
  '\t',
  '{',
  '}',
  ' =>',
  ' `',
];

/** The reply's tokens, endless; every reply is a prefix of this one stream. */
export function* tokenStream(): Generator<string, never> {
  const random = seededRandom(20_000);
  for (;;) {
    // Skew towards the common words at the start of the list, as real text does.
    yield VOCABULARY[Math.floor(random() ** 1.6 * VOCABULARY.length)]!;
  }
}

export function generateTokens(count: number): string[] {
  const tokens: string[] = [];
  const stream = tokenStream();
  while (tokens.length < count) tokens.push(stream.next().value);
  return tokens;
}

const CREATED = 1763700000;

function chunkEvent(delta: Record<string, string>, finishReason: string | null): string {
  const chunk = {
    id: 'chatcmpl-bench',
    object: 'chat.completion.chunk',
    created: CREATED,
    model: 'm',
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  };
  return `data: ${JSON.stringify(chunk)}\n\n`;
}

function frame(contents: readonly string[]): { events: string[]; text: string } {
  const events = [
    chunkEvent({ role: 'assistant', content: '' }, null),
    ...contents.map((content) => chunkEvent({ content }, null)),
    chunkEvent({}, 'stop'),
    'data: [DONE]\n\n',
  ];
  return { events, text: contents.join('') };
}

export function buildReply(spec: ReplySpec): Reply {
  if (spec.chunking === 'big') {
    const target = spec.contentBytes ?? 1_000_000;
    const parts: string[] = [];
    let bytes = 0;
    for (const token of tokenStream()) {
      if (bytes >= target) break;
      parts.push(token);
      bytes += Buffer.byteLength(token);
    }
    const { events, text } = frame([parts.join('')]);
    const body = Buffer.from(events.join(''));
    const writeEnds: number[] = [];
    for (let end = 1024; end < body.length; end += 1024) writeEnds.push(end);
    writeEnds.push(body.length);
    return { text, body, writeEnds };
  }

  const { events, text } = frame(generateTokens(spec.tokens ?? 20_000));
  const buffers = events.map((event) => Buffer.from(event));
  const body = Buffer.concat(buffers);
  const writeEnds: number[] = [];
  if (spec.chunking === 'event') {
    let end = 0;
    for (const buffer of buffers) writeEnds.push((end += buffer.length));
  } else {
    for (let end = 1; end <= body.length; end++) writeEnds.push(end);
  }
  return { text, body, writeEnds };
}
