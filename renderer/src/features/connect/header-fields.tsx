import { useId } from 'react';
import type { ConnectionHeader } from '../../lib/relay-bridge';

/** One row of the extra headers editor. A saved secret's value is never shown: only that it is set. */
export interface HeaderRow {
  key: number;
  name: string;
  value: string;
  secret: boolean;
  /** A secret value is saved for this name: an empty field keeps it. */
  saved: boolean;
}

let nextKey = 1;

export function headerRowsOf(headers: readonly ConnectionHeader[] = []): HeaderRow[] {
  return headers.map((header) => ({
    key: nextKey++,
    name: header.name,
    value: header.secret ? '' : (header.value ?? ''),
    secret: header.secret,
    saved: header.secret && header.hasValue,
  }));
}

/** The headers as main takes them: a secret row left empty keeps its saved value. */
export function headerDrafts(rows: readonly HeaderRow[]) {
  return rows
    .filter((row) => row.name.trim() !== '' || row.value.trim() !== '')
    .map((row) => ({
      name: row.name.trim(),
      secret: row.secret,
      ...(row.secret && row.value.trim() === '' ? {} : { value: row.value.trim() }),
    }));
}

export interface HeaderFieldsProps {
  rows: HeaderRow[];
  onChange(rows: HeaderRow[]): void;
}

/**
 * Extra request headers for gateways (OpenRouter's HTTP-Referer and X-Title, Portkey's
 * x-portkey-*, Azure-style api-key, Cloudflare Access): name, value, and whether the value is a
 * secret, kept in the key store like the key and never shown again.
 */
export function HeaderFields({ rows, onChange }: HeaderFieldsProps) {
  const id = useId();
  const update = (key: number, change: Partial<HeaderRow>) =>
    onChange(rows.map((row) => (row.key === key ? { ...row, ...change } : row)));

  return (
    <fieldset className="header-fields" aria-describedby={`${id}-hint`}>
      <legend className="field-label">Extra headers (optional)</legend>
      <p className="field-hint" id={`${id}-hint`}>
        Sent with every request to this relay, for gateways that ask for them (HTTP-Referer and
        X-Title, x-portkey-…, api-key, CF-Access-Client-Id). Mark a value secret to keep it in the
        key store, like the key: it is not shown again.
      </p>
      {rows.length > 0 && (
        <ul className="header-rows" aria-label="Extra headers">
          {rows.map((row, index) => (
            <li key={row.key} className="header-row">
              <input
                className="input header-name"
                aria-label={`Header ${index + 1} name`}
                value={row.name}
                placeholder="X-Title"
                autoComplete="off"
                spellCheck={false}
                onChange={(event) => update(row.key, { name: event.target.value })}
              />
              <input
                className="input header-value"
                aria-label={`Header ${index + 1} value`}
                type={row.secret ? 'password' : 'text'}
                value={row.value}
                placeholder={
                  row.saved
                    ? 'Saved: leave empty to keep it'
                    : row.secret
                      ? 'Secret value'
                      : 'Value'
                }
                autoComplete="off"
                spellCheck={false}
                onChange={(event) => update(row.key, { value: event.target.value })}
              />
              <label className="checkbox-field header-secret">
                <input
                  type="checkbox"
                  checked={row.secret}
                  onChange={(event) =>
                    update(row.key, { secret: event.target.checked, saved: false, value: '' })
                  }
                />
                <span>Secret</span>
              </label>
              <button
                type="button"
                className="button button-small"
                aria-label={`Remove header ${row.name || index + 1}`}
                onClick={() => onChange(rows.filter((other) => other.key !== row.key))}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <button
        type="button"
        className="button button-small"
        onClick={() =>
          onChange([...rows, { key: nextKey++, name: '', value: '', secret: false, saved: false }])
        }
      >
        Add header
      </button>
    </fieldset>
  );
}
