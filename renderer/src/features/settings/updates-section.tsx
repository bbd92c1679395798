import { useEffect, useState } from 'react';
import { CheckboxField } from '../../components/checkbox-field';
import { Notice } from '../../components/notice';
import { Spinner } from '../../components/spinner';
import { formatDate, formatFileSize, formatNumber } from '../../i18n/format';
import { useT } from '../../i18n/i18n';
import { failureOf, useMainMessageText, type FailureInfo } from '../../lib/errors';
import type { Settings, UpdateStatus } from '../../lib/relay-bridge';
import { checkForUpdates, configureUpdates, installUpdate, watchUpdates } from './updates-actions';
import { useUpdatesStore } from './updates-store';

function time(iso: string): string {
  return formatDate(iso, { dateStyle: 'medium', timeStyle: 'short' });
}

function StatusLine({ status }: { status: UpdateStatus }) {
  const t = useT();
  const mainText = useMainMessageText();
  switch (status.state) {
    case 'unsupported':
      // Main's own words, from its catalogue by their key (see docs/design/languages.md).
      return (
        <p className="muted" data-source="main">
          {mainText({ ...status, message: status.reason })}
        </p>
      );
    case 'idle':
      return (
        <p className="muted">
          {status.lastCheckedAt
            ? t('updates.lastChecked', { time: time(status.lastCheckedAt) })
            : t('updates.notChecked')}
        </p>
      );
    case 'checking':
      return (
        <p className="muted">
          <Spinner label={t('updates.checking')} /> {t('updates.checking')}
        </p>
      );
    case 'up-to-date':
      return <p>{t('updates.upToDate', { time: time(status.checkedAt) })}</p>;
    case 'downloading': {
      const progress = status.progress;
      return (
        <div className="update-progress">
          <p>
            {progress
              ? t('updates.downloadingProgress', {
                  version: status.release.version,
                  percent: formatNumber(Math.floor(progress.percent) / 100, { style: 'percent' }),
                  done: formatFileSize(progress.transferred),
                  total: formatFileSize(progress.total),
                })
              : t('updates.downloading', { version: status.release.version })}
          </p>
          <progress
            max={100}
            value={progress?.percent}
            aria-label={t('updates.downloadingLabel', { version: status.release.version })}
          />
        </div>
      );
    }
    case 'ready':
      return <p>{t('updates.ready', { version: status.release.version })}</p>;
    case 'failed':
      return (
        <Notice
          tone="error"
          title={
            status.release
              ? t('updates.notInstalled', { version: status.release.version })
              : t('updates.checkFailed')
          }
        >
          <p className="failure-message">{mainText(status)}</p>
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
  const t = useT();

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
        {t('updates.title')}
      </h2>
      <div className="update-status" aria-live="polite">
        {status ? <StatusLine status={status} /> : <Spinner label={t('loading')} />}
      </div>
      {release?.notes && (
        <details className="release-notes" open={status?.state === 'ready'}>
          <summary>{t('updates.whatsNew', { version: release.version })}</summary>
          <p className="release-notes-text">{release.notes}</p>
        </details>
      )}
      {callFailure && (
        <Notice tone="error" title={t('updates.title')}>
          <p className="failure-message">{callFailure.message}</p>
        </Notice>
      )}
      <div className="form-actions">
        <span className="muted">
          {t('updates.version', { version: status?.currentVersion ?? '' })}
        </span>
        <span className="form-actions-spacer" />
        {supported && status.state !== 'ready' && (
          <button
            type="button"
            className="button"
            disabled={busy}
            onClick={() => void checkForUpdates()}
          >
            {busy && status.state !== 'downloading'
              ? t('updates.checkingShort')
              : t('updates.checkNow')}
          </button>
        )}
        {status?.state === 'ready' && (
          <button
            type="button"
            className="button button-primary"
            onClick={() => void installUpdate()}
          >
            {t('updates.restart')}
          </button>
        )}
      </div>
      {supported && (
        <>
          <fieldset className="update-channel">
            <legend className="field-label">{t('updates.channel')}</legend>
            <label className="checkbox-field">
              <input
                type="radio"
                name="update-channel"
                checked={chosen.channel === 'stable'}
                onChange={() => void configure({ channel: 'stable' })}
              />
              <span>{t('updates.stable')}</span>
            </label>
            <label className="checkbox-field">
              <input
                type="radio"
                name="update-channel"
                checked={chosen.channel === 'beta'}
                onChange={() => void configure({ channel: 'beta' })}
              />
              <span>{t('updates.beta')}</span>
            </label>
          </fieldset>
          <CheckboxField
            checked={chosen.autoCheck}
            onChange={(autoCheck) => void configure({ autoCheck })}
          >
            {t('updates.autoCheck')}
          </CheckboxField>
        </>
      )}
      {saveFailure && (
        <Notice tone="error" title={t('choice.notSaved')}>
          <p className="failure-message">{saveFailure.message}</p>
        </Notice>
      )}
    </section>
  );
}
