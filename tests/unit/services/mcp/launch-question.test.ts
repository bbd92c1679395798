import { describe, expect, it } from 'vitest';
import {
  launchFingerprint,
  launchQuestion,
  shownCommandLine,
} from '../../../../electron/main/services/mcp/launch-question';

describe('the question before a local server runs', () => {
  it('shows the command line as it runs: quoted words, hidden characters by their code', () => {
    expect(shownCommandLine('/usr/bin/node', ['server.js', 'my folder', 'say "hi"', ''])).toBe(
      '/usr/bin/node server.js "my folder" "say \\"hi\\"" ""',
    );
    // A right-to-left override cannot reorder what the person reads.
    expect(shownCommandLine('sh', ['-c', 'echo\u202Etxt.exe'])).toBe(
      'sh -c "echo\\u{202e}txt.exe"',
    );
  });

  it('names the server and the variables it sets, never their values', () => {
    const question = launchQuestion({
      name: 'Files\u202E',
      command: '/usr/bin/npx',
      args: ['-y', '@modelcontextprotocol/server-filesystem'],
      envNames: ['API_KEY', 'MODE'],
    });
    expect(question).toMatchObject({
      message: 'Run “Files” on this computer?',
      confirmLabel: 'Run',
    });
    expect(question.detail).toContain(
      'Command: /usr/bin/npx -y @modelcontextprotocol/server-filesystem',
    );
    expect(question.detail).toContain('Environment variables set: API_KEY, MODE');
  });

  it('gives another fingerprint for any change of the command line, or another key', () => {
    const key = Buffer.alloc(32, 1);
    const launch = { command: 'node', args: ['a.js'], env: [['MODE', 'x']] as [string, string][] };
    const same = launchFingerprint(key, launch);
    expect(launchFingerprint(key, { ...launch })).toBe(same);
    for (const other of [
      { ...launch, command: 'bash' },
      { ...launch, args: ['a.js', 'b'] },
      { ...launch, env: [['MODE', 'y']] as [string, string][] },
      { ...launch, env: [['MODE2', 'x']] as [string, string][] },
    ])
      expect(launchFingerprint(key, other)).not.toBe(same);
    expect(launchFingerprint(Buffer.alloc(32, 2), launch)).not.toBe(same);
  });
});
