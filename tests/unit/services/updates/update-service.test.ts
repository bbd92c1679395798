/**
 * The app's own updates, as the page sees them: checked on start and every few hours, downloaded
 * in the background with progress, "Restart to update" once verified, and each failure said in
 * a sentence. electron-updater is replaced by a scripted updater that reports what it would.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { UpdateSettings, UpdateStatus } from '../../../../electron/shared/ipc/routes/updates';
import {
  feedUrlOf,
  updateUnsupportedReason,
} from '../../../../electron/main/services/updates/support';
import { errorText, said } from '../../../../electron/main/services/words';
import {
  CHECK_INTERVAL_MS,
  describeUpdateError,
  releaseNotesText,
  UpdateService,
} from '../../../../electron/main/services/updates/update-service';
import { ScriptedUpdater } from '../../../fakes/scripted-updater';

let settings: UpdateSettings;
let statuses: UpdateStatus[];
let updater: ScriptedUpdater;
let clock: number;

function service(options: Partial<ConstructorParameters<typeof UpdateService>[0]> = {}) {
  return new UpdateService({
    currentVersion: '0.1.0',
    updater,
    settings: async () => settings,
    emit: (status) => statuses.push(status),
    now: () => new Date(clock),
    ...options,
  });
}

beforeEach(() => {
  settings = { channel: 'stable', autoCheck: true };
  statuses = [];
  updater = new ScriptedUpdater();
  clock = Date.parse('2026-11-22T10:00:00Z');
});
afterEach(() => {
  vi.useRealTimers();
});

const release = {
  version: '0.2.0',
  releaseNotes: '<p>Quick ask.</p><ul><li>Tray</li></ul>',
  releaseDate: '2026-11-20',
};

describe('checking', () => {
  it('says the app is up to date when the feed has nothing newer', async () => {
    const updates = service();
    expect(await updates.check()).toEqual({
      state: 'up-to-date',
      currentVersion: '0.1.0',
      checkedAt: '2026-11-22T10:00:00.000Z',
    });
    expect(statuses.map((s) => s.state)).toEqual(['checking', 'checking', 'up-to-date']);
  });

  it('downloads what it finds, with progress, then offers to restart', async () => {
    updater.next.push([{ type: 'available', release }]);
    const updates = service({ progressIntervalMs: 500 });
    const after = await updates.check();
    expect(after).toMatchObject({
      state: 'downloading',
      release: { version: '0.2.0', notes: 'Quick ask.\n• Tray', releaseDate: '2026-11-20' },
    });
    const progress = (percent: number) =>
      updater.emit({
        type: 'progress',
        progress: { percent, transferred: percent * 1000, total: 100_000, bytesPerSecond: 5000 },
      });
    progress(10);
    clock += 100;
    progress(20); // within 500 ms of the last: not passed on
    clock += 600;
    progress(60);
    progress(100); // the end always is
    const downloading = statuses.filter((s) => s.state === 'downloading');
    expect(
      downloading.map((s) => (s as { progress?: { percent: number } }).progress?.percent),
    ).toEqual([undefined, 10, 60, 100]);
    updater.emit({ type: 'downloaded', release });
    expect(updates.status).toMatchObject({ state: 'ready', release: { version: '0.2.0' } });
    // A check while one is ready or downloading changes nothing.
    expect(await updates.check()).toMatchObject({ state: 'ready' });
    expect(updater.checks).toBe(1);
    updates.install();
    expect(updater.installs).toBe(1);
  });

  it('refuses to install before a download is ready', () => {
    expect(() => service().install()).toThrow('No update has been downloaded yet.');
    expect(updater.installs).toBe(0);
  });

  it('joins a check already running instead of starting another', async () => {
    const updates = service();
    const [a, b] = await Promise.all([updates.check(), updates.check()]);
    expect(a).toEqual(b);
    expect(updater.checks).toBe(1);
  });

  it('says this build does not update itself, and why, without an updater', async () => {
    const updates = service({
      updater: undefined,
      unsupportedReason: said('updates.unsupported.platform', { platform: 'aix' }),
    });
    expect(updates.status).toEqual({
      state: 'unsupported',
      currentVersion: '0.1.0',
      reason: 'Updates are not available on aix.',
      messageId: 'updates.unsupported.platform',
      values: { platform: 'aix' },
    });
    expect(errorText('de', 'updates.unsupported.platform', { platform: 'aix' })).toBe(
      'Updates sind unter aix nicht verfügbar.',
    );
    expect(await updates.check()).toEqual(updates.status);
  });
});

describe('failures', () => {
  it('says the server could not be reached when offline', async () => {
    updater.rejectNext = new Error('net::ERR_INTERNET_DISCONNECTED');
    const status = await service().check();
    expect(status).toMatchObject({
      state: 'failed',
      failure: 'offline',
      at: '2026-11-22T10:00:00.000Z',
    });
    expect((status as { message: string }).message).toMatch(/could not be reached/);
  });

  it('says a bad checksum deleted the download, naming the release', async () => {
    updater.next.push([{ type: 'available', release }]);
    const updates = service();
    await updates.check();
    const error = Object.assign(new Error('sha512 checksum mismatch, expected abc, got def'), {
      code: 'ERR_CHECKSUM_MISMATCH',
    });
    updater.emit({ type: 'error', error });
    expect(updates.status).toMatchObject({
      state: 'failed',
      failure: 'checksum',
      release: { version: '0.2.0' },
      message: expect.stringMatching(
        /did not match the checksum \(SHA-512\).*deleted and not installed/,
      ),
    });
    // The next check tries again.
    updater.next.push([{ type: 'not-available' }]);
    expect(await updates.check()).toMatchObject({ state: 'up-to-date' });
  });

  it.each([
    [
      {
        code: 'ERR_UPDATER_INVALID_SIGNATURE',
        message: 'New version 0.2.0 is not signed by the application owner: x',
      },
      'signature',
    ],
    [
      { code: 'ERR_UPDATER_CHANNEL_FILE_NOT_FOUND', message: 'Cannot find latest-linux.yml' },
      'feed',
    ],
    [{ message: 'HttpError: 404 Not Found' }, 'feed'],
    [{ code: 'ENOTFOUND', message: 'getaddrinfo ENOTFOUND updates.example.com' }, 'offline'],
    [{ message: 'Something else\nwith a stack' }, 'other'],
  ])('reads %j as %s', (fields, failure) => {
    const error = Object.assign(
      new Error(fields.message),
      'code' in fields ? { code: fields.code } : {},
    );
    const described = describeUpdateError(error);
    expect(described.failure).toBe(failure);
    if (failure === 'other') expect(described.message).toBe('The update failed: Something else');
  });
});

describe('schedule and channel', () => {
  it('checks 10 s after start and every 4 hours, only while checking by itself is on', async () => {
    vi.useFakeTimers();
    const updates = service();
    await updates.start();
    expect(updater.channel).toBe('latest');
    await vi.advanceTimersByTimeAsync(9_999);
    expect(updater.checks).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(updater.checks).toBe(1);
    await vi.advanceTimersByTimeAsync(CHECK_INTERVAL_MS);
    expect(updater.checks).toBe(2);
    settings = { ...settings, autoCheck: false };
    await updates.configure(settings, { channel: 'stable', autoCheck: true });
    await vi.advanceTimersByTimeAsync(3 * CHECK_INTERVAL_MS);
    expect(updater.checks).toBe(2);
    updates.close();
  });

  it('switches the channel and checks it at once', async () => {
    const updates = service();
    await updates.start();
    settings = { channel: 'beta', autoCheck: true };
    await updates.configure(settings, { channel: 'stable', autoCheck: true });
    expect(updater.channel).toBe('beta');
    await vi.waitFor(() => expect(updater.checks).toBe(1));
    updates.close();
  });

  it('saves a change over the settings before, and follows it', async () => {
    vi.useFakeTimers();
    const saved: UpdateSettings[] = [];
    const updates = service({
      saveSettings: async (next) => {
        saved.push(next);
        settings = next;
        return next;
      },
    });
    await updates.start();
    // A field left out keeps its saved value; one given as undefined is not a change either.
    await expect(updates.change({ channel: 'beta', autoCheck: undefined })).resolves.toEqual({
      channel: 'beta',
      autoCheck: true,
    });
    expect(saved).toEqual([{ channel: 'beta', autoCheck: true }]);
    expect(updater.channel).toBe('beta');
    await vi.waitFor(() => expect(updater.checks).toBe(1));

    await expect(updates.change({ autoCheck: false })).resolves.toEqual({
      channel: 'beta',
      autoCheck: false,
    });
    await vi.advanceTimersByTimeAsync(3 * CHECK_INTERVAL_MS);
    expect(updater.checks).toBe(1);
    updates.close();
  });

  it('changes nothing when saving fails', async () => {
    const updates = service({
      saveSettings: async () => {
        throw new Error('disk full');
      },
    });
    await updates.start();
    await expect(updates.change({ channel: 'beta' })).rejects.toThrow('disk full');
    expect(updater.channel).toBe('latest');
    updates.close();
  });
});

describe('release notes', () => {
  it('are plain text, whatever the feed gave', () => {
    expect(releaseNotesText('<h2>0.2.0</h2><p>Fixes &amp; <b>more</b></p>')).toBe(
      '0.2.0\nFixes & more',
    );
    expect(
      releaseNotesText([
        { version: '0.2.0', note: 'Quick ask' },
        { version: '0.1.1', note: null },
      ]),
    ).toBe('0.2.0\nQuick ask\n\n0.1.1');
    expect(releaseNotesText(null)).toBeUndefined();
    expect(releaseNotesText('<p></p>')).toBeUndefined();
  });
});

describe('which installations update themselves', () => {
  const base = {
    packaged: true,
    platform: 'linux',
    env: {},
    hasUpdateConfig: true,
    packageType: undefined,
  };

  it('AppImages, deb and rpm packages, the Windows installer and the macOS app', () => {
    expect(
      updateUnsupportedReason({ ...base, env: { APPIMAGE: '/a/Relay.AppImage' } }),
    ).toBeUndefined();
    expect(updateUnsupportedReason({ ...base, packageType: 'deb' })).toBeUndefined();
    expect(updateUnsupportedReason({ ...base, packageType: 'rpm' })).toBeUndefined();
    expect(updateUnsupportedReason({ ...base, platform: 'win32' })).toBeUndefined();
    expect(updateUnsupportedReason({ ...base, platform: 'darwin' })).toBeUndefined();
  });

  it.each([
    [{ packaged: false }, /development build/],
    [
      { hasUpdateConfig: false, env: { APPIMAGE: '/a' } },
      /without an update address \(RELAY_UPDATE_URL\)/,
    ],
    [{ env: { SNAP: '/snap/relay' } }, /Snap store/],
    [{}, /not an AppImage or a deb or rpm package/],
    [{ packageType: 'pacman' }, /not an AppImage or a deb or rpm package/],
    [{ platform: 'win32', env: { PORTABLE_EXECUTABLE_DIR: 'C:\\x' } }, /portable version/],
    [
      { platform: 'win32', feedUrl: 'http://downloads.example.com/relay-desktop/' },
      /http:\/\/downloads\.example\.com\/relay-desktop\/, which is not an https address/,
    ],
    [{ platform: 'darwin', feedUrl: 'ftp://downloads.example.com/' }, /not an https address/],
  ])('not %j', (facts, reason) => {
    expect(updateUnsupportedReason({ ...base, ...facts })?.english).toMatch(reason);
  });

  it('takes its feed from the build only, over https (or this computer’s own loopback)', () => {
    const appImage = { ...base, env: { APPIMAGE: '/a/Relay.AppImage' } };
    expect(
      updateUnsupportedReason({ ...appImage, feedUrl: 'https://downloads.example.com/r/' }),
    ).toBeUndefined();
    expect(
      updateUnsupportedReason({ ...appImage, feedUrl: 'http://127.0.0.1:8123/r/' }),
    ).toBeUndefined();
    // An address in the environment at run time changes nothing: the feed is the build's.
    expect(
      updateUnsupportedReason({
        ...appImage,
        env: { ...appImage.env, RELAY_UPDATE_URL: 'http://elsewhere.example/' },
        feedUrl: 'https://downloads.example.com/r/',
      }),
    ).toBeUndefined();
  });

  it('reads the feed address from the app-update.yml electron-builder wrote', () => {
    expect(
      feedUrlOf('provider: generic\nurl: https://downloads.example.com/r/\nchannel: latest\n'),
    ).toBe('https://downloads.example.com/r/');
    expect(feedUrlOf("provider: generic\nurl: 'http://x.example/'\n")).toBe('http://x.example/');
    expect(feedUrlOf('provider: github\nowner: a\nrepo: b\n')).toBeUndefined();
  });
});
