import { useEffect, useState } from 'react';
import { Badge } from '../../components/badge';
import { FailureNotice } from '../../components/failure-notice';
import { Notice } from '../../components/notice';
import { Spinner } from '../../components/spinner';
import { formatNumber } from '../../i18n/format';
import { Message, useT, type MessageKey } from '../../i18n/i18n';
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

const PROBLEM_TITLES: Record<NonNullable<BackupStatus['problem']>['kind'], MessageKey> = {
  no_folder: 'backups.problem.no_folder',
  missing: 'backups.problem.missing',
  not_writable: 'backups.problem.not_writable',
  full: 'backups.problem.full',
  failed: 'backups.problem.failed',
  never: 'backups.problem.never',
  overdue: 'backups.problem.overdue',
};

/** Settings → Backups: the folder, the schedule, the status, and the backups to restore. */
export function BackupsSection() {
  const status = useBackupsStore((state) => state.status);
  const statusFailure = useBackupsStore((state) => state.statusFailure);
  const [failure, setFailure] = useState<{ title: MessageKey; info: FailureInfo } | undefined>();
  const [restoring, setRestoring] = useState<RestoreTarget | undefined>();
  const t = useT();

  // Looked at afresh each time the section opens: a folder may have gone since the last event.
  useEffect(() => {
    void loadBackupStatus();
    void loadBackups();
  }, []);

  async function act(title: MessageKey, work: () => Promise<unknown>) {
    setFailure(undefined);
    try {
      await work();
    } catch (error) {
      setFailure({ title, info: failureOf(error) });
    }
  }

  const reveal = (id: string) => void act('backups.notShown', () => revealBackup(id));

  async function openFile() {
    setFailure(undefined);
    try {
      const preview = await openBackupFile();
      if (preview) setRestoring({ preview });
    } catch (error) {
      setFailure({ title: 'backups.fileNotOpened', info: failureOf(error) });
    }
  }

  return (
    <section
      className="card settings-section backups-section"
      aria-labelledby="backups-title"
      id="backups"
    >
      <h2 className="card-title" id="backups-title">
        {t('backups.title')}
      </h2>
      <p className="card-lead">{t('backups.lead')}</p>
      {!status ? (
        statusFailure ? (
          <FailureNotice title={t('backups.statusUnreadable')} failure={statusFailure} />
        ) : (
          <p className="muted">
            <Spinner label={t('backups.loading')} /> {t('backups.loadingText')}
          </p>
        )
      ) : (
        <>
          <StatusLine status={status} />
          <div className="backup-controls">
            <div className="field backup-folder-field">
              <span className="field-label">{t('backups.folder')}</span>
              <div className="backup-folder">
                <span
                  className={status.folder ? 'backup-folder-path' : 'backup-folder-path muted'}
                  title={status.folder}
                >
                  {status.folder ?? t('backups.folder.none')}
                </span>
                <button
                  type="button"
                  className="button"
                  onClick={() => void act('backups.folder.notChanged', chooseBackupFolder)}
                >
                  {status.folder ? t('backups.folder.change') : t('backups.folder.choose')}
                </button>
              </div>
            </div>
            <div className="field">
              <label className="field-label" htmlFor="backup-schedule">
                {t('backups.schedule')}
              </label>
              <select
                id="backup-schedule"
                className="select"
                value={status.schedule}
                onChange={(event) =>
                  void act('backups.schedule.notSaved', () =>
                    setBackupSchedule(event.target.value as BackupSchedule),
                  )
                }
              >
                {SCHEDULES.map((schedule) => (
                  <option key={schedule} value={schedule}>
                    {t(SCHEDULE_LABELS[schedule])}
                  </option>
                ))}
              </select>
            </div>
            <button
              type="button"
              className="button button-primary backup-now"
              disabled={!status.folder || status.running !== undefined}
              onClick={() => void act('backups.notMade', backUpNow)}
            >
              {status.running?.kind === 'backup' ? t('backups.backingUp') : t('backups.now')}
            </button>
          </div>
          {failure && <FailureNotice title={t(failure.title)} failure={failure.info} />}
          <BackupList
            hasFolder={status.folder !== undefined}
            onRestore={(id) => setRestoring({ id })}
            onOpenFile={() => void openFile()}
            onReveal={reveal}
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
  const t = useT();
  return (
    <div className="backup-status" role="status">
      <p className={`backup-headline backup-headline-${tone}`}>
        <span className="backup-badge-dot" aria-hidden="true" />
        <span>{headline(status, now)}</span>
      </p>
      {status.running ? (
        <p className="muted">
          <Spinner label={t('backups.working')} /> {stageLabel(status.running)}
        </p>
      ) : status.nextDueAt && status.tone !== 'off' ? (
        <p className="muted">
          {new Date(status.nextDueAt).getTime() <= now
            ? t('backups.next.now')
            : t('backups.next', { time: dateTime(status.nextDueAt) })}
        </p>
      ) : null}
      {problem && status.tone === 'warning' && problem.kind !== 'never' && (
        <Notice tone="warning" title={t(PROBLEM_TITLES[problem.kind])}>
          <p className="failure-message" data-source="main">
            {mainText(problem)}
          </p>
        </Notice>
      )}
      {problem && status.tone === 'off' && (
        <p className="muted" data-source="main">
          {mainText(problem)}
        </p>
      )}
      {status.lastVerified && status.tone !== 'off' && (
        <p className="muted backup-last">
          {t('backups.lastVerified', {
            name: status.lastVerified.name,
            size: size(status.lastVerified.bytes),
            ago: ago(status.lastVerified.at, now),
          })}
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
  const t = useT();

  return (
    <div className="backup-list-block">
      <div className="backup-list-header">
        <h3 className="backup-list-title">{t('backups.restore')}</h3>
        <button type="button" className="button button-small" onClick={onOpenFile}>
          {t('backups.restoreFromFile')}
        </button>
      </div>
      {listStatus === 'failed' && (
        <Notice tone="error" title={t('backups.listFailed')}>
          <p className="failure-message" data-source="main">
            {listFailure?.message}
          </p>
        </Notice>
      )}
      {hasFolder && listStatus === 'ready' && backups.length === 0 && (
        <p className="muted">{t('backups.emptyFolder')}</p>
      )}
      {shown.length > 0 && (
        <ul className="backup-list" aria-label={t('backups.list')}>
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
          {all
            ? t('backups.showFewer')
            : t('backups.showAll', { count: formatNumber(backups.length) })}
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
  const t = useT();
  return (
    <li className="backup-row">
      <div className="backup-row-main">
        <p className="backup-row-title">
          <span className="backup-row-date">{when}</span>
          {backup.state === 'verified' && (
            <Badge tone="success">{t('backups.state.verified')}</Badge>
          )}
          {backup.state === 'unchecked' && (
            <Badge tone="neutral">{t('backups.state.unchecked')}</Badge>
          )}
          {backup.state === 'failed' && <Badge tone="warning">{t('backups.state.failed')}</Badge>}
          {backup.reason === 'before-restore' && (
            <Badge tone="accent">{t('backups.beforeRestore')}</Badge>
          )}
          {!backup.fromThisComputer && (
            <Badge tone="neutral">
              {backup.computerName
                ? t('backups.fromComputer', { computer: backup.computerName })
                : t('backups.fromAnotherComputer')}
            </Badge>
          )}
        </p>
        <p className="backup-row-detail muted">
          {backup.counts ? `${countsText(backup.counts)} · ` : ''}
          {size(backup.bytes)}
          {backup.problem ? ' · ' : ''}
          {backup.problem && <span data-source="main">{backup.problem}</span>}
        </p>
      </div>
      <div className="backup-row-actions">
        <button type="button" className="button button-small" onClick={onReveal}>
          <Message
            id="backups.row.show"
            values={{ when }}
            components={{ 0: <span className="visually-hidden" /> }}
          />
        </button>
        <button
          type="button"
          className="button button-small"
          onClick={onRestore}
          disabled={backup.state === 'failed'}
        >
          <Message
            id="backups.row.restore"
            values={{ when }}
            components={{ 0: <span className="visually-hidden" /> }}
          />
        </button>
      </div>
    </li>
  );
}
