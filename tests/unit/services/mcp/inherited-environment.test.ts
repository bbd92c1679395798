/**
 * What a local server inherits from the app's environment: what a program needs to find the
 * person's home, temp folder and terminal; never the app's own variables.
 */
import { describe, expect, it } from 'vitest';
import { inheritedEnvironment } from '../../../../electron/main/services/mcp/processes';

describe('a server’s inherited environment', () => {
  it('keeps home, user, shell and locale, and leaves the app’s own variables out', () => {
    const env = inheritedEnvironment({
      platform: 'linux',
      env: {
        HOME: '/home/ada',
        USER: 'ada',
        SHELL: '/bin/zsh',
        LANG: 'de_DE.UTF-8',
        PATH: '/usr/bin',
        ELECTRON_RUN_AS_NODE: '1',
        NODE_OPTIONS: '--inspect',
        RELAY_API_KEY: 'sk-secret',
        APPDATA: 'C:\\Users\\ada\\AppData\\Roaming',
      },
    });
    expect(env).toEqual({
      HOME: '/home/ada',
      USER: 'ada',
      SHELL: '/bin/zsh',
      LANG: 'de_DE.UTF-8',
    });
  });

  it('passes on no value shaped like a shell function definition', () => {
    const env = inheritedEnvironment({
      platform: 'darwin',
      env: { HOME: '/Users/ada', TERM: '() { :;}; echo pwned' },
    });
    expect(env).toEqual({ HOME: '/Users/ada' });
  });

  it('keeps the Windows names on Windows, and only those', () => {
    const env = inheritedEnvironment({
      platform: 'win32',
      env: { USERPROFILE: 'C:\\Users\\ada', SystemRoot: 'C:\\Windows', HOME: '/x', TEMP: 'C:\\T' },
    });
    expect(env).toEqual({
      USERPROFILE: 'C:\\Users\\ada',
      SystemRoot: 'C:\\Windows',
      TEMP: 'C:\\T',
    });
  });
});
