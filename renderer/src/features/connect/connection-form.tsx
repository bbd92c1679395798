import { useId, useRef, useState, type FormEvent } from 'react';
import { FailureNotice } from '../../components/failure-notice';
import { Field } from '../../components/field';
import { Spinner } from '../../components/spinner';
import { useT, type MessageKey } from '../../i18n/i18n';
import { failureOf, failureTitle, type FailureInfo } from '../../lib/errors';
import type { ConnectionSummary, ConnectionTestResult } from '../../lib/relay-bridge';
import { createConnection, testConnection, updateConnection } from './connect-actions';
import { selectKeyBackend, useConnectStore } from './connect-store';
import { HeaderFields, headerDrafts, headerRowsOf, type HeaderRow } from './header-fields';
import { keyStatusText } from './key-status';
import { TestResult } from './test-result';

export interface ConnectionFormProps {
  /** The saved connection being edited; absent for a new one. */
  connection?: ConnectionSummary;
  onSaved?: (connection: ConnectionSummary) => void;
  onCancel?: () => void;
  /** Focuses the first field when the form appears. */
  autoFocus?: boolean;
  /** Values to start a new connection with (a `relay-desktop://connect` link). */
  prefill?: { name: string; baseUrl: string; consoleUrl?: string | undefined } | undefined;
}

/** What is wrong with a field, as a message key: shown in the language of the moment. */
interface FieldErrors {
  name?: MessageKey;
  baseUrl?: MessageKey;
}

/** The origin (scheme, host, port) of an address as typed, or undefined while it does not parse. */
function originOf(address: string): string | undefined {
  try {
    return new URL(address.trim()).origin;
  } catch {
    return undefined;
  }
}

/**
 * Creates or edits a connection: name, address, key and console address, with "Test connection".
 *
 * The key field is uncontrolled: the key stays in the input (never in state), is read when the
 * person tests or saves, and the field is emptied once it is saved.
 */
export function ConnectionForm({
  connection,
  onSaved,
  onCancel,
  autoFocus,
  prefill,
}: ConnectionFormProps) {
  const editing = connection !== undefined;
  const backend = useConnectStore(selectKeyBackend);
  const formId = useId();
  const keyInput = useRef<HTMLInputElement>(null);
  const [name, setName] = useState(connection?.name ?? prefill?.name ?? '');
  const [baseUrl, setBaseUrl] = useState(connection?.baseUrl ?? prefill?.baseUrl ?? '');
  const [consoleUrl, setConsoleUrl] = useState(connection?.consoleUrl ?? prefill?.consoleUrl ?? '');
  const [headers, setHeaders] = useState<HeaderRow[]>(() => headerRowsOf(connection?.headers));
  const [allowUnencrypted, setAllowUnencrypted] = useState(connection?.allowUnencrypted ?? false);
  const plainHttp = /^\s*http:\/\//i.test(baseUrl);
  const savedOrigin = connection ? originOf(connection.baseUrl) : undefined;
  const typedOrigin = originOf(baseUrl);
  // Main removes the saved key when the address moves to another origin without a new key.
  const moving =
    connection !== undefined && typedOrigin !== undefined && typedOrigin !== savedOrigin;
  const keyWillGo = moving && connection.hasKey === true;
  const secretHeadersWillGo = moving && headers.some((row) => row.saved);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState<'testing' | 'saving' | undefined>();
  const [testResult, setTestResult] = useState<ConnectionTestResult | undefined>();
  const [saveFailure, setSaveFailure] = useState<FailureInfo | undefined>();
  const t = useT();

  function check(requireName: boolean): boolean {
    const next: FieldErrors = {};
    if (requireName && name.trim() === '') next.name = 'connect.form.name.missing';
    if (baseUrl.trim() === '') next.baseUrl = 'connect.form.baseUrl.missing';
    setErrors(next);
    return Object.keys(next).length === 0;
  }

  async function runTest() {
    if (!check(false)) return;
    setBusy('testing');
    setTestResult(undefined);
    setSaveFailure(undefined);
    try {
      const key = keyInput.current?.value.trim() ?? '';
      setTestResult(
        await testConnection({
          baseUrl,
          ...(key ? { apiKey: key } : {}),
          ...(connection ? { id: connection.id } : {}),
          ...(plainHttp && allowUnencrypted ? { allowUnencrypted: true } : {}),
          headers: headerDrafts(headers),
        }),
      );
    } catch (error) {
      const failure = failureOf(error);
      setTestResult({ ok: false, error: failure });
    } finally {
      setBusy(undefined);
    }
  }

  async function save(event: FormEvent) {
    event.preventDefault();
    if (!check(true)) return;
    const field = keyInput.current;
    const apiKey = field?.value.trim() ?? '';
    setBusy('saving');
    setSaveFailure(undefined);
    try {
      const draft = {
        name,
        baseUrl,
        consoleUrl,
        apiKey,
        allowUnencrypted: plainHttp && allowUnencrypted,
        headers: headerDrafts(headers),
      };
      const saved = connection
        ? await updateConnection(connection.id, draft)
        : await createConnection(draft);
      if (field) field.value = '';
      setHeaders(headerRowsOf(saved.headers));
      setTestResult(undefined);
      onSaved?.(saved);
    } catch (error) {
      setSaveFailure(failureOf(error));
    } finally {
      setBusy(undefined);
    }
  }

  return (
    <form
      className="connection-form"
      onSubmit={save}
      noValidate
      aria-label={
        editing
          ? t('connect.card.editName', { name: connection.name })
          : t('connect.connections.new')
      }
    >
      <Field
        label={t('connect.form.name')}
        name="name"
        value={name}
        onChange={(event) => setName(event.target.value)}
        placeholder={t('connect.form.name.placeholder')}
        autoComplete="off"
        autoFocus={autoFocus}
        error={errors.name && t(errors.name)}
      />
      <Field
        label={t('connect.form.baseUrl')}
        name="baseUrl"
        type="url"
        value={baseUrl}
        onChange={(event) => setBaseUrl(event.target.value)}
        placeholder="https://relay.example.com"
        autoComplete="off"
        spellCheck={false}
        error={errors.baseUrl && t(errors.baseUrl)}
        hint={t('connect.form.baseUrl.hint')}
      />
      {plainHttp && (
        <label className="checkbox-field">
          <input
            type="checkbox"
            name="allowUnencrypted"
            checked={allowUnencrypted}
            onChange={(event) => setAllowUnencrypted(event.target.checked)}
          />
          <span>{t('connect.form.unencrypted')}</span>
        </label>
      )}
      <div className="field">
        <label className="field-label" htmlFor={`${formId}-key`}>
          {editing ? t('connect.form.key.replace') : t('connect.form.key')}
        </label>
        <input
          ref={keyInput}
          id={`${formId}-key`}
          className="input"
          type="password"
          name="apiKey"
          autoComplete="off"
          spellCheck={false}
          placeholder={
            editing ? t('connect.form.key.keepPlaceholder') : t('connect.form.key.placeholder')
          }
          aria-describedby={`${formId}-key-hint`}
        />
        <p className="field-hint" id={`${formId}-key-hint`}>
          {editing
            ? t('connect.form.key.replaceHint', { status: keyStatusText(connection) })
            : t('connect.form.key.newHint', { place: backend })}
        </p>
        {keyWillGo && (
          <p className="field-hint field-warning" role="status">
            {t('connect.form.key.willGo', { saved: savedOrigin ?? '', typed: typedOrigin ?? '' })}
          </p>
        )}
      </div>
      <Field
        label={t('connect.form.console')}
        name="consoleUrl"
        type="url"
        value={consoleUrl}
        onChange={(event) => setConsoleUrl(event.target.value)}
        placeholder="https://console.relay.example.com"
        autoComplete="off"
        spellCheck={false}
        hint={t('connect.form.console.hint')}
      />
      <HeaderFields rows={headers} onChange={setHeaders} />
      {secretHeadersWillGo && (
        <p className="field-hint field-warning" role="status">
          {t('connect.form.headers.willGo', { saved: savedOrigin ?? '', typed: typedOrigin ?? '' })}
        </p>
      )}

      {testResult && <TestResult result={testResult} />}
      {saveFailure && <FailureNotice title={failureTitle(saveFailure)} failure={saveFailure} />}

      <div className="form-actions">
        <button
          type="button"
          className="button"
          onClick={() => void runTest()}
          disabled={busy !== undefined}
        >
          {busy === 'testing' ? <Spinner label={t('connect.form.testing')} /> : null}
          {t('connect.form.test')}
        </button>
        <span className="form-actions-spacer" />
        {onCancel && (
          <button type="button" className="button" onClick={onCancel} disabled={busy === 'saving'}>
            {t('common.cancel')}
          </button>
        )}
        <button type="submit" className="button button-primary" disabled={busy !== undefined}>
          {busy === 'saving'
            ? t('common.saving')
            : editing
              ? t('connect.form.saveChanges')
              : t('connect.form.save')}
        </button>
      </div>
    </form>
  );
}
