/**
 * A tool's result in the app's own shape: its parts (text, images, resources, links), whether the
 * tool says it failed, its structured content, how long it took, and, when it was larger than the
 * app keeps, how much it held. What a server sends is untrusted: every part is checked, and the
 * whole is capped, so a 10 MB result is cut with a note rather than filling the context or main.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { DEFAULT_TOOL_SETTINGS } from '../../../shared/ipc/routes/settings';

/** The text a result keeps (all its text parts together) unless the settings say otherwise. */
export const MAX_RESULT_CHARS = DEFAULT_TOOL_SETTINGS.maxResultChars;
/** An image or audio part larger than this (base64 characters) is left out. */
export const MAX_MEDIA_CHARS = 8 * 1024 * 1024;
/** At most this many parts are kept. */
export const MAX_RESULT_PARTS = 64;

export type ToolResultPart =
  | { type: 'text'; text: string }
  | { type: 'image'; mimeType: string; data: string }
  | { type: 'audio'; mimeType: string; data: string }
  /** An embedded resource: its text, or only the size of its binary content. */
  | {
      type: 'resource';
      uri: string;
      mimeType: string | null;
      text: string | null;
      bytes: number | null;
    }
  | { type: 'link'; uri: string; name: string; description: string | null };

export interface ToolResult {
  /** The tool reported a failure (its text says what); the call itself went through. */
  isError: boolean;
  parts: ToolResultPart[];
  /** The tool's structured content, when it gave one (and it fit). */
  structured: Record<string, unknown> | null;
  /** From the call's start to its answer. */
  durationMs: number;
  /** Set when the result was larger than the app keeps: what it held and what is kept. */
  cut: { chars: number; keptChars: number; partsLeftOut: number } | null;
}

/** How many bytes a base64 text holds. */
function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

function text(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

/** Reads a server's answer to `tools/call` into a `ToolResult`, capped at `maxChars`. */
export function readToolResult(
  answer: CallToolResult | Record<string, unknown>,
  durationMs: number,
  maxChars = MAX_RESULT_CHARS,
): ToolResult {
  const content = Array.isArray(answer.content) ? (answer.content as unknown[]) : [];
  let room = maxChars;
  let chars = 0;
  let partsLeftOut = 0;
  const parts: ToolResultPart[] = [];
  /** Keeps what fits of a text; counts all of it. */
  const fit = (value: string): string => {
    chars += value.length;
    const kept = value.slice(0, Math.max(0, room));
    room -= kept.length;
    return kept;
  };
  for (const raw of content) {
    if (raw === null || typeof raw !== 'object') continue;
    const part = raw as Record<string, unknown>;
    if (parts.length >= MAX_RESULT_PARTS) {
      partsLeftOut++;
      continue;
    }
    switch (part.type) {
      case 'text': {
        const value = text(part.text) ?? '';
        const kept = fit(value);
        if (kept !== '' || value === '') parts.push({ type: 'text', text: kept });
        break;
      }
      case 'image':
      case 'audio': {
        const data = text(part.data);
        const mimeType = text(part.mimeType);
        if (data === null || mimeType === null || data.length > MAX_MEDIA_CHARS) partsLeftOut++;
        else parts.push({ type: part.type, mimeType, data });
        break;
      }
      case 'resource': {
        const resource = (part.resource ?? {}) as Record<string, unknown>;
        const body = text(resource.text);
        const blob = text(resource.blob);
        parts.push({
          type: 'resource',
          uri: text(resource.uri) ?? '',
          mimeType: text(resource.mimeType),
          text: body === null ? null : fit(body),
          bytes: blob === null ? null : base64Bytes(blob),
        });
        break;
      }
      case 'resource_link':
        parts.push({
          type: 'link',
          uri: text(part.uri) ?? '',
          name: text(part.name) ?? text(part.uri) ?? '',
          description: text(part.description),
        });
        break;
      default:
        partsLeftOut++;
    }
  }
  let structured: Record<string, unknown> | null = null;
  const given = answer.structuredContent;
  if (given !== null && typeof given === 'object' && !Array.isArray(given)) {
    const json = JSON.stringify(given);
    chars += json.length;
    // Kept whole or not at all: half a JSON object is no use to anyone.
    if (json.length <= room) {
      structured = given as Record<string, unknown>;
      room -= json.length;
    } else partsLeftOut++;
  }
  const kept = maxChars - room;
  return {
    isError: answer.isError === true,
    parts,
    structured,
    durationMs,
    cut: kept < chars || partsLeftOut > 0 ? { chars, keptChars: kept, partsLeftOut } : null,
  };
}

/**
 * The result as the model reads it, in a `tool` message: its text, each other part named on a
 * line of its own, the structured content when there is no text, and a note when it was cut.
 */
export function resultForModel(result: ToolResult): string {
  const lines: string[] = [];
  for (const part of result.parts) {
    switch (part.type) {
      case 'text':
        lines.push(part.text);
        break;
      case 'image':
      case 'audio':
        lines.push(`[${part.type}: ${part.mimeType}, ${base64Bytes(part.data)} bytes]`);
        break;
      case 'resource':
        lines.push(
          part.text !== null
            ? `[resource ${part.uri}]\n${part.text}`
            : `[resource ${part.uri}: ${part.mimeType ?? 'binary'}, ${part.bytes ?? 0} bytes]`,
        );
        break;
      case 'link':
        lines.push(
          `[link: ${part.name} <${part.uri}>${part.description ? ` ${part.description}` : ''}]`,
        );
        break;
    }
  }
  if (result.structured !== null && !result.parts.some((p) => p.type === 'text'))
    lines.push(JSON.stringify(result.structured));
  if (result.cut !== null)
    lines.push(
      `[The result was cut: it held ${result.cut.chars} characters; the first ${result.cut.keptChars} are above${result.cut.partsLeftOut === 1 ? ', and 1 part was left out' : result.cut.partsLeftOut > 1 ? `, and ${result.cut.partsLeftOut} parts were left out` : ''}.]`,
    );
  const body = lines.join('\n\n');
  return result.isError ? `The tool reported an error: ${body}` : body;
}
