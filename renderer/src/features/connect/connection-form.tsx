import { useId, useRef, useState, type FormEvent } from 'react';
import { Field } from '../../components/field';
import { Notice } from '../../components/notice';
import { Spinner } from '../../components/spinner';
import { failureOf, failureTitle, type FailureInfo } from '../../lib/errors';
import type { ConnectionSummary, ConnectionTestResult } from '../../lib/relay-bridge';
import { createConnection, testConnection, updateConnection } from './connect-actions';
import { selectKeyBackend, useConnectStore } from './connect-store';
import { HeaderFields, headerDrafts, headerRowsOf, type HeaderRow } from './header-fields';
import { KEY_PLACE, keyStatusText } from './key-status';
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

interface FieldErrors {
  name?: string;
  baseUrl?: string;
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

  function check(requireName: boolean): boolean {
    const next: FieldErrors = {};
    if (requireName && name.trim() === '') next.name = 'Give the connection a name.';
    if (baseUrl.trim() === '')
      next.baseUrl = 'Give the address of the relay, such as https://relay.example.com';
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
      aria-label={editing ? `Edit ${connection.name}` : 'New connection'}
    >
      <Field
        label="Name"
        name="name"
        value={name}
        onChange={(event) => setName(event.target.value)}
        placeholder="My relay"
        autoComplete="off"
        autoFocus={autoFocus}
        error={errors.name}
      />
      <Field
        label="Base address"
        name="baseUrl"
        type="url"
        value={baseUrl}
        onChange={(event) => setBaseUrl(event.target.value)}
        placeholder="https://relay.example.com"
        autoComplete="off"
        spellCheck={false}
        error={errors.baseUrl}
        hint="The relay's address, with or without /v1."
      />
      {plainHttp && (
        <label className="checkbox-field">
          <input
            type="checkbox"
            name="allowUnencrypted"
            checked={allowUnencrypted}
            onChange={(event) => setAllowUnencrypted(event.target.checked)}
          />
          <span>
            Send my key unencrypted. This address uses plain http: outside this computer and your
            local network, the key would cross the network readable by anyone on the way. You will
            be asked to confirm.
          </span>
        </label>
      )}
      <div className="field">
        <label className="field-label" htmlFor={`${formId}-key`}>
          {editing ? 'Replace API key' : 'API key'}
        </label>
        <input
          ref={keyInput}
          id={`${formId}-key`}
          className="input"
          type="password"
          name="apiKey"
          autoComplete="off"
          spellCheck={false}
          placeholder={editing ? 'Leave empty to keep the saved key' : 'sk-…'}
          aria-describedby={`${formId}-key-hint`}
        />
        <p className="field-hint" id={`${formId}-key-hint`}>
          {editing
            ? `${keyStatusText(connection)}. A key typed here replaces it.`
            : `Kept ${KEY_PLACE[backend].kept}, and never shown again.`}
        </p>
        {keyWillGo && (
          <p className="field-hint field-warning" role="status">
            The saved key was given for {savedOrigin}. It is never sent to another address, so
            saving with {typedOrigin} removes it: paste the key for the new address.
          </p>
        )}
      </div>
      <Field
        label="Console address (optional)"
        name="consoleUrl"
        type="url"
        value={consoleUrl}
        onChange={(event) => setConsoleUrl(event.target.value)}
        placeholder="https://console.relay.example.com"
        autoComplete="off"
        spellCheck={false}
        hint="Where you manage your account and top up your balance."
      />
      <HeaderFields rows={headers} onChange={setHeaders} />
      {secretHeadersWillGo && (
        <p className="field-hint field-warning" role="status">
          Secret header values were given for {savedOrigin}, like the key: saving with {typedOrigin}{' '}
          removes them, so type them again for the new address.
        </p>
      )}

      {testResult && <TestResult result={testResult} />}
      {saveFailure && (
        <Notice tone="error" title={failureTitle(saveFailure)}>
          <p className="failure-message">{saveFailure.message}</p>
        </Notice>
      )}

      <div className="form-actions">
        <button
          type="button"
          className="button"
          onClick={() => void runTest()}
          disabled={busy !== undefined}
        >
          {busy === 'testing' ? <Spinner label="Testing" /> : null}
          Test connection
        </button>
        <span className="form-actions-spacer" />
        {onCancel && (
          <button type="button" className="button" onClick={onCancel} disabled={busy === 'saving'}>
            Cancel
          </button>
        )}
        <button type="submit" className="button button-primary" disabled={busy !== undefined}>
          {busy === 'saving' ? 'Saving…' : editing ? 'Save changes' : 'Save'}
        </button>
      </div>
    </form>
  );
}
