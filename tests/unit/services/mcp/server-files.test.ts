/**
 * What a person writes or imports: a draft checked with the reason for each mistake, a command
 * line written in one field split as a shell would, and an `mcpServers` file read entry by entry,
 * bad ones refused by name, secret-looking values marked secret.
 */
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../../electron/main/services/app-error';
import { readServersFile } from '../../../../electron/main/services/mcp/import-file';
import { checkDraft, splitCommandLine } from '../../../../electron/main/services/mcp/server-config';

function refusal(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error.messageId;
    throw error;
  }
  return undefined;
}

describe('a draft', () => {
  const taken = { takenNames: ['Files'] };
  it('splits a whole command line given as the command', () => {
    expect(
      checkDraft(
        { name: 'x', transport: 'stdio', command: 'npx -y @scope/server "~/My Notes"' },
        taken,
      ),
    ).toMatchObject({
      command: 'npx',
      args: ['-y', '@scope/server', '~/My Notes'],
    });
    expect(splitCommandLine(`uvx  mcp-server-fetch --ua 'a b' "c \\"d\\""`)).toEqual([
      'uvx',
      'mcp-server-fetch',
      '--ua',
      'a b',
      'c "d"',
    ]);
  });

  it.each([
    [{ name: ' ', transport: 'stdio', command: 'npx' }, 'form.tools.name'],
    [{ name: 'files', transport: 'stdio', command: 'npx' }, 'tools.nameTaken'],
    [{ name: 'x', transport: 'stdio', command: '  ' }, 'form.tools.command'],
    [
      { name: 'x', transport: 'stdio', command: 'npx', env: [{ name: '1BAD', value: 'v' }] },
      'form.tools.envName',
    ],
    [
      {
        name: 'x',
        transport: 'stdio',
        command: 'npx',
        env: [
          { name: 'A', value: '1' },
          { name: 'A', value: '2' },
        ],
      },
      'form.tools.duplicate',
    ],
    [
      { name: 'x', transport: 'stdio', command: 'npx', env: [{ name: 'TOKEN', secret: true }] },
      'form.tools.secretMissing',
    ],
    [{ name: 'x', transport: 'http', url: 'ftp://h/mcp' }, 'form.tools.url'],
    [{ name: 'x', transport: 'http', url: 'https://user:pw@h/mcp' }, 'form.tools.urlCredentials'],
    [
      {
        name: 'x',
        transport: 'http',
        url: 'https://h/mcp',
        headers: [{ name: 'Bad Header', value: 'v' }],
      },
      'form.tools.headerName',
    ],
    [
      {
        name: 'x',
        transport: 'http',
        url: 'https://h/mcp',
        headers: [{ name: 'Mcp-Session-Id', value: 'v' }],
      },
      'form.tools.headerReserved',
    ],
    [
      {
        name: 'x',
        transport: 'http',
        url: 'http://mcp.example.com/mcp',
        headers: [{ name: 'Authorization', value: 'Bearer t', secret: true }],
      },
      'tools.secretInClear',
    ],
  ] as const)('refuses %j with %s', (draft, key) => {
    expect(refusal(() => checkDraft(draft as never, taken))).toBe(key);
  });

  it('keeps a saved secret when the form leaves its value empty', () => {
    const checked = checkDraft(
      { name: 'x', transport: 'stdio', command: 'npx', env: [{ name: 'TOKEN', secret: true }] },
      { takenNames: [], savedSecrets: { env: { TOKEN: 's' }, headers: {} } },
    );
    expect(checked.env).toEqual([{ name: 'TOKEN', secret: true, value: undefined }]);
  });

  it('allows plain http with secret headers on this computer and the local network', () => {
    expect(
      refusal(() =>
        checkDraft(
          {
            name: 'x',
            transport: 'http',
            url: 'http://127.0.0.1:3001/mcp',
            headers: [{ name: 'Authorization', value: 't', secret: true }],
          },
          taken,
        ),
      ),
    ).toBeUndefined();
  });
});

describe('an mcpServers file', () => {
  it('reads the Claude desktop and Cursor format, secrets marked, bad entries refused by name', () => {
    const read = readServersFile(
      JSON.stringify({
        mcpServers: {
          files: {
            command: 'npx',
            args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'],
          },
          github: {
            command: 'docker',
            args: ['run', 'ghcr.io/github/github-mcp-server'],
            env: { GITHUB_PERSONAL_ACCESS_TOKEN: 'ghp_x', LOG_LEVEL: 'info', RETRIES: 3 },
          },
          remote: {
            url: 'https://mcp.example.com/mcp',
            headers: { Authorization: 'Bearer abc', 'X-Team': 'blue' },
          },
          old: { type: 'sse', url: 'https://mcp.example.com/sse' },
          broken: { command: 'npx', args: '-y server' },
          empty: {},
          both: { command: 'npx', url: 'https://h' },
          notes: 'a string',
        },
      }),
    );
    if (!read.ok) throw new Error('not read');
    expect(read.entries.map((e) => e.name)).toEqual(['files', 'github', 'remote']);
    expect(read.entries[1]?.draft.env).toEqual([
      { name: 'GITHUB_PERSONAL_ACCESS_TOKEN', value: 'ghp_x', secret: true },
      { name: 'LOG_LEVEL', value: 'info', secret: false },
      { name: 'RETRIES', value: '3', secret: false },
    ]);
    expect(read.entries[2]?.draft).toMatchObject({
      transport: 'http',
      headers: [
        { name: 'Authorization', value: 'Bearer abc', secret: true },
        { name: 'X-Team', value: 'blue', secret: false },
      ],
    });
    expect(read.refused.map((r) => [r.entry, r.reason.id])).toEqual([
      ['old', 'import.tools.sse'],
      ['broken', 'import.tools.badField'],
      ['empty', 'import.tools.neither'],
      ['both', 'import.tools.both'],
      ['notes', 'import.tools.notAServer'],
    ]);
    expect(read.refused[1]?.reason.english).toBe(
      'its args is not what that field holds (text, or a list of texts for args)',
    );
  });

  it('says the line and column of a JSON mistake, the end of a file cut short', () => {
    const trailingComma = '{\n  "mcpServers": {\n    "a": { "command": "x" },\n  }\n}';
    expect(readServersFile(trailingComma)).toMatchObject({
      ok: false,
      reason: { id: 'import.tools.notJsonAt', values: { line: 4, column: 3 } },
    });
    expect(readServersFile('{\r\n  "mcpServers": {')).toMatchObject({
      ok: false,
      reason: { id: 'import.tools.notJsonAt', values: { line: 2, column: 18 } },
    });
  });

  it('reads VS Code’s servers list with types, and refuses a file that is not one', () => {
    const read = readServersFile(
      JSON.stringify({
        servers: {
          a: { type: 'stdio', command: 'uvx', args: ['x'] },
          b: { type: 'http', url: 'https://h/mcp' },
        },
      }),
    );
    expect(read.ok && read.entries.map((e) => e.draft.transport)).toEqual(['stdio', 'http']);
    expect(readServersFile('{ not json')).toEqual({
      ok: false,
      reason: expect.objectContaining({
        id: 'import.tools.notJsonAt',
        values: { line: 1, column: 3 },
      }),
    });
    expect(readServersFile('{"provider": {}}')).toEqual({
      ok: false,
      reason: expect.objectContaining({ id: 'import.tools.noServers' }),
    });
  });
});
