import { describe, expect, it } from 'vitest';
import { trustedSender } from '../../../electron/main/ipc/router';
import { mainWindowOptions } from '../../../electron/main/windows/main-window-options';
import { checkStart, StartRefused } from '../../../electron/main/windows/start-policy';

const noSwitch = () => false;

describe('a packaged build refuses remote debugging', () => {
  it.each([
    ['--remote-debugging-port=9222'],
    ['--remote-debugging-port', '9222'],
    ['--remote-debugging-pipe'],
    ['-remote-debugging-port=0'],
    ['--REMOTE-DEBUGGING-PORT=9222'],
    ['--remote-debugging-pipe=cbor'],
  ])('refuses to start with %s', (...args) => {
    const start = () =>
      checkStart({
        isPackaged: true,
        argv: ['/opt/Relay Desktop/relay-desktop', ...args],
        env: {},
        hasSwitch: noSwitch,
      });
    expect(start).toThrow(StartRefused);
    expect(start).toThrow(/remote debugging/i);
  });

  it('refuses a switch Chromium parsed even when argv does not show it', () => {
    expect(() =>
      checkStart({
        isPackaged: true,
        argv: ['/opt/relay'],
        env: {},
        hasSwitch: (name) => name === 'remote-debugging-pipe',
      }),
    ).toThrow(StartRefused);
  });

  it('starts with ordinary arguments', () => {
    expect(
      checkStart({
        isPackaged: true,
        argv: ['/opt/relay', '--enable-logging', '--remote-debugging', 'remote-debugging-port'],
        env: { ELECTRON_RENDERER_URL: 'http://localhost:5173' },
        hasSwitch: noSwitch,
      }),
    ).toEqual({ devServer: undefined });
  });

  it('leaves a development build free to be debugged', () => {
    expect(
      checkStart({
        isPackaged: false,
        argv: ['electron', '.', '--remote-debugging-port=9222'],
        env: {},
        hasSwitch: () => true,
      }),
    ).toEqual({ devServer: undefined });
  });
});

describe('the dev server address', () => {
  it('is trusted by its origin in a development build', () => {
    expect(
      checkStart({
        isPackaged: false,
        argv: [],
        env: { ELECTRON_RENDERER_URL: 'http://localhost:5173/' },
        hasSwitch: noSwitch,
      }),
    ).toEqual({ devServer: { url: 'http://localhost:5173/', origin: 'http://localhost:5173' } });
  });

  it.each([
    '',
    'localhost:5173',
    'not a url',
    'file:///tmp/index.html',
    'http://',
    'javascript:alert(1)',
  ])('is an error at start when it is %j', (url) => {
    expect(() =>
      checkStart({
        isPackaged: false,
        argv: [],
        env: { ELECTRON_RENDERER_URL: url },
        hasSwitch: noSwitch,
      }),
    ).toThrow(/ELECTRON_RENDERER_URL/);
  });

  it('never makes an empty origin trusted', () => {
    const trusted = trustedSender(['app://relay', ''], () => [1]);
    for (const url of ['', 'not a url', 'about:blank'])
      expect(trusted({ url, isMainFrame: true, webContentsId: 1 }), url).toBe(false);
    expect(trusted({ url: 'app://relay/index.html', isMainFrame: true, webContentsId: 1 })).toBe(
      true,
    );
  });
});

describe('the window of a packaged build', () => {
  it('has no developer tools', () => {
    expect(mainWindowOptions('/p.cjs', { packaged: true }).webPreferences?.devTools).toBe(false);
  });

  it('keeps them in a development build', () => {
    expect(mainWindowOptions('/p.cjs', { packaged: false }).webPreferences?.devTools).toBe(true);
  });
});
