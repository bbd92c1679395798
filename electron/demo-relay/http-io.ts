/**
 * Small helpers for reading requests and writing answers on node:http, shared by every endpoint.
 */
import { once } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { RelayHttpError } from './errors';

/** Requests above this are refused before parsing: the demo has no use for bigger bodies. */
export const MAX_BODY_BYTES = 8 * 1024 * 1024;

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    'Content-Type': 'application/json',
    'Content-Length': String(Buffer.byteLength(text)),
  });
  res.end(text);
}

export function sendError(res: ServerResponse, error: RelayHttpError): void {
  sendJson(res, error.status, error.toBody(), error.headers);
}

/** The body as a proxy in front of a relay would send it: HTML, or nothing at all. */
export function sendStatusPage(
  res: ServerResponse,
  status: number,
  kind: 'html' | 'empty',
  headers: Record<string, string>,
): void {
  if (kind === 'empty') {
    res.writeHead(status, { ...headers, 'Content-Length': '0' });
    res.end();
    return;
  }
  const html = `<html>\r\n<head><title>${status}</title></head>\r\n<body>\r\n<center><h1>${status}</h1></center>\r\n<hr><center>demo-relay</center>\r\n</body>\r\n</html>\r\n`;
  res.writeHead(status, {
    ...headers,
    'Content-Type': 'text/html',
    'Content-Length': String(Buffer.byteLength(html)),
  });
  res.end(html);
}

/** Reads the whole body, refusing more than `limit` bytes with a 413. */
export async function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    throw tooLarge(limit);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw tooLarge(limit);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function tooLarge(limit: number): RelayHttpError {
  return new RelayHttpError(413, `The request body is larger than ${limit} bytes.`, {
    param: null,
  });
}

/** Parses a request body that must be a JSON object. */
export function parseJsonObject(raw: Buffer): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new RelayHttpError(400, 'The request body is not valid JSON.', { code: 'invalid_json' });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new RelayHttpError(400, 'The request body must be a JSON object.', {
      code: 'invalid_json',
    });
  }
  return value as Record<string, unknown>;
}

/** Headers every event stream carries (wire-conventions.md §3). */
export const SSE_HEADERS: Record<string, string> = {
  'Content-Type': 'text/event-stream',
  'Cache-Control': 'no-cache',
  Connection: 'keep-alive',
};

/** Writes one `data:` event and waits while the socket's buffer is full, so a slow reader slows us. */
export async function writeEvent(
  res: ServerResponse,
  data: unknown,
  signal: AbortSignal,
): Promise<void> {
  const payload = typeof data === 'string' ? data : JSON.stringify(data);
  if (!res.write(`data: ${payload}\n\n`)) {
    await once(res, 'drain', { signal });
  }
}
