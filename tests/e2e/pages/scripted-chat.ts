/**
 * A relay whose chat answers are scripted: Node's fetch to the demo relay for everything, except
 * chat completions for a prompt given a reply here, which stream that reply as a relay would.
 * For replies the demo model does not write (formulas, a realistic answer for screenshots). A
 * prompt given a list of replies answers with the next one each time it is asked (the last one
 * again once the list is used up), for versions of a reply that differ.
 */
import type { FetchLike } from '../../../electron/main/services/relay/relay-client';

export function scriptedChat(replies: Record<string, string | readonly string[]>): FetchLike {
  const asked = new Map<string, number>();
  return (url, init) => {
    if (!url.endsWith('/v1/chat/completions') || typeof init.body !== 'string') {
      return fetch(url, init);
    }
    const request = JSON.parse(init.body) as { messages: { role: string; content: string }[] };
    const prompt = request.messages.filter((m) => m.role === 'user').at(-1)?.content ?? '';
    const scripted = replies[prompt];
    if (scripted === undefined) return fetch(url, init);
    const times = asked.get(prompt) ?? 0;
    asked.set(prompt, times + 1);
    const reply =
      typeof scripted === 'string' ? scripted : scripted[Math.min(times, scripted.length - 1)]!;
    const chunk = (delta: object, finish: string | null) =>
      `data: ${JSON.stringify({
        id: 'chatcmpl-scripted',
        object: 'chat.completion.chunk',
        created: 0,
        model: 'demo-chat',
        choices: [{ index: 0, delta, finish_reason: finish }],
      })}\n\n`;
    const events = (reply.match(/[\s\S]{1,24}/g) ?? []).map((content) => chunk({ content }, null));
    events.push(
      chunk({}, 'stop'),
      `data: ${JSON.stringify({
        id: 'chatcmpl-scripted',
        object: 'chat.completion.chunk',
        created: 0,
        model: 'demo-chat',
        choices: [],
        usage: { prompt_tokens: 18, completion_tokens: 212, total_tokens: 230 },
      })}\n\n`,
      'data: [DONE]\n\n',
    );
    return Promise.resolve(
      new Response(events.join(''), {
        status: 200,
        headers: { 'content-type': 'text/event-stream' },
      }),
    );
  };
}

/** A question and a realistic answer with prose, a formula, code and a table. */
export const SIMILARITY_PROMPT = 'How do I tell how similar two embeddings are?';
export const SIMILARITY_REPLY = [
  'Use **cosine similarity**: the cosine of the angle between the two vectors. It ignores their',
  'length and compares only their direction, which is where an embedding keeps its meaning.',
  '',
  '$$',
  '\\cos(\\theta) = \\frac{\\mathbf{a} \\cdot \\mathbf{b}}{\\lVert \\mathbf{a} \\rVert \\, \\lVert \\mathbf{b} \\rVert}',
  '$$',
  '',
  'It runs from $-1$ (opposite) through $0$ (unrelated) to $1$ (the same direction).',
  '',
  '```ts',
  'export function cosine(a: number[], b: number[]): number {',
  '  let dot = 0, normA = 0, normB = 0;',
  '  for (let i = 0; i < a.length; i++) {',
  '    dot += a[i] * b[i];',
  '    normA += a[i] * a[i];',
  '    normB += b[i] * b[i];',
  '  }',
  '  return dot / (Math.sqrt(normA) * Math.sqrt(normB));',
  '}',
  '```',
  '',
  '| Pair | Cosine | Reading |',
  '| --- | ---: | --- |',
  '| cat · kitten | 0.91 | very close |',
  '| cat · invoice | 0.12 | unrelated |',
  '| invoice · receipt | 0.84 | close |',
  '',
  '> If you normalise every vector once, cosine similarity becomes a plain dot product.',
].join('\n');
