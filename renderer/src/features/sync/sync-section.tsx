import { useEffect, useId, useState, type FormEvent } from 'react';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { FailureNotice } from '../../components/failure-notice';
import { Field } from '../../components/field';
import { Notice } from '../../components/notice';
import { Spinner } from '../../components/spinner';
import { formatDate, formatNumber } from '../../i18n/format';
import { useT, type MessageKey } from '../../i18n/i18n';
import { copyText } from '../../lib/clipboard';
import { failureOf, useMainMessageText, type FailureInfo } from '../../lib/errors';
import {
  chooseSyncFolder,
  joinSync,
  loadKeysNeeded,
  loadSyncHistory,
  saveSyncedKey,
  skipSyncedKey,
  type KeyNeeded,
  loadSyncStatus,
  setSyncPaused,
  startNewSync,
  syncNow,
  testSyncTarget,
  turnOffSync,
  type SyncTargetInput,
  type SyncTest,
} from './sync-actions';
import { useSyncStore, type SyncReport, type SyncStatus } from './sync-store';
import './sync.css';

type Kind = SyncTargetInput['kind'];
const KINDS: Kind[] = ['folder', 'webdav', 's3'];
const KIND_LABELS: Record<Kind, MessageKey> = {
  folder: 'sync.kind.folder',
  webdav: 'sync.kind.webdav',
  s3: 'sync.kind.s3',
};

/** What a sync brought, by kind, in the order a person reads them. */
const APPLIED_KINDS: Array<[string, MessageKey]> = [
  ['conversation', 'sync.count.conversation'],
  ['message', 'sync.count.message'],
  ['prompt', 'sync.count.prompt'],
  ['setting', 'sync.count.setting'],
  ['price', 'sync.count.price'],
  ['connection', 'sync.count.connection'],
  ['knowledge', 'sync.count.knowledge'],
];

function time(iso: string): string {
  return formatDate(iso, { dateStyle: 'medium', timeStyle: 'short' });
}

interface Draft {
  kind: Kind;
  location?: string | undefined;
  url: string;
  username: string;
  password: string;
  endpoint: string;
  region: string;
  bucket: string;
  prefix: string;
  accessKeyId: string;
  secretAccessKey: string;
}

const EMPTY_DRAFT: Draft = {
  kind: 'folder',
  url: '',
  username: '',
  password: '',
  endpoint: '',
  region: '',
  bucket: '',
  prefix: '',
  accessKeyId: '',
  secretAccessKey: '',
};

function targetOf(draft: Draft): SyncTargetInput {
  if (draft.kind === 'folder') return { kind: 'folder' };
  if (draft.kind === 'webdav')
    return {
      kind: 'webdav',
      url: draft.url.trim(),
      username: draft.username.trim(),
      ...(draft.password ? { password: draft.password } : {}),
    };
  return {
    kind: 's3',
    endpoint: draft.endpoint.trim(),
    region: draft.region.trim(),
    bucket: draft.bucket.trim(),
    ...(draft.prefix.trim() ? { prefix: draft.prefix.trim() } : {}),
    accessKeyId: draft.accessKeyId.trim(),
    ...(draft.secretAccessKey ? { secretAccessKey: draft.secretAccessKey } : {}),
  };
}

/**
 * Settings → Sync: the storage (a folder, WebDAV, S3), Test, a new sync with its recovery
 * phrase shown once, joining with the phrase, then the state, Sync now, pause, turn off and the
 * history of what each sync brought.
 */
export function SyncSection() {
  const status = useSyncStore((s) => s.status);
  const statusFailure = useSyncStore((s) => s.statusFailure);
  const [phrase, setPhrase] = useState<string | undefined>();
  const t = useT();

  useEffect(() => {
    void loadSyncStatus();
    void loadSyncHistory();
  }, []);

  return (
    <section className="card settings-section sync-section" aria-labelledby="sync-title" id="sync">
      <h2 className="card-title" id="sync-title">
        {t('sync.title')}
      </h2>
      <p className="card-lead">{t('sync.lead')}</p>
      {phrase !== undefined && (
        <PhraseShownOnce phrase={phrase} onDone={() => setPhrase(undefined)} />
      )}
      {!status ? (
        statusFailure ? (
          <FailureNotice title={t('sync.statusUnreadable')} failure={statusFailure} />
        ) : (
          <p className="muted">
            <Spinner label={t('sync.loading')} /> {t('sync.loading')}
          </p>
        )
      ) : status.state === 'off' ? (
        <SetUp onPhrase={setPhrase} />
      ) : (
        <Running status={status} />
      )}
    </section>
  );
}

/** The recovery phrase, this once: the words in order, Copy, and "I have kept it". */
function PhraseShownOnce({ phrase, onDone }: { phrase: string; onDone: () => void }) {
  const t = useT();
  const [copied, setCopied] = useState(false);
  const [failure, setFailure] = useState<FailureInfo | undefined>();
  const words = phrase.split(' ');
  return (
    <div className="sync-phrase" role="region" aria-labelledby="sync-phrase-title">
      <h3 className="sync-subtitle" id="sync-phrase-title">
        {t('sync.phrase.title')}
      </h3>
      <p>{t('sync.phrase.lead')}</p>
      <ol className="sync-phrase-words" data-testid="sync-phrase">
        {words.map((word, index) => (
          <li key={index} className="sync-phrase-word">
            {word}
          </li>
        ))}
      </ol>
      <p className="muted">{t('sync.phrase.once')}</p>
      <div className="form-actions">
        <button
          type="button"
          className="button"
          onClick={() => {
            setFailure(undefined);
            copyText(phrase).then(
              () => setCopied(true),
              (error: unknown) => setFailure(failureOf(error)),
            );
          }}
        >
          {copied ? t('sync.phrase.copied') : t('sync.phrase.copy')}
        </button>
        <button type="button" className="button button-primary" onClick={onDone}>
          {t('sync.phrase.done')}
        </button>
      </div>
      {failure && <FailureNotice title={t('sync.phrase.notCopied')} failure={failure} />}
    </div>
  );
}

function SetUp({ onPhrase }: { onPhrase: (phrase: string) => void }) {
  const t = useT();
  const mainText = useMainMessageText();
  const [draft, setDraft] = useState<Draft>(EMPTY_DRAFT);
  const [busy, setBusy] = useState<'test' | 'new' | 'join' | 'folder' | undefined>();
  const [tested, setTested] = useState<SyncTest | undefined>();
  const [failure, setFailure] = useState<{ title: MessageKey; info: FailureInfo } | undefined>();
  const [joinPhrase, setJoinPhrase] = useState('');
  const phraseId = useId();
  const kindName = useId();

  const change = (changes: Partial<Draft>) => {
    setDraft((d) => ({ ...d, ...changes }));
    setTested(undefined);
  };

  async function run<T>(
    which: NonNullable<typeof busy>,
    title: MessageKey,
    work: () => Promise<T>,
  ): Promise<T | undefined> {
    setBusy(which);
    setFailure(undefined);
    try {
      return await work();
    } catch (error) {
      setFailure({ title, info: failureOf(error) });
      return undefined;
    } finally {
      setBusy(undefined);
    }
  }

  const chooseFolder = () =>
    void run('folder', 'sync.folder.notChosen', async () => {
      const chosen = await chooseSyncFolder();
      if (!chosen.cancelled) change({ location: chosen.location });
    });

  const test = () =>
    void run('test', 'sync.test.failed', async () =>
      setTested(await testSyncTarget(targetOf(draft))),
    );

  const startNew = () =>
    void run('new', 'sync.new.failed', async () => onPhrase(await startNewSync(targetOf(draft))));

  function join(event: FormEvent) {
    event.preventDefault();
    void run('join', 'sync.join.failed', async () => {
      await joinSync(targetOf(draft), joinPhrase);
      setJoinPhrase('');
    });
  }

  const needsFolder = draft.kind === 'folder' && draft.location === undefined;
  const disabled = busy !== undefined || needsFolder;

  return (
    <div className="sync-setup">
      <fieldset className="sync-kinds">
        <legend className="field-label">{t('sync.where')}</legend>
        {KINDS.map((kind) => (
          <label key={kind} className="checkbox-field">
            <input
              type="radio"
              name={kindName}
              checked={draft.kind === kind}
              onChange={() => change({ kind })}
            />
            <span>{t(KIND_LABELS[kind])}</span>
          </label>
        ))}
      </fieldset>
      {draft.kind === 'folder' && (
        <div className="field">
          <span className="field-label">{t('sync.folder')}</span>
          <div className="sync-folder">
            <span
              className={draft.location ? 'sync-folder-path' : 'sync-folder-path muted'}
              title={draft.location}
            >
              {draft.location ?? t('sync.folder.none')}
            </span>
            <button
              type="button"
              className="button"
              disabled={busy !== undefined}
              onClick={chooseFolder}
            >
              {t('sync.folder.choose')}
            </button>
          </div>
          <p className="field-hint">{t('sync.folder.hint')}</p>
        </div>
      )}
      {draft.kind === 'webdav' && (
        <div className="sync-fields">
          <Field
            label={t('sync.webdav.url')}
            type="url"
            value={draft.url}
            placeholder={t('sync.webdav.urlExample')}
            onChange={(e) => change({ url: e.target.value })}
          />
          <Field
            label={t('sync.webdav.username')}
            value={draft.username}
            autoComplete="username"
            onChange={(e) => change({ username: e.target.value })}
          />
          <Field
            label={t('sync.webdav.password')}
            type="password"
            value={draft.password}
            autoComplete="current-password"
            hint={t('sync.secret.hint')}
            onChange={(e) => change({ password: e.target.value })}
          />
        </div>
      )}
      {draft.kind === 's3' && (
        <div className="sync-fields">
          <Field
            label={t('sync.s3.endpoint')}
            type="url"
            value={draft.endpoint}
            placeholder={t('sync.s3.endpointExample')}
            onChange={(e) => change({ endpoint: e.target.value })}
          />
          <Field
            label={t('sync.s3.region')}
            value={draft.region}
            placeholder={t('sync.s3.regionExample')}
            onChange={(e) => change({ region: e.target.value })}
          />
          <Field
            label={t('sync.s3.bucket')}
            value={draft.bucket}
            onChange={(e) => change({ bucket: e.target.value })}
          />
          <Field
            label={t('sync.s3.prefix')}
            value={draft.prefix}
            hint={t('sync.s3.prefixHint')}
            onChange={(e) => change({ prefix: e.target.value })}
          />
          <Field
            label={t('sync.s3.accessKeyId')}
            value={draft.accessKeyId}
            onChange={(e) => change({ accessKeyId: e.target.value })}
          />
          <Field
            label={t('sync.s3.secretAccessKey')}
            type="password"
            value={draft.secretAccessKey}
            hint={t('sync.secret.hint')}
            onChange={(e) => change({ secretAccessKey: e.target.value })}
          />
        </div>
      )}
      <div className="form-actions">
        <button type="button" className="button" disabled={disabled} onClick={test}>
          {busy === 'test' ? t('sync.testing') : t('sync.test')}
        </button>
        <span className="form-actions-spacer" />
        <button
          type="button"
          className="button button-primary"
          disabled={disabled}
          onClick={startNew}
        >
          {busy === 'new' ? t('sync.new.running') : t('sync.new')}
        </button>
      </div>
      <div aria-live="polite">
        {tested?.ok === true && (
          <Notice tone="success" title={t('sync.test.ok')}>
            <p>{t('sync.test.okBody')}</p>
          </Notice>
        )}
        {tested?.ok === false && (
          <Notice tone="error" title={t('sync.test.failed')}>
            <p className="failure-message" data-source="main">
              {mainText(tested)}
            </p>
          </Notice>
        )}
      </div>
      <form className="sync-join" onSubmit={join}>
        <h3 className="sync-subtitle">{t('sync.join.title')}</h3>
        <label className="field-label" htmlFor={phraseId}>
          {t('sync.join.phrase')}
        </label>
        <textarea
          id={phraseId}
          className="input sync-join-phrase"
          rows={2}
          value={joinPhrase}
          spellCheck={false}
          autoComplete="off"
          onChange={(e) => setJoinPhrase(e.target.value)}
        />
        <p className="field-hint">{t('sync.join.hint')}</p>
        <div className="form-actions">
          <span className="form-actions-spacer" />
          <button type="submit" className="button" disabled={disabled || joinPhrase.trim() === ''}>
            {busy === 'join' ? t('sync.join.running') : t('sync.join')}
          </button>
        </div>
      </form>
      <div aria-live="assertive">
        {failure && <FailureNotice title={t(failure.title)} failure={failure.info} />}
      </div>
    </div>
  );
}

function stateText(status: SyncStatus, t: ReturnType<typeof useT>): string {
  switch (status.state) {
    case 'syncing':
      return status.pendingChanges > 0
        ? t('sync.state.syncingCount', { count: status.pendingChanges })
        : t('sync.state.syncing');
    case 'offline':
      return t('sync.state.offline');
    case 'attention':
      return t('sync.state.attention');
    case 'paused':
      return t('sync.state.paused');
    default:
      return status.pendingChanges > 0
        ? t('sync.state.waiting', { count: status.pendingChanges })
        : status.lastSyncAt
          ? t('sync.state.synced')
          : t('sync.state.notYet');
  }
}

function TargetLine({ status }: { status: SyncStatus }) {
  const t = useT();
  const target = status.target;
  if (!target) return null;
  const text =
    target.kind === 'folder'
      ? t('sync.target.folder', { location: target.location })
      : target.kind === 'webdav'
        ? t('sync.target.webdav', { url: target.url, username: target.username })
        : t('sync.target.s3', { bucket: target.bucket, endpoint: target.endpoint });
  return <p className="sync-target muted">{text}</p>;
}

function Running({ status }: { status: SyncStatus }) {
  const t = useT();
  const mainText = useMainMessageText();
  const syncing = useSyncStore((s) => s.syncing);
  const history = useSyncStore((s) => s.history);
  const [failure, setFailure] = useState<{ title: MessageKey; info: FailureInfo } | undefined>();
  const [confirmingOff, setConfirmingOff] = useState(false);
  const [turningOff, setTurningOff] = useState(false);

  async function act(title: MessageKey, work: () => Promise<unknown>) {
    setFailure(undefined);
    try {
      await work();
    } catch (error) {
      setFailure({ title, info: failureOf(error) });
    }
  }

  async function turnOff() {
    setTurningOff(true);
    await act('sync.off.failed', turnOffSync);
    setTurningOff(false);
    setConfirmingOff(false);
  }

  const progress = status.progress;
  const busy = syncing || status.state === 'syncing';
  return (
    <>
      <div className="sync-status" aria-live="polite">
        <p className={`sync-headline sync-headline-${status.state}`}>
          <span className="sync-dot" aria-hidden="true" />
          <span data-testid="sync-state">{stateText(status, t)}</span>
        </p>
        <p className="muted">
          {status.lastSyncAt
            ? t('sync.lastSync', { time: time(status.lastSyncAt) })
            : t('sync.neverSynced')}
          {status.devices > 0 && ` · ${t('sync.devices', { count: status.devices })}`}
        </p>
        {progress && progress.total > 0 && (
          <div className="sync-progress">
            <p>
              {t(status.firstSyncDone ? 'sync.progress' : 'sync.progress.first', {
                done: formatNumber(progress.done),
                total: formatNumber(progress.total),
              })}
            </p>
            <progress
              max={progress.total}
              value={progress.done}
              aria-label={t('sync.progress.label')}
            />
          </div>
        )}
      </div>
      <TargetLine status={status} />
      {status.problem && (
        <Notice
          tone={status.state === 'offline' ? 'warning' : 'error'}
          title={status.state === 'offline' ? t('sync.state.offline') : t('sync.state.attention')}
        >
          <p className="failure-message" data-source="main">
            {mainText(status.problem)}
          </p>
          {status.retryAt && (
            <p className="muted">{t('sync.retryAt', { time: time(status.retryAt) })}</p>
          )}
        </Notice>
      )}
      <div className="form-actions">
        <button
          type="button"
          className="button button-primary"
          disabled={busy || status.state === 'paused'}
          onClick={() => void act('sync.now.failed', syncNow)}
        >
          {busy ? t('sync.now.running') : t('sync.now')}
        </button>
        <button
          type="button"
          className="button"
          onClick={() =>
            void act('sync.pause.failed', () => setSyncPaused(status.state !== 'paused'))
          }
        >
          {status.state === 'paused' ? t('sync.resume') : t('sync.pause')}
        </button>
        <span className="form-actions-spacer" />
        <button
          type="button"
          className="button button-danger"
          onClick={() => setConfirmingOff(true)}
        >
          {t('sync.off')}
        </button>
      </div>
      <ConfirmDialog
        open={confirmingOff}
        title={t('sync.off.title')}
        confirmLabel={t('sync.off.confirm')}
        danger
        busy={turningOff}
        onCancel={() => setConfirmingOff(false)}
        onConfirm={() => void turnOff()}
      >
        <p>{t('sync.off.body.stops')}</p>
        <p>{t('sync.off.body.keeps')}</p>
        <p>{t('sync.off.body.again')}</p>
      </ConfirmDialog>
      {failure && <FailureNotice title={t(failure.title)} failure={failure.info} />}
      <KeysNeeded lastSyncAt={status.lastSyncAt} />
      <p className="sync-knowledge muted">{t('sync.knowledge.vectors')}</p>
      <History reports={history} />
    </>
  );
}

/**
 * Connections another computer synced here without their key (keys never sync): each key is
 * asked for once, by the connection's name; "Not now" does not ask again.
 */
function KeysNeeded({ lastSyncAt }: { lastSyncAt: string | null }) {
  const t = useT();
  const [needed, setNeeded] = useState<KeyNeeded[]>([]);
  const [failure, setFailure] = useState<FailureInfo | undefined>();
  useEffect(() => {
    let live = true;
    loadKeysNeeded().then(
      (list) => live && setNeeded(list),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [lastSyncAt]);
  if (needed.length === 0) return null;
  const done = (id: string) => setNeeded((list) => list.filter((k) => k.id !== id));
  return (
    <Notice tone="warning" title={t('sync.keys.title')}>
      <p>{t('sync.keys.body')}</p>
      <ul className="sync-keys">
        {needed.map((item) => (
          <KeyRow key={item.id} item={item} onDone={done} onFailure={setFailure} />
        ))}
      </ul>
      {failure && <FailureNotice title={t('sync.keys.failed')} failure={failure} />}
    </Notice>
  );
}

function KeyRow({
  item,
  onDone,
  onFailure,
}: {
  item: KeyNeeded;
  onDone: (id: string) => void;
  onFailure: (failure: FailureInfo | undefined) => void;
}) {
  const t = useT();
  const [key, setKey] = useState('');
  const [saving, setSaving] = useState(false);
  async function run(work: () => Promise<void>) {
    onFailure(undefined);
    setSaving(true);
    try {
      await work();
      onDone(item.id);
    } catch (error) {
      onFailure(failureOf(error));
    } finally {
      setSaving(false);
    }
  }
  function submit(event: FormEvent) {
    event.preventDefault();
    if (key.trim() !== '') void run(() => saveSyncedKey(item.id, key.trim()));
  }
  return (
    <li>
      <form className="sync-key-form" onSubmit={submit}>
        {item.key && (
          <Field
            label={t('sync.keys.label', { name: item.name })}
            type="password"
            autoComplete="off"
            spellCheck={false}
            value={key}
            onChange={(event) => setKey(event.target.value)}
          />
        )}
        {item.headers.length > 0 && (
          <p className="muted">
            {t('sync.keys.headers', { name: item.name, names: item.headers.join(', ') })}
          </p>
        )}
        <div className="form-actions">
          {item.key && (
            <button
              type="submit"
              className="button button-primary"
              disabled={saving || key.trim() === ''}
            >
              {t('sync.keys.save')}
            </button>
          )}
          <button
            type="button"
            className="button"
            disabled={saving}
            onClick={() => void run(() => skipSyncedKey(item.id))}
          >
            {t('sync.keys.later')}
          </button>
        </div>
      </form>
    </li>
  );
}

function reportText(report: SyncReport, t: ReturnType<typeof useT>): string {
  const brought = APPLIED_KINDS.filter(([kind]) => (report.applied[kind] ?? 0) > 0).map(
    ([kind, key]) => t(key, { count: report.applied[kind] ?? 0 }),
  );
  const sent = Object.values(report.sent).reduce((sum, n) => sum + n, 0);
  const parts = [
    brought.length > 0 ? t('sync.history.brought', { what: brought.join(', ') }) : '',
    sent > 0 ? t('sync.history.sent', { count: sent }) : '',
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(' · ') : t('sync.history.nothing');
}

function History({ reports }: { reports: SyncReport[] }) {
  const t = useT();
  const mainText = useMainMessageText();
  return (
    <div className="sync-history">
      <h3 className="sync-subtitle" id="sync-history-title">
        {t('sync.history.title')}
      </h3>
      {reports.length === 0 ? (
        <p className="muted">{t('sync.history.none')}</p>
      ) : (
        <ul className="sync-history-list" aria-labelledby="sync-history-title">
          {reports.map((report) => (
            <li key={report.at} className="sync-history-entry">
              <span className="sync-history-time">{time(report.at)}</span>
              <span className={report.ok ? '' : 'sync-history-failed'}>
                {report.ok
                  ? reportText(report, t)
                  : report.problem
                    ? mainText(report.problem)
                    : t('sync.history.failed')}
              </span>
              {report.refused.length > 0 && (
                <span className="muted">
                  {t('sync.history.refused', { count: report.refused.length })}
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
