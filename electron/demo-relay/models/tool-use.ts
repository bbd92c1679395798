/**
 * The demo tool model (`demo-tools`): no language model runs, but the whole path of function
 * calling shows. When the request offers tools and the last user message asks for something a
 * tool's name or description names, it calls that tool (several, when the message asks for
 * several things and the request allows parallel calls) with arguments built from the tool's
 * JSON Schema and drawn from the message: its numbers for numeric fields, a file name for a path,
 * a quoted or trailing text for a message field. Once the tools' results come back (`tool`
 * messages after its calls), it answers from them, quoting each.
 */
import type { ChatMessage } from '../validation';
import type { DemoTool, DemoToolChoice } from '../tools';

export interface PlannedCall {
  name: string;
  /** The arguments, as JSON text. */
  arguments: string;
}

export type ToolPlan = { kind: 'calls'; calls: PlannedCall[] } | { kind: 'text'; text: string };

/** Words that say nothing about which tool is meant. */
const STOP = new Set(
  (
    'a an and are as at be by can could do does for from get give how i in into is it its me my of ' +
    'on or please show tell that the their them then this to us using use was we what when which ' +
    'with would you your'
  ).split(' '),
);

/** Words people use for what tools are named after. */
const SYNONYMS: Record<string, string> = {
  plus: 'sum',
  add: 'sum',
  addition: 'sum',
  total: 'sum',
  adding: 'sum',
  repeat: 'echo',
  say: 'echo',
  open: 'read',
  cat: 'read',
  contents: 'read',
  content: 'read',
  document: 'file',
  folder: 'directory',
  dir: 'directory',
  ls: 'list',
  find: 'search',
  look: 'search',
  forecast: 'weather',
  picture: 'image',
  photo: 'image',
  now: 'time',
  date: 'time',
};

/** A word reduced to what matches across forms: lower case, a plural or -ing cut, a synonym. */
function stem(word: string): string {
  let w = word.toLowerCase();
  const synonym = SYNONYMS[w];
  if (synonym !== undefined) return synonym;
  if (w.length > 4 && w.endsWith('ing')) w = w.slice(0, -3);
  else if (w.length > 3 && w.endsWith('ies')) w = `${w.slice(0, -3)}y`;
  else if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) w = w.slice(0, -1);
  return SYNONYMS[w] ?? w;
}

/** The meaningful words of a text; a name's parts split at `_`, `-`, `.` and camelCase. */
function wordsOf(text: string): Set<string> {
  const spaced = text.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[_\-.]+/g, ' ');
  const words = spaced.match(/[\p{L}\p{N}]+/gu) ?? [];
  return new Set(words.map(stem).filter((w) => w.length > 1 && !STOP.has(w) && !/^\d+$/.test(w)));
}

interface Match {
  tool: DemoTool;
  /** Message words found in the tool's name. */
  nameHits: string[];
  score: number;
}

function matchTools(message: string, tools: readonly DemoTool[]): Match[] {
  const asked = wordsOf(message);
  return tools.map((tool) => {
    const nameWords = wordsOf(tool.name);
    const described = wordsOf(tool.description);
    const nameHits = [...asked].filter((w) => nameWords.has(w));
    let score = nameHits.length * 3;
    for (const word of asked) if (described.has(word)) score += 1;
    return { tool, nameHits, score };
  });
}

/**
 * The tools the message asks for: for each of its words a tool's name holds, the best tool with
 * that word (most words matched, then the shortest name); else the one whose description fits
 * best. In the order the request lists the tools.
 */
function chooseTools(message: string, tools: readonly DemoTool[]): DemoTool[] {
  const matches = matchTools(message, tools);
  const chosen = new Set<DemoTool>();
  const named = matches.filter((m) => m.nameHits.length > 0);
  for (const word of new Set(named.flatMap((m) => m.nameHits))) {
    const best = named
      .filter((m) => m.nameHits.includes(word))
      .sort((a, b) => b.score - a.score || a.tool.name.length - b.tool.name.length)[0];
    if (best !== undefined) chosen.add(best.tool);
  }
  if (chosen.size === 0) {
    const best = [...matches].sort((a, b) => b.score - a.score)[0];
    if (best !== undefined && best.score > 0) chosen.add(best.tool);
  }
  return tools.filter((tool) => chosen.has(tool));
}

/** What the message offers to fill arguments with, taken in order as fields use them. */
class Sources {
  readonly numbers: number[];
  readonly files: string[];
  readonly urls: string[];
  readonly quoted: string[];
  readonly message: string;

  constructor(message: string) {
    this.message = message.trim();
    this.urls = message.match(/https?:\/\/[^\s"'“”<>]+/g) ?? [];
    const withoutUrls = this.urls.reduce((text, url) => text.replace(url, ' '), message);
    this.quoted = [...withoutUrls.matchAll(/["“«'`]([^"”»'`]+)["”»'`]/g)].map((m) => m[1]!);
    this.files = [
      ...withoutUrls.matchAll(
        /(?:^|[\s(“"'`])((?:[\w.~-]+\/)*[\w~-][\w.~-]*\.[A-Za-z0-9]{1,8})(?=$|[\s)”"'`,;:!?])/g,
      ),
    ]
      .map((m) => m[1]!)
      .filter((f) => !/^\d+(\.\d+)?$/.test(f));
    const withoutFiles = this.files.reduce((text, file) => text.replace(file, ' '), withoutUrls);
    this.numbers = (withoutFiles.match(/-?\d+(?:\.\d+)?/g) ?? []).map(Number);
  }
}

type Schema = Record<string, unknown>;

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function typeOf(schema: Schema): string | undefined {
  const type = schema.type;
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) return type.find((t) => t !== 'null') as string | undefined;
  if (Array.isArray(schema.enum)) return typeof schema.enum[0];
  if (isSchema(schema.properties)) return 'object';
  return undefined;
}

const PATH_FIELD = /path|file|name|document|source|destination|target/i;
const URL_FIELD = /url|link|href|uri/i;
const TEXT_FIELD = /message|text|query|content|input|prompt|question|q$|term|string|value/i;

/** The text after the word that named the tool ("echo hello there" → "hello there"). */
function trailingText(message: string, tool: DemoTool): string | undefined {
  const nameWords = wordsOf(tool.name);
  const parts = message.split(/(\s+)/);
  for (let i = 0; i < parts.length; i++) {
    const word = parts[i]!.replace(/[^\p{L}\p{N}]/gu, '');
    if (word !== '' && nameWords.has(stem(word))) {
      const rest = parts
        .slice(i + 1)
        .join('')
        .trim()
        .replace(/^[:,-]\s*/, '');
      if (rest !== '') return rest;
    }
  }
  return undefined;
}

/** A value for one field of the schema, from the message where it can, else a plain default. */
function valueFor(
  field: string,
  schema: Schema,
  sources: Sources,
  tool: DemoTool,
  required: boolean,
): unknown {
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) {
    const lower = sources.message.toLowerCase();
    return (
      schema.enum.find((v) => typeof v === 'string' && lower.includes(v.toLowerCase())) ??
      schema.default ??
      schema.enum[0]
    );
  }
  switch (typeOf(schema)) {
    case 'number':
    case 'integer': {
      const drawn = sources.numbers.shift();
      if (drawn !== undefined) return typeOf(schema) === 'integer' ? Math.round(drawn) : drawn;
      if (!required) return undefined;
      if (typeof schema.default === 'number') return schema.default;
      return typeof schema.minimum === 'number' ? schema.minimum : 1;
    }
    case 'boolean':
      return required ? (schema.default ?? false) : undefined;
    case 'string': {
      if (URL_FIELD.test(field) && sources.urls.length > 0) return sources.urls.shift();
      if (PATH_FIELD.test(field) && sources.files.length > 0) return sources.files.shift();
      if (TEXT_FIELD.test(field) || required) {
        const text =
          sources.quoted.shift() ?? trailingText(sources.message, tool) ?? sources.message;
        if (text !== '') return text;
      }
      if (!required) return undefined;
      return typeof schema.default === 'string' ? schema.default : 'demo';
    }
    case 'array': {
      const items = isSchema(schema.items) ? schema.items : {};
      if (typeOf(items) === 'string' && PATH_FIELD.test(field) && sources.files.length > 0)
        return sources.files.splice(0);
      if (!required) return undefined;
      const one = valueFor(field, items, sources, tool, true);
      return one === undefined ? [] : [one];
    }
    case 'object':
      return required || field === '' ? objectFor(schema, sources, tool) : undefined;
    default:
      return required ? (schema.default ?? sources.message) : undefined;
  }
}

/** An object for a schema: its required fields always, the others when the message names them. */
function objectFor(schema: Schema, sources: Sources, tool: DemoTool): Record<string, unknown> {
  const properties = isSchema(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const mentioned = wordsOf(sources.message);
  const out: Record<string, unknown> = {};
  // Required fields first, so they draw the message's values before optional ones do.
  const names = Object.keys(properties).sort(
    (a, b) => Number(required.has(b)) - Number(required.has(a)),
  );
  for (const name of names) {
    const property = properties[name];
    if (!isSchema(property)) continue;
    const named = [...wordsOf(name)].some((w) => mentioned.has(w));
    const value = valueFor(name, property, sources, tool, required.has(name) || named);
    if (value !== undefined) out[name] = value;
  }
  return out;
}

/** Arguments for a tool from the message, checked against its schema. */
export function argumentsFor(tool: DemoTool, message: string): Record<string, unknown> {
  const drawn = objectFor(tool.parameters, new Sources(message), tool);
  if (tool.accepts(drawn)) return drawn;
  // What the message gave does not fit: the required fields alone, with plain values.
  const plain = objectFor(tool.parameters, new Sources(''), tool);
  return tool.accepts(plain) ? plain : drawn;
}

/** The last user message's text. */
function lastUserText(messages: readonly ChatMessage[]): string {
  return messages.findLast((m) => m.role === 'user')?.content ?? '';
}

/** The results that answer the last assistant message's calls, with each call's tool name. */
function latestResults(messages: readonly ChatMessage[]): { name: string; result: string }[] {
  const last = messages.at(-1);
  if (last?.role !== 'tool') return [];
  let start = messages.length - 1;
  while (start > 0 && messages[start - 1]?.role === 'tool') start--;
  const calls = messages[start - 1]?.toolCalls ?? [];
  return messages.slice(start).map((message) => ({
    name: calls.find((c) => c.id === message.toolCallId)?.name ?? 'a tool',
    result: message.content,
  }));
}

function quote(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const points = [...flat];
  return points.length > 400 ? `${points.slice(0, 400).join('')}…` : flat;
}

/** What `demo-tools` does with a request: call tools, or answer in text. */
export function planToolUse(
  messages: readonly ChatMessage[],
  tools: readonly DemoTool[],
  choice: DemoToolChoice,
  parallel: boolean,
): ToolPlan {
  const results = latestResults(messages);
  if (results.length > 0) {
    const question = quote(lastUserText(messages));
    const lines = results.map(({ name, result }) =>
      result.trim() === ''
        ? `- **${name}** returned nothing.`
        : `- **${name}** answered: “${quote(result)}”`,
    );
    return {
      kind: 'text',
      text: [
        results.length === 1
          ? `Here is what the tool said about “${question}”:`
          : `Here is what the ${results.length} tools said about “${question}”:`,
        '',
        ...lines,
        '',
        'This answer quotes the tool results; no language model ran.',
      ].join('\n'),
    };
  }

  const message = lastUserText(messages);
  if (tools.length === 0)
    return {
      kind: 'text',
      text: `You asked: “${quote(message)}”. This demo model calls tools, and none were offered: give it an MCP server's tools and ask for something one of them does.`,
    };
  if (choice === 'none')
    return {
      kind: 'text',
      text: `You asked: “${quote(message)}”. Tools were offered, but this request said not to call any (tool_choice none), so this is a plain reply.`,
    };

  let chosen: DemoTool[];
  if (typeof choice === 'object') chosen = tools.filter((t) => t.name === choice.name);
  else {
    chosen = chooseTools(message, tools);
    if (chosen.length === 0 && choice === 'required') chosen = [tools[0]!];
  }
  if (!parallel) chosen = chosen.slice(0, 1);
  if (chosen.length === 0) {
    const names = tools.slice(0, 8).map((t) => t.name);
    const more = tools.length > names.length ? `, and ${tools.length - names.length} more` : '';
    return {
      kind: 'text',
      text: `None of the ${tools.length} tools offered (${names.join(', ')}${more}) fits “${quote(message)}”. Ask for something one of them does, by its name or what it does.`,
    };
  }
  return {
    kind: 'calls',
    calls: chosen.map((tool) => ({
      name: tool.name,
      arguments: JSON.stringify(argumentsFor(tool, message)),
    })),
  };
}
