import { useEffect, useState } from 'react';
import { Badge } from '../../components/badge';
import { Notice } from '../../components/notice';
import { Spinner } from '../../components/spinner';
import { failureOf, useMainMessageText, type FailureInfo } from '../../lib/errors';
import {
  ago,
  countsText,
  dateTime,
  headline,
  SCHEDULE_LABELS,
  size,
  stageLabel,
} from './backup-format';
import {
  backUpNow,
  chooseBackupFolder,
  loadBackupStatus,
  loadBackups,
  openBackupFile,
  revealBackup,
  setBackupSchedule,
} from './backups-actions';
import {
  useBackupsStore,
  type BackupEntry,
  type BackupSchedule,
  type BackupStatus,
} from './backups-store';
import { RestoreDialog, type RestoreTarget } from './restore-dialog';
import { useNow } from './use-now';
import './backups.css';

const SCHEDULES = Object.keys(SCHEDULE_LABELS) as BackupSchedule[];
/** Backups shown before "Show all". */
const SHOWN = 8;

const PROBLEM_TITLES: Record<NonNullable<BackupStatus['problem']>['kind'], string> = {
  no_folder: 'Backups are off',
  missing: 'The backup folder is missing',
  not_writable: 'The backup folder cannot be written to',
  full: 'The backup drive is full',
  failed: 'The last backup failed',
  never: 'No backup yet',
  overdue: 'Backups are overdue',
};

/** Settings → Backups: the folder, the schedule, the status, and the backups to restore. */
export function BackupsSection() {
  const status = useBackupsStore((state) => state.status);
  const statusFailure = useBackupsStore((state) => state.statusFailure);
  const [failure, setFailure] = useState<{ title: string; info: FailureInfo } | undefined>();
  const [restoring, setRestoring] = useState<RestoreTarget | undefined>();

  // Looked at afresh each time the section opens: a folder may have gone since the last event.
  useEffect(() => {
    void loadBackupStatus();
    void loadBackups();
  }, []);

  async function act(title: string, work: () => Promise<unknown>) {
    setFailure(undefined);
    try {
      await work();
    } catch (error) {
      setFailure({ title, info: failureOf(error) });
    }
  }

  async function openFile() {
    setFailure(undefined);
    try {
      const preview = await openBackupFile();
      if (preview) setRestoring({ preview });
    } catch (error) {
      setFailure({ title: 'The file could not be opened', info: failureOf(error) });
    }
  }

  return (
    <section
      className="card settings-section backups-section"
      aria-labelledby="backups-title"
      id="backups"
    >
      <h2 className="card-title" id="backups-title">
        Backups
      </h2>
      <p className="card-lead">
        Your conversations, embeddings runs, settings and connections, copied into a folder you
        choose (one your cloud drive syncs is best) and checked after every copy. API keys stay in
        your keychain and are never in a backup; images stay in their gallery folder.
      </p>
      {!status ? (
        statusFailure ? (
          <Notice tone="error" title="The backup status could not be read">
            <p className="failure-message">{statusFailure.message}</p>
          </Notice>
        ) : (
          <p className="muted">
            <Spinner label="Loading" /> Loading…
          </p>
        )
      ) : (
        <>
          <StatusLine status={status} />
          <div className="backup-controls">
            <div className="field backup-folder-field">
              <span className="field-label">Folder</span>
              <div className="backup-folder">
                <span
                  className={status.folder ? 'backup-folder-path' : 'backup-folder-path muted'}
                  title={status.folder}
                >
                  {status.folder ?? 'No folder chosen'}
                </span>
                <button
                  type="button"
                  className="button"
                  onClick={() => void act('The folder was not changed', chooseBackupFolder)}
                >
                  {status.folder ? 'Change folder…' : 'Choose folder…'}
                </button>
              </div>
            </div>
            <div className="field">
              <label className="field-label" htmlFor="backup-schedule">
                Back up
              </label>
              <select
                id="backup-schedule"
                className="select"
                value={status.schedule}
                onChange={(event) =>
                  void act('The schedule was not saved', () =>
                    setBackupSchedule(event.target.value as BackupSchedule),
                  )
                }
              >
                {SCHEDULES.map((schedule) => (
                  <option key={schedule} value={schedule}>
                    {SCHEDULE_LABELS[schedule]}
                  </option>
                ))}
              </select>
            </div>
            <button
              type="button"
              className="button button-primary backup-now"
              disabled={!status.folder || status.running !== undefined}
              onClick={() => void act('The backup was not made', backUpNow)}
            >
              {status.running?.kind === 'backup' ? 'Backing up…' : 'Back up now'}
            </button>
          </div>
          {failure && (
            <Notice tone="error" title={failure.title}>
              <p className="failure-message">{failure.info.message}</p>
            </Notice>
          )}
          <BackupList
            hasFolder={status.folder !== undefined}
            onRestore={(id) => setRestoring({ id })}
            onOpenFile={() => void openFile()}
            onReveal={(id) => void act('The backup could not be shown', () => revealBackup(id))}
          />
        </>
      )}
      <RestoreDialog target={restoring} onClose={() => setRestoring(undefined)} />
    </section>
  );
}

function StatusLine({ status }: { status: BackupStatus }) {
  const now = useNow();
  const mainText = useMainMessageText();
  const problem = status.problem;
  const tone = status.running ? 'running' : status.tone;
  return (
    <div className="backup-status" role="status">
      <p className={`backup-headline backup-headline-${tone}`}>
        <span className="backup-badge-dot" aria-hidden="true" />
        <span>{headline(status, now)}</span>
      </p>
      {status.running ? (
        <p className="muted">
          <Spinner label="Working" /> {stageLabel(status.running)}
        </p>
      ) : status.nextDueAt && status.tone !== 'off' ? (
        <p className="muted">
          {new Date(status.nextDueAt).getTime() <= now
            ? 'Next backup: now'
            : `Next backup: ${dateTime(status.nextDueAt)}`}
        </p>
      ) : null}
      {problem && status.tone === 'warning' && problem.kind !== 'never' && (
        <Notice tone="warning" title={PROBLEM_TITLES[problem.kind]}>
          <p className="failure-message">{mainText(problem)}</p>
        </Notice>
      )}
      {problem && status.tone === 'off' && <p className="muted">{mainText(problem)}</p>}
      {status.lastVerified && status.tone !== 'off' && (
        <p className="muted backup-last">
          {status.lastVerified.name} · {size(status.lastVerified.bytes)} · verified{' '}
          {ago(status.lastVerified.at, now)}
        </p>
      )}
    </div>
  );
}

function BackupList({
  hasFolder,
  onRestore,
  onOpenFile,
  onReveal,
}: {
  hasFolder: boolean;
  onRestore: (id: string) => void;
  onOpenFile: () => void;
  onReveal: (id: string) => void;
}) {
  const backups = useBackupsStore((state) => state.backups);
  const listStatus = useBackupsStore((state) => state.listStatus);
  const listFailure = useBackupsStore((state) => state.listFailure);
  const [all, setAll] = useState(false);
  const shown = all ? backups : backups.slice(0, SHOWN);

  return (
    <div className="backup-list-block">
      <div className="backup-list-header">
        <h3 className="backup-list-title">Restore</h3>
        <button type="button" className="button button-small" onClick={onOpenFile}>
          Restore from a file…
        </button>
      </div>
      {listStatus === 'failed' && (
        <Notice tone="error" title="The backups could not be listed">
          <p className="failure-message">{listFailure?.message}</p>
        </Notice>
      )}
      {hasFolder && listStatus === 'ready' && backups.length === 0 && (
        <p className="muted">No backups in the folder yet.</p>
      )}
      {shown.length > 0 && (
        <ul className="backup-list" aria-label="Backups in the folder">
          {shown.map((backup) => (
            <BackupRow
              key={backup.id}
              backup={backup}
              onRestore={() => onRestore(backup.id)}
              onReveal={() => onReveal(backup.id)}
            />
          ))}
        </ul>
      )}
      {backups.length > SHOWN && (
        <button type="button" className="button button-small" onClick={() => setAll(!all)}>
          {all ? 'Show fewer' : `Show all ${backups.length}`}
        </button>
      )}
    </div>
  );
}

function BackupRow({
  backup,
  onRestore,
  onReveal,
}: {
  backup: BackupEntry;
  onRestore: () => void;
  onReveal: () => void;
}) {
  const when = dateTime(backup.createdAt);
  return (
    <li className="backup-row">
      <div className="backup-row-main">
        <p className="backup-row-title">
          <span className="backup-row-date">{when}</span>
          {backup.state === 'verified' && <Badge tone="success">Verified</Badge>}
          {backup.state === 'unchecked' && <Badge tone="neutral">Not checked</Badge>}
          {backup.state === 'failed' && <Badge tone="warning">Failed its check</Badge>}
          {backup.reason === 'before-restore' && <Badge tone="accent">Before a restore</Badge>}
          {!backup.fromThisComputer && (
            <Badge tone="neutral">From {backup.computerName ?? 'another computer'}</Badge>
          )}
        </p>
        <p className="backup-row-detail muted">
          {backup.counts ? `${countsText(backup.counts)} · ` : ''}
          {size(backup.bytes)}
          {backup.problem ? ` · ${backup.problem}` : ''}
        </p>
      </div>
      <div className="backup-row-actions">
        <button type="button" className="button button-small" onClick={onReveal}>
          Show<span className="visually-hidden"> the backup of {when} in its folder</span>
        </button>
        <button
          type="button"
          className="button button-small"
          onClick={onRestore}
          disabled={backup.state === 'failed'}
        >
          Restore<span className="visually-hidden"> the backup of {when}</span>…
        </button>
      </div>
    </li>
  );
}
