import { useId } from 'react';
import { formatNumber } from '../../i18n/format';
import { useT } from '../../i18n/i18n';
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
  const t = useT();
  const update = (key: number, change: Partial<HeaderRow>) =>
    onChange(rows.map((row) => (row.key === key ? { ...row, ...change } : row)));

  return (
    <fieldset className="header-fields" aria-describedby={`${id}-hint`}>
      <legend className="field-label">{t('connect.headers.legend')}</legend>
      <p className="field-hint" id={`${id}-hint`}>
        {t('connect.headers.hint')}
      </p>
      {rows.length > 0 && (
        <ul className="header-rows" aria-label={t('connect.headers.list')}>
          {rows.map((row, index) => (
            <li key={row.key} className="header-row">
              <input
                className="input header-name"
                aria-label={t('connect.headers.name', { number: formatNumber(index + 1) })}
                value={row.name}
                placeholder={t('connect.headers.name.placeholder')}
                autoComplete="off"
                spellCheck={false}
                onChange={(event) => update(row.key, { name: event.target.value })}
              />
              <input
                className="input header-value"
                aria-label={t('connect.headers.value', { number: formatNumber(index + 1) })}
                type={row.secret ? 'password' : 'text'}
                value={row.value}
                placeholder={
                  row.saved
                    ? t('connect.headers.value.savedPlaceholder')
                    : row.secret
                      ? t('connect.headers.value.secretPlaceholder')
                      : t('connect.headers.value.placeholder')
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
                <span>{t('connect.headers.secret')}</span>
              </label>
              <button
                type="button"
                className="button button-small"
                aria-label={t('connect.headers.removeName', {
                  name: row.name || formatNumber(index + 1),
                })}
                onClick={() => onChange(rows.filter((other) => other.key !== row.key))}
              >
                {t('connect.headers.remove')}
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
        {t('connect.headers.add')}
      </button>
    </fieldset>
  );
}
