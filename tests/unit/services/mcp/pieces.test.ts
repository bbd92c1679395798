/**
 * The small pieces under the MCP service: the ring of error lines (bounded whatever a server
 * writes), the names tools are offered under (allowed and unique), and a result capped with a note.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TOOL_NAME_PATTERN } from '../../../../electron/shared/relay-requests';
import { LineRing } from '../../../../electron/main/services/mcp/line-ring';
import { functionNames } from '../../../../electron/main/services/mcp/tool-names';
import { readToolResult, resultForModel } from '../../../../electron/main/services/mcp/tool-result';

describe('the ring of error lines', () => {
  it('keeps the last lines, each cut to size, however the output is chunked', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: 'grapheme', maxLength: 40 }), { maxLength: 60 }),
        fc.array(fc.nat(), { maxLength: 20 }),
        (lines, cuts) => {
          const text = lines.map((l) => `${l.replace(/\n/g, ' ')}\n`).join('');
          const bytes = new TextEncoder().encode(text);
          const ring = new LineRing(10, 25);
          const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort(
            (a, b) => a - b,
          );
          let start = 0;
          for (const point of [...points, bytes.length]) {
            ring.push(bytes.slice(start, point));
            start = point;
          }
          const expected = lines
            .map((l) => l.replace(/\n/g, ' ').replace(/\r$/, ''))
            .map((l) => (l.length > 25 ? `${l.slice(0, 25)}…` : l))
            .slice(-10);
          expect(ring.lines()).toEqual(expected);
        },
      ),
    );
  });

  it('stays bounded under a flood of long lines without newlines', () => {
    const ring = new LineRing(200, 2000);
    for (let i = 0; i < 10_000; i++) ring.push('x'.repeat(10_000));
    expect(ring.lines()).toHaveLength(1);
    expect(ring.lines()[0]).toHaveLength(2001);
  });
});

describe('function names', () => {
  it('keeps allowed unique names, and prefixes the server where needed', () => {
    expect(
      functionNames([
        { serverId: 'a', serverName: 'Files', tool: 'read_file' },
        { serverId: 'a', serverName: 'Files', tool: 'search' },
        { serverId: 'b', serverName: 'Web search', tool: 'search' },
        { serverId: 'b', serverName: 'Web search', tool: 'fetch.page' },
      ]),
    ).toEqual(['read_file', 'Files__search', 'Web_search__search', 'Web_search__fetch_page']);
  });

  it('always gives names the convention allows, unique in a request', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            serverId: fc.constantFrom('a', 'b', 'c'),
            serverName: fc.string({ maxLength: 70 }),
            tool: fc.string({ maxLength: 90 }),
          }),
          { maxLength: 30 },
        ),
        (tools) => {
          const names = functionNames(tools);
          for (const name of names) expect(name).toMatch(TOOL_NAME_PATTERN);
          expect(new Set(names).size).toBe(names.length);
        },
      ),
    );
  });
});

describe('a tool result', () => {
  it('keeps text, images, resources and links, and structured content beside them', () => {
    const result = readToolResult(
      {
        content: [
          { type: 'text', text: 'Found 2 files.' },
          { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' },
          {
            type: 'resource',
            resource: { uri: 'file:///a.md', mimeType: 'text/markdown', text: '# A' },
          },
          { type: 'resource_link', uri: 'file:///b.md', name: 'b.md' },
          { type: 'something-new', value: 1 },
        ],
        structuredContent: { count: 2 },
      },
      12,
    );
    expect(result.parts.map((p) => p.type)).toEqual(['text', 'image', 'resource', 'link']);
    expect(result.structured).toEqual({ count: 2 });
    expect(result.cut).toEqual({ chars: 28, keptChars: 28, partsLeftOut: 1 });
    expect(resultForModel(result)).toBe(
      'Found 2 files.\n\n[image: image/png, 8 bytes]\n\n[resource file:///a.md]\n# A\n\n[link: b.md <file:///b.md>]\n\n[The result was cut: it held 28 characters; the first 28 are above, and 1 part was left out.]',
    );
  });

  it('cuts text past the limit, and says an error is one', () => {
    const result = readToolResult(
      {
        content: [
          { type: 'text', text: 'abcdef' },
          { type: 'text', text: 'ghij' },
        ],
        isError: true,
      },
      1,
      8,
    );
    expect(result.parts).toEqual([
      { type: 'text', text: 'abcdef' },
      { type: 'text', text: 'gh' },
    ]);
    expect(resultForModel(result)).toMatch(
      /^The tool reported an error: abcdef\n\ngh\n\n\[The result was cut: it held 10 characters; the first 8 are above\.\]$/,
    );
  });

  it('gives the structured content to the model when there is no text', () => {
    expect(
      resultForModel(readToolResult({ content: [], structuredContent: { temperature: 21 } }, 1)),
    ).toBe('{"temperature":21}');
  });
});
