/**
 * The demo chat model: no language model runs. It writes a deterministic markdown reply derived
 * from the last user message, with the pieces a chat view must render (heading, list, table,
 * fenced code, quote), and says plainly that the reply is synthetic.
 */
import { fnv1a } from './hash';

/**
 * Splits text into word-ish pieces that concatenate back to the text exactly: a word with the
 * whitespace before it, up to three punctuation characters, or trailing whitespace. Close enough
 * to real tokens for pacing a stream and counting usage.
 */
export function tokenize(text: string): string[] {
  return text.match(/\s*[\p{L}\p{M}\p{N}_]+|\s*[^\s\p{L}\p{M}\p{N}_]{1,3}|\s+/gu) ?? [];
}

export function countTokens(text: string): number {
  return tokenize(text).length;
}

/** Prompt tokens as the usage object reports them: the text plus a small overhead per message. */
export function countPromptTokens(messages: readonly { content: string }[]): number {
  return messages.reduce((sum, message) => sum + countTokens(message.content) + 4, 2);
}

/** The text the demo answers: the last user message, else the last message of any role. */
export function promptOf(messages: readonly { role: string; content: string }[]): string {
  const users = messages.filter((message) => message.role === 'user');
  return (users[users.length - 1] ?? messages[messages.length - 1])?.content ?? '';
}

const OPENERS = [
  'Here is what the demo relay made of your message.',
  'Thanks for the message: here is a structured echo of it.',
  'The demo relay read your message and laid it out below.',
  'Your message, taken apart for a demo.',
];

const CLOSINGS = [
  'Connect a real relay to get real answers; this one only shows how replies look and stream.',
  'Every reply from the demo relay is generated from your words, not by a language model.',
  'Same message, same reply: the demo relay is deterministic, which makes it good for tests.',
];

const VOWELS = /[aeiouyàáâäãåæèéêëìíîïòóôöõøùúûü]/giu;

/**
 * How the temperature asked for shows in a reply: at 1 (the default) nothing changes; any other
 * picks other opening and closing lines and says how it was sampled, so that replies at two
 * temperatures differ visibly while each stays deterministic.
 */
function temperatureShift(temperature: number | undefined): number {
  return temperature === undefined || temperature === 1 ? 0 : Math.round(temperature * 10) + 1;
}

function temperatureNote(temperature: number | undefined): string[] {
  if (temperature === undefined || temperature === 1) return [];
  const manner =
    temperature < 0.5
      ? 'a steady, literal reading'
      : temperature < 1
        ? 'a measured reading'
        : temperature < 1.5
          ? 'a looser reading'
          : 'a freewheeling reading';
  return [`_Sampled at temperature ${temperature}: ${manner}._`, ''];
}

export interface DemoReplyOptions {
  temperature?: number;
}

export function composeDemoReply(prompt: string, options: DemoReplyOptions = {}): string {
  const text = prompt.trim();
  const hash = fnv1a(text) + temperatureShift(options.temperature);
  const words = text.match(/[\p{L}\p{M}\p{N}]+(?:['’-][\p{L}\p{M}\p{N}]+)*/gu) ?? [];
  const distinct = [...new Set(words.map((word) => word.toLowerCase()))];
  const longest = words.reduce((best, word) => (word.length > best.length ? word : best), '');
  const characters = [...text].length;
  const seconds = Math.max(1, Math.round((words.length / 230) * 60));

  const title = words.length > 0 ? capitalise(words.slice(0, 8).join(' ')) : 'An empty message';
  const rows =
    distinct.length > 0
      ? distinct
          .slice(0, 6)
          .map((word) => `| ${word} | ${[...word].length} | ${(word.match(VOWELS) ?? []).length} |`)
      : ['| (none) | 0 | 0 |'];

  const lines = [
    `## ${title}`,
    '',
    `${pick(OPENERS, hash)} This is a **synthetic demo reply**: no language model ran.`,
    '',
    ...temperatureNote(options.temperature),
    '### What you sent',
    '',
    `- **Words:** ${words.length}`,
    `- **Characters:** ${characters}`,
    `- **Longest word:** ${longest ? `\`${longest}\`` : 'none'}`,
    `- **Reading time:** about ${seconds} second${seconds === 1 ? '' : 's'}`,
    '',
    '### Word table',
    '',
    '| Word | Letters | Vowels |',
    '| --- | ---: | ---: |',
    ...rows,
    '',
    '### The same message as code',
    '',
    ...codeBlock(text, hash),
    '',
    `> ${pick(CLOSINGS, hash >>> 8)}`,
  ];
  return lines.join('\n');
}

const BRIEF_OPENERS = ['In short:', 'Briefly:', 'The gist:', 'Quick take:'];

/**
 * The smaller demo model's reply: a few plain sentences, no markdown structure, so that it looks
 * and reads differently from the structured one beside it in a compare.
 */
export function composeBriefReply(prompt: string, options: DemoReplyOptions = {}): string {
  const text = prompt.trim();
  const hash = fnv1a(text) + temperatureShift(options.temperature);
  const words = text.match(/[\p{L}\p{M}\p{N}]+(?:['’-][\p{L}\p{M}\p{N}]+)*/gu) ?? [];
  const longest = words.reduce((best, word) => (word.length > best.length ? word : best), '');
  const topic = words.length > 0 ? words.slice(0, 6).join(' ') : 'an empty message';
  const sentences = [
    `${pick(BRIEF_OPENERS, hash)} you asked about “${topic}”.`,
    `That is ${words.length} word${words.length === 1 ? '' : 's'}${longest ? `, the longest being “${longest}”` : ''}.`,
    'This is the small demo model: it answers fast and keeps it short, and no language model ran.',
  ];
  if (options.temperature !== undefined && options.temperature !== 1)
    sentences.push(`(Temperature ${options.temperature}.)`);
  return sentences.join(' ');
}

function codeBlock(text: string, hash: number): string[] {
  const points = [...text];
  const excerpt = points.length > 60 ? `${points.slice(0, 60).join('')}…` : text;
  const literal = JSON.stringify(excerpt);
  const count = excerpt.split(/\s+/).filter(Boolean).length;
  // A fence longer than any backtick run in the content, so a prompt cannot close it early.
  const longestRun = Math.max(0, ...(literal.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(Math.max(3, longestRun + 1));
  const body =
    hash % 2 === 0
      ? [
          `${fence}ts`,
          `const message = ${literal};`,
          'const words = message.split(/\\s+/).filter(Boolean);',
          `console.log(words.length); // ${count}`,
        ]
      : [
          `${fence}python`,
          `message = ${literal}`,
          'words = message.split()',
          `print(len(words))  # ${count}`,
        ];
  return [...body, fence];
}

function pick(options: readonly string[], hash: number): string {
  return options[hash % options.length] ?? options[0] ?? '';
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

const FILLER = [
  'keeps the stream going with plain words, so that a client can be watched over a long reply.',
  'carries no markdown at all: only sentences, spaces and the odd comma, like most prose.',
  'is here because the relay was asked for a longer reply than the message alone would give.',
];

/**
 * `pieces` continued with numbered paragraphs of plain prose until there are exactly `tokens`
 * pieces ("Paragraph 12 keeps the stream going…"); pieces already as many are returned as they
 * are. Deterministic, and every paragraph's number makes its text unique in the reply.
 */
export function padReply(pieces: readonly string[], tokens: number): string[] {
  const out = [...pieces];
  for (let paragraph = 1; out.length < tokens; paragraph++) {
    const text = `\n\nParagraph ${paragraph} ${FILLER[paragraph % FILLER.length]}`;
    for (const piece of tokenize(text)) {
      if (out.length >= tokens) break;
      out.push(piece);
    }
  }
  return out;
}

/**
 * What is left to write when a request ends with the reply so far (an assistant message, as a
 * client sends to continue a stopped reply): the pieces of the whole reply after `written`, or a
 * closing sentence when `written` is not how this reply starts.
 */
export function continueFrom(pieces: readonly string[], written: string): string[] {
  const whole = pieces.join('');
  if (whole.startsWith(written)) return tokenize(whole.slice(written.length));
  return tokenize('\n\nThat is where the demo reply ends.');
}

/** A file a client attached to a message as a delimited text block (docs/spec/wire-conventions.md). */
export interface AttachedFile {
  name: string;
  type: string;
  /** For a PDF: how many pages it has text on. */
  pages?: number;
  body: string;
}

const FILE_BLOCK =
  /<attached-file name="([^"\n]*)" type="([^"\n]*)"(?: pages="(\d+)")?>\n([\s\S]*?)\n<\/attached-file>/g;

/** The message's own text, and the files attached after it as `<attached-file>` blocks. */
export function splitAttachedFiles(prompt: string): { text: string; files: AttachedFile[] } {
  const files: AttachedFile[] = [];
  const text = prompt.replace(FILE_BLOCK, (_block, name: string, type: string, pages, body) => {
    const file: AttachedFile = { name, type, body: body as string };
    if (pages !== undefined) file.pages = Number(pages);
    files.push(file);
    return '';
  });
  return { text: text.trim(), files };
}

/** The start of a file's text (its first page, for a PDF), on one line and shortened. */
function openingOf(body: string): { line: string; page?: number } {
  const marker = /^\[Page (\d+)\]\n/.exec(body);
  const text = (marker ? body.slice(marker[0].length).split(/\n\[Page \d+\]\n/)[0]! : body)
    .replace(/\s+/g, ' ')
    .trim();
  const points = [...text];
  const line = points.length > 100 ? `${points.slice(0, 100).join('')}…` : text;
  return marker ? { line, page: Number(marker[1]) } : { line };
}

/**
 * A reply that shows it read the files attached: the demo model's reply to the message's own
 * text, then a line per file quoting its start (its first page, for a PDF).
 */
export function composeWithFiles(
  compose: (prompt: string, options?: DemoReplyOptions) => string,
  prompt: string,
  options: DemoReplyOptions = {},
): string {
  const split = splitKnowledgeSources(prompt);
  if (split.sources.length > 0) {
    const answer = composeWithFiles(compose, split.text, options);
    return [
      answer,
      '',
      '### From your sources',
      '',
      ...quoteSources(split.text, split.sources),
    ].join('\n');
  }
  const { text, files } = splitAttachedFiles(prompt);
  if (files.length === 0) return compose(prompt, options);
  const quotes = files.map((file) => {
    const { line, page } = openingOf(file.body);
    const pages =
      file.pages === undefined ? '' : `, ${file.pages} page${file.pages === 1 ? '' : 's'}`;
    const where = page === undefined ? '' : ` page ${page}`;
    const words = file.body.match(/[\p{L}\p{M}\p{N}]+/gu)?.length ?? 0;
    return `- **${file.name}** (${file.type}${pages}, ${words} words)${where} begins: “${line}”`;
  });
  return [compose(text, options), '', '### From your files', '', ...quotes].join('\n');
}

/** A numbered source a client put after the question (a `<knowledge-sources>` block). */
export interface KnowledgeSource {
  n: number;
  /** The file and where in it: `guide.md · lines 5-7 · Fees`. */
  where: string;
  body: string;
}

const SOURCES_BLOCK = /\n*<knowledge-sources>\n([\s\S]*?)\n<\/knowledge-sources>/;

/** The question, and the numbered sources after it. */
export function splitKnowledgeSources(prompt: string): {
  text: string;
  sources: KnowledgeSource[];
} {
  const block = SOURCES_BLOCK.exec(prompt);
  if (block === null) return { text: prompt, sources: [] };
  const sources: KnowledgeSource[] = [];
  for (const part of block[1]!.split(/\n(?=\[\d+\] )/)) {
    const header = /^\[(\d+)\] ([^\n]*)\n?/.exec(part);
    if (header === null) continue;
    sources.push({ n: Number(header[1]), where: header[2]!, body: part.slice(header[0].length) });
  }
  return { text: prompt.replace(SOURCES_BLOCK, '').trim(), sources };
}

function wordsOf(text: string): Set<string> {
  return new Set((text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w.length > 2));
}

/**
 * A line per source quoting its sentence that shares the most words with the question, cited as
 * `[n]`: the demo model "uses" what was retrieved, so the whole loop shows without an account.
 */
export function quoteSources(question: string, sources: readonly KnowledgeSource[]): string[] {
  const asked = wordsOf(question);
  return sources.map((source) => {
    const sentences = source.body
      .split(/(?<=[.!?])\s+|\n+/)
      .map((t) => t.replace(/^#+\s*/, '').trim())
      .filter((t) => t !== '');
    let best = sentences[0] ?? '';
    let bestScore = -1;
    for (const sentence of sentences) {
      let score = 0;
      for (const word of wordsOf(sentence)) if (asked.has(word)) score++;
      if (score > bestScore) {
        best = sentence;
        bestScore = score;
      }
    }
    const points = [...best];
    const quote = points.length > 160 ? `${points.slice(0, 160).join('')}…` : best;
    return `- ${source.where}: “${quote}” [${source.n}]`;
  });
}
