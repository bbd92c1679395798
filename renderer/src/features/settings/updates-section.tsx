import { useEffect, useState } from 'react';
import { CheckboxField } from '../../components/checkbox-field';
import { Notice } from '../../components/notice';
import { Spinner } from '../../components/spinner';
import { failureOf, type FailureInfo } from '../../lib/errors';
import type { Settings, UpdateStatus } from '../../lib/relay-bridge';
import { checkForUpdates, configureUpdates, installUpdate, watchUpdates } from './updates-actions';
import { useUpdatesStore } from './updates-store';

function megabytes(bytes: number): string {
  return (bytes / 1_048_576).toLocaleString(undefined, { maximumFractionDigits: 1 });
}

function time(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

function StatusLine({ status }: { status: UpdateStatus }) {
  switch (status.state) {
    case 'unsupported':
      return <p className="muted">{status.reason}</p>;
    case 'idle':
      return (
        <p className="muted">
          {status.lastCheckedAt
            ? `Last checked ${time(status.lastCheckedAt)}.`
            : 'Not checked yet.'}
        </p>
      );
    case 'checking':
      return (
        <p className="muted">
          <Spinner label="Checking" /> Checking for updates…
        </p>
      );
    case 'up-to-date':
      return <p>Relay Desktop is up to date (checked {time(status.checkedAt)}).</p>;
    case 'downloading': {
      const progress = status.progress;
      return (
        <div className="update-progress">
          <p>
            Downloading version {status.release.version}
            {progress
              ? `: ${Math.floor(progress.percent)}% (${megabytes(progress.transferred)} of ${megabytes(progress.total)} MB)`
              : '…'}
          </p>
          <progress
            max={100}
            value={progress?.percent}
            aria-label={`Downloading version ${status.release.version}`}
          />
        </div>
      );
    }
    case 'ready':
      return (
        <p>
          Version {status.release.version} is downloaded and verified. It is installed when you
          restart, or the next time you quit.
        </p>
      );
    case 'failed':
      return (
        <Notice
          tone="error"
          title={
            status.release
              ? `Version ${status.release.version} was not installed`
              : 'The update check failed'
          }
        >
          <p className="failure-message">{status.message}</p>
        </Notice>
      );
  }
}

/**
 * The app's own updates: where they stand (checking, downloading with progress, ready, failed),
 * the release notes, "Restart to update", and the channel.
 */
export function UpdatesSection({ settings }: { settings: Settings }) {
  const status = useUpdatesStore((s) => s.status);
  const checking = useUpdatesStore((s) => s.checking);
  const callFailure = useUpdatesStore((s) => s.failure);
  const [saveFailure, setSaveFailure] = useState<FailureInfo | undefined>();
  // A choice shows at once, before main has saved it; it goes back if saving fails.
  const [pending, setPending] = useState<Partial<Settings['updates']> | undefined>();
  const chosen = { ...settings.updates, ...pending };

  useEffect(() => watchUpdates(), []);

  async function configure(changes: Partial<Settings['updates']>) {
    setSaveFailure(undefined);
    setPending(changes);
    try {
      await configureUpdates(changes);
    } catch (error) {
      setSaveFailure(failureOf(error));
    } finally {
      setPending(undefined);
    }
  }

  const supported = status !== undefined && status.state !== 'unsupported';
  const release = status && 'release' in status ? status.release : undefined;
  const busy = checking || status?.state === 'checking' || status?.state === 'downloading';

  return (
    <section className="card settings-section" aria-labelledby="updates-title">
      <h2 className="card-title" id="updates-title">
        Updates
      </h2>
      <div className="update-status" aria-live="polite">
        {status ? <StatusLine status={status} /> : <Spinner label="Loading" />}
      </div>
      {release?.notes && (
        <details className="release-notes" open={status?.state === 'ready'}>
          <summary>What’s new in {release.version}</summary>
          <p className="release-notes-text">{release.notes}</p>
        </details>
      )}
      {callFailure && (
        <Notice tone="error" title="Updates">
          <p className="failure-message">{callFailure.message}</p>
        </Notice>
      )}
      <div className="form-actions">
        <span className="muted">Version {status?.currentVersion}</span>
        <span className="form-actions-spacer" />
        {supported && status.state !== 'ready' && (
          <button
            type="button"
            className="button"
            disabled={busy}
            onClick={() => void checkForUpdates()}
          >
            {busy && status.state !== 'downloading' ? 'Checking…' : 'Check now'}
          </button>
        )}
        {status?.state === 'ready' && (
          <button
            type="button"
            className="button button-primary"
            onClick={() => void installUpdate()}
          >
            Restart to update
          </button>
        )}
      </div>
      {supported && (
        <>
          <fieldset className="update-channel">
            <legend className="field-label">Channel</legend>
            <label className="checkbox-field">
              <input
                type="radio"
                name="update-channel"
                checked={chosen.channel === 'stable'}
                onChange={() => void configure({ channel: 'stable' })}
              />
              <span>Stable releases</span>
            </label>
            <label className="checkbox-field">
              <input
                type="radio"
                name="update-channel"
                checked={chosen.channel === 'beta'}
                onChange={() => void configure({ channel: 'beta' })}
              />
              <span>Betas too: new features sooner, and less tested</span>
            </label>
          </fieldset>
          <CheckboxField
            checked={chosen.autoCheck}
            onChange={(autoCheck) => void configure({ autoCheck })}
          >
            Check by itself, when the app starts and every 4 hours, and download in the background
          </CheckboxField>
        </>
      )}
      {saveFailure && (
        <Notice tone="error" title="The choice was not saved">
          <p className="failure-message">{saveFailure.message}</p>
        </Notice>
      )}
    </section>
  );
}
