import { readUsage, type Usage } from './chat-response';
import { RelayError } from './relay-error';
import { said, type Said } from '../words';

export interface EmbeddingResult {
  model: string;
  /** One vector per input, in the order of the inputs. */
  vectors: number[][];
  usage?: Usage;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Decodes the base64 form: little-endian float32 values, as the convention's clients request. */
export function decodeBase64Vector(text: string): number[] | undefined {
  const compact = text.replace(/\s+/g, '');
  if (!BASE64.test(compact)) return undefined;
  const bytes = Buffer.from(compact, 'base64');
  if (bytes.byteLength === 0 || bytes.byteLength % 4 !== 0) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Array<number>(bytes.byteLength / 4);
  for (let i = 0; i < out.length; i++) out[i] = view.getFloat32(i * 4, true);
  return out;
}

function readVector(value: unknown): number[] | undefined {
  if (typeof value === 'string') return decodeBase64Vector(value);
  if (!Array.isArray(value) || value.length === 0) return undefined;
  for (const n of value) if (typeof n !== 'number' || !Number.isFinite(n)) return undefined;
  return value as number[];
}

/**
 * Reads an embeddings answer into vectors in input order: entries are sorted by `index` (relays
 * may send them out of order), each vector may be a list of floats or base64, and the count and
 * dimensions must agree with the request, or nothing is returned as if it were right.
 */
export function readEmbeddings(
  body: unknown,
  requestedModel: string,
  inputCount: number,
  host: string,
): EmbeddingResult {
  const bad = (reason: Said) =>
    new RelayError('bad_response', said('relay.embeddings.unusable', { host, reason }));
  if (body === null || typeof body !== 'object') throw bad(said('relay.why.notJsonObject'));
  const record = body as Record<string, unknown>;
  const data = record.data;
  if (!Array.isArray(data)) throw bad(said('relay.why.noData'));
  if (data.length !== inputCount)
    throw bad(said('relay.why.vectorCount', { vectors: data.length, inputs: inputCount }));
  const slots = new Array<number[] | undefined>(inputCount);
  data.forEach((entry, position) => {
    if (entry === null || typeof entry !== 'object')
      throw bad(said('relay.why.entryNotObject', { position }));
    const e = entry as Record<string, unknown>;
    const index = e.index === undefined ? position : e.index;
    if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= inputCount) {
      throw bad(said('relay.why.entryIndex', { position }));
    }
    if (slots[index] !== undefined) throw bad(said('relay.why.indexTwice', { index }));
    const vector = readVector(e.embedding);
    if (vector === undefined) throw bad(said('relay.why.entryNoVector', { position }));
    slots[index] = vector;
  });
  const vectors = slots as number[][];
  const dimensions = vectors[0]?.length;
  if (vectors.some((v) => v.length !== dimensions)) throw bad(said('relay.why.vectorLengths'));
  const usage = readUsage(record.usage);
  const model =
    typeof record.model === 'string' && record.model !== '' ? record.model : requestedModel;
  return usage === undefined ? { model, vectors } : { model, vectors, usage };
}
