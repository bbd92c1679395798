/**
 * Adding or editing an MCP server: a local one by command, arguments and environment, or a remote
 * one by address and headers. Main checks the draft and says what to fix; the mistake is shown at
 * its field and everything typed stays. Secret values go to main once, for the key store, and are
 * never shown back (a saved one is left as it is when its field is left empty).
 */
import { useId, useRef, useState, type FormEvent } from 'react';
import { Field } from '../../components/field';
import { Notice } from '../../components/notice';
import { useT } from '../../i18n/i18n';
import { failureOf, useMainMessageText, type FailureInfo } from '../../lib/errors';
import { saveServer } from './tools-actions';
import type { McpDraft, McpServer } from './tools-store';

interface PairRow {
  key: number;
  name: string;
  value: string;
  secret: boolean;
  /** A secret whose value is in the key store already. */
  saved: boolean;
}

interface ServerForm {
  name: string;
  transport: 'stdio' | 'http';
  command: string;
  /** One argument a line. */
  args: string;
  env: PairRow[];
  url: string;
  headers: PairRow[];
}

let nextKey = 1;

function rowsOf(pairs: McpServer['env']): PairRow[] {
  return pairs.map((pair) => ({
    key: nextKey++,
    name: pair.name,
    value: pair.secret ? '' : (pair.value ?? ''),
    secret: pair.secret,
    saved: pair.secret && pair.hasValue,
  }));
}

function formOf(server: McpServer | undefined): ServerForm {
  if (!server)
    return { name: '', transport: 'stdio', command: '', args: '', env: [], url: '', headers: [] };
  return {
    name: server.name,
    transport: server.transport,
    command: server.command ?? '',
    args: server.args.join('\n'),
    env: rowsOf(server.env),
    url: server.url ?? '',
    headers: rowsOf(server.headers),
  };
}

function pairsOf(rows: PairRow[]): NonNullable<McpDraft['env']> {
  return rows
    .filter((row) => row.name.trim() !== '' || row.value !== '')
    .map((row) => ({
      name: row.name,
      secret: row.secret,
      ...(row.secret && row.saved && row.value === '' ? {} : { value: row.value }),
    }));
}

export function draftOf(form: ServerForm): McpDraft {
  if (form.transport === 'http')
    return { name: form.name, transport: 'http', url: form.url, headers: pairsOf(form.headers) };
  return {
    name: form.name,
    transport: 'stdio',
    command: form.command,
    args: form.args
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter((line) => line !== ''),
    env: pairsOf(form.env),
  };
}

type FieldName = 'name' | 'command' | 'url' | 'pairs' | 'form';

/** Which field main's refusal is about, by its message. */
function fieldOf(failure: FailureInfo): FieldName {
  switch (failure.messageId) {
    case 'form.tools.name':
    case 'form.tools.nameAtMost':
    case 'tools.nameTaken':
      return 'name';
    case 'form.tools.command':
      return 'command';
    case 'form.tools.url':
    case 'form.tools.urlCredentials':
    case 'tools.secretInClear':
      return 'url';
    case 'form.tools.envName':
    case 'form.tools.headerName':
    case 'form.tools.headerReserved':
    case 'form.tools.duplicate':
    case 'form.tools.secretMissing':
      return 'pairs';
    default:
      return 'form';
  }
}

export interface ServerFormProps {
  /** The server edited; none for a new one. */
  server?: McpServer | undefined;
  onDone(): void;
}

export function ServerFormSection({ server, onDone }: ServerFormProps) {
  const [form, setForm] = useState<ServerForm>(() => formOf(server));
  const [failure, setFailure] = useState<FailureInfo | undefined>();
  const [busy, setBusy] = useState(false);
  const headingId = useId();
  const section = useRef<HTMLElement>(null);
  const t = useT();
  const mainText = useMainMessageText();
  const field = failure ? fieldOf(failure) : undefined;
  const errorText = failure ? mainText(failure) : undefined;
  const errors: Partial<Record<FieldName, string>> =
    field && errorText ? { [field]: errorText } : {};

  const change = (patch: Partial<ServerForm>) => setForm((current) => ({ ...current, ...patch }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setFailure(undefined);
    try {
      await saveServer(server?.id, draftOf(form));
      onDone();
    } catch (error) {
      const found = failureOf(error);
      setFailure(found);
      setBusy(false);
      // The field named by the mistake, for the keyboard and the screen reader.
      requestAnimationFrame(() =>
        section.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(),
      );
    }
  }

  const kind = form.transport === 'stdio' ? 'env' : 'header';
  const rows = form.transport === 'stdio' ? form.env : form.headers;
  const setRows = (next: PairRow[]) =>
    change(form.transport === 'stdio' ? { env: next } : { headers: next });
  const updateRow = (key: number, patch: Partial<PairRow>) =>
    setRows(rows.map((row) => (row.key === key ? { ...row, ...patch } : row)));
  const pairsLegend = t(form.transport === 'stdio' ? 'tools.form.env' : 'tools.form.headers');

  return (
    <section className="tools-form" aria-labelledby={headingId} ref={section}>
      <h2 className="tools-form-title" id={headingId}>
        {server ? t('tools.form.editTitle', { name: server.name }) : t('tools.form.addTitle')}
      </h2>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Field
          label={t('tools.form.name')}
          value={form.name}
          onChange={(event) => change({ name: event.target.value })}
          error={errors.name}
          autoFocus
        />
        <fieldset className="tools-kind">
          <legend className="field-label">{t('tools.form.kind')}</legend>
          <label className="tools-kind-option">
            <input
              type="radio"
              name={`${headingId}-kind`}
              checked={form.transport === 'stdio'}
              onChange={() => change({ transport: 'stdio' })}
            />{' '}
            {t('tools.form.local')}
          </label>
          <label className="tools-kind-option">
            <input
              type="radio"
              name={`${headingId}-kind`}
              checked={form.transport === 'http'}
              onChange={() => change({ transport: 'http' })}
            />{' '}
            {t('tools.form.remote')}
          </label>
        </fieldset>

        {form.transport === 'stdio' ? (
          <>
            <Notice tone="warning" className="tools-rights">
              <p>{t('tools.form.rights')}</p>
            </Notice>
            <Field
              label={t('tools.form.command')}
              hint={t('tools.form.command.hint')}
              value={form.command}
              onChange={(event) => change({ command: event.target.value })}
              error={errors.command}
              spellCheck={false}
              autoComplete="off"
            />
            <div className="field">
              <label className="field-label" htmlFor={`${headingId}-args`}>
                {t('tools.form.args')}
              </label>
              <textarea
                id={`${headingId}-args`}
                className="input tools-args"
                rows={3}
                spellCheck={false}
                aria-describedby={`${headingId}-args-hint`}
                value={form.args}
                onChange={(event) => change({ args: event.target.value })}
              />
              <p className="field-hint" id={`${headingId}-args-hint`}>
                {t('tools.form.args.hint')}
              </p>
            </div>
          </>
        ) : (
          <Field
            label={t('tools.form.url')}
            hint={t('tools.form.url.hint')}
            type="url"
            value={form.url}
            onChange={(event) => change({ url: event.target.value })}
            error={errors.url}
            spellCheck={false}
            autoComplete="off"
          />
        )}

        <fieldset className="tools-pairs">
          <legend className="field-label">{pairsLegend}</legend>
          {rows.length === 0 && <p className="muted small">{t('tools.form.pairs.none')}</p>}
          {rows.map((row, index) => {
            const n = index + 1;
            return (
              <div className="tools-pair" key={row.key}>
                <input
                  className="input tools-pair-name"
                  aria-label={t('tools.form.pairName', { kind, index: n })}
                  aria-invalid={field === 'pairs' || undefined}
                  value={row.name}
                  spellCheck={false}
                  autoComplete="off"
                  onChange={(event) => updateRow(row.key, { name: event.target.value })}
                />
                <input
                  className="input tools-pair-value"
                  type={row.secret ? 'password' : 'text'}
                  aria-label={t('tools.form.pairValue', { kind, index: n })}
                  placeholder={row.saved ? t('tools.form.secretSaved') : undefined}
                  value={row.value}
                  spellCheck={false}
                  autoComplete="off"
                  onChange={(event) => updateRow(row.key, { value: event.target.value })}
                />
                <label className="tools-pair-secret">
                  <input
                    type="checkbox"
                    checked={row.secret}
                    aria-label={t('tools.form.pairSecret.label', { kind, index: n })}
                    onChange={(event) => updateRow(row.key, { secret: event.target.checked })}
                  />{' '}
                  <span aria-hidden="true">{t('tools.form.pairSecret')}</span>
                </label>
                <button
                  type="button"
                  className="button button-small button-quiet-danger"
                  aria-label={t('tools.form.pairRemove', { kind, index: n })}
                  onClick={() => setRows(rows.filter((other) => other.key !== row.key))}
                >
                  {t('tools.server.remove')}
                </button>
              </div>
            );
          })}
          {errors.pairs && <p className="field-error">{errors.pairs}</p>}
          <p className="field-hint">{t('tools.form.secretHint')}</p>
          <button
            type="button"
            className="button button-small"
            onClick={() =>
              setRows([
                ...rows,
                { key: nextKey++, name: '', value: '', secret: kind === 'header', saved: false },
              ])
            }
          >
            {t(kind === 'env' ? 'tools.form.addEnv' : 'tools.form.addHeader')}
          </button>
        </fieldset>

        {errors.form && (
          <Notice tone="error" title={t('tools.form.failed')}>
            <p className="failure-message">{errors.form}</p>
          </Notice>
        )}
        <div className="form-actions">
          <button type="submit" className="button button-primary" disabled={busy}>
            {t('tools.form.save')}
          </button>
          <button type="button" className="button" onClick={onDone}>
            {t('tools.form.cancel')}
          </button>
        </div>
      </form>
    </section>
  );
}
