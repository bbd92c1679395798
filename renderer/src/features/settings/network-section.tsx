import { useEffect, useId, useState, type FormEvent } from 'react';
import { Message, t as translate, useT } from '../../i18n/i18n';
import { Field } from '../../components/field';
import { Notice } from '../../components/notice';
import { Spinner } from '../../components/spinner';
import { failureOf, fieldProblemText, type FailureInfo } from '../../lib/errors';
import type { ProxySettings, ProxyTestResult, Settings } from '../../lib/relay-bridge';
import { proxyPasswordKept, saveProxy, saveProxyPassword, testProxy } from './network-actions';

type Mode = ProxySettings['mode'];
type Scheme = Extract<ProxySettings, { mode: 'manual' }>['scheme'];

const DEFAULT_PORTS: Record<Scheme, string> = { http: '8080', https: '443', socks5: '1080' };
const KIND_NAMES: Record<string, string> = {
  PROXY: 'an HTTP proxy',
  HTTPS: 'an HTTPS proxy',
  SOCKS5: 'a SOCKS5 proxy',
  SOCKS4: 'a SOCKS4 proxy',
  SOCKS: 'a SOCKS proxy',
  QUIC: 'a QUIC proxy',
};

interface Fields {
  mode: Mode;
  scheme: Scheme;
  host: string;
  port: string;
  bypass: string;
  username: string;
  /** A new password to keep in the keychain; empty keeps the one kept, if any. */
  password: string;
}

function fieldsOf(proxy: ProxySettings): Fields {
  return proxy.mode === 'manual'
    ? {
        mode: 'manual',
        scheme: proxy.scheme,
        host: proxy.host,
        port: String(proxy.port),
        bypass: proxy.bypass.join('\n'),
        username: proxy.username ?? '',
        password: '',
      }
    : {
        mode: proxy.mode,
        scheme: 'http',
        host: '',
        port: DEFAULT_PORTS.http,
        bypass: '<local>',
        username: '',
        password: '',
      };
}

type Errors = Partial<Record<'host' | 'port' | 'bypass', string>>;

/** The proxy as main takes it, or what is wrong with the fields before anything is sent. */
function read(fields: Fields): { proxy: ProxySettings } | { errors: Errors } {
  if (fields.mode !== 'manual') return { proxy: { mode: fields.mode } };
  const errors: Errors = {};
  const port = Number(fields.port.trim());
  if (!/^\d+$/.test(fields.port.trim()) || port < 1 || port > 65535) {
    errors.port = translate('network.portError');
  }
  if (fields.host.trim() === '') errors.host = translate('network.hostError');
  if (Object.keys(errors).length > 0) return { errors };
  return {
    proxy: {
      mode: 'manual',
      scheme: fields.scheme,
      host: fields.host.trim(),
      port,
      ...(fields.username.trim() === '' ? {} : { username: fields.username.trim() }),
      bypass: fields.bypass
        .split(/[\n,;]+/)
        .map((rule) => rule.trim())
        .filter((rule) => rule !== ''),
    },
  };
}

/** Where main's refusal points (`proxy.host`, `proxy.bypass.2`): the field to show it at. */
function fieldOf(error: unknown): keyof Errors | undefined {
  const param = (error as { param?: unknown } | null)?.param;
  if (typeof param !== 'string') return undefined;
  const [, field] = param.split('.');
  return field === 'host' || field === 'port' || field === 'bypass' ? field : undefined;
}

function describeTest(result: ProxyTestResult): string {
  if (result.direct) return translate('network.direct', { url: result.url });
  const [first] = result.proxies;
  if (!first) return `${result.url}: ${result.answer}`;
  return translate('network.through', {
    url: result.url,
    kind: KIND_NAMES[first.kind] ?? first.kind,
    hostPort: first.hostPort,
  });
}

/**
 * Settings → Network: the system's proxy (the default), no proxy, or a proxy of one's own with
 * addresses that bypass it; and a test of where an address goes.
 */
export function NetworkSection({
  settings,
  testUrl,
}: {
  settings: Settings;
  /** The address the test starts with: the connection in use. */
  testUrl?: string | undefined;
}) {
  const id = useId();
  const [fields, setFields] = useState<Fields>(() => fieldsOf(settings.proxy));
  const [errors, setErrors] = useState<Errors>({});
  const [saving, setSaving] = useState(false);
  const [outcome, setOutcome] = useState<'saved' | FailureInfo | undefined>();
  const [url, setUrl] = useState(testUrl ?? '');
  const t = useT();
  const [testing, setTesting] = useState(false);
  const [tested, setTested] = useState<ProxyTestResult | FailureInfo | undefined>();
  // Whether a proxy password is kept in the keychain: all the page learns of it.
  const [passwordKept, setPasswordKept] = useState(false);
  useEffect(() => {
    void proxyPasswordKept().then(setPasswordKept, () => undefined);
  }, []);

  const saved = JSON.stringify(settings.proxy);
  useEffect(() => {
    setFields(fieldsOf(JSON.parse(saved) as ProxySettings));
  }, [saved]);

  const edit = (change: Partial<Fields>) => {
    setFields((current) => ({ ...current, ...change }));
    setOutcome(undefined);
  };

  async function save(event: FormEvent) {
    event.preventDefault();
    const result = read(fields);
    if ('errors' in result) {
      setErrors(result.errors);
      return;
    }
    setErrors({});
    setSaving(true);
    try {
      await saveProxy(result.proxy);
      if (fields.mode === 'manual' && fields.password !== '') {
        setPasswordKept(await saveProxyPassword(fields.password));
        edit({ password: '' });
      }
      setOutcome('saved');
    } catch (error) {
      const field = fieldOf(error);
      const failure = failureOf(error);
      if (field) {
        setErrors({
          [field]: fieldProblemText(failure),
        });
        setOutcome(undefined);
      } else {
        setOutcome(failure);
      }
    } finally {
      setSaving(false);
    }
  }

  async function runTest() {
    setTesting(true);
    setTested(undefined);
    try {
      setTested(await testProxy(url));
    } catch (error) {
      setTested(failureOf(error));
    } finally {
      setTesting(false);
    }
  }

  const modes: { value: Mode; label: string; hint: string }[] = [
    { value: 'system', label: t('network.system'), hint: t('network.system.hint') },
    { value: 'none', label: t('network.none'), hint: t('network.none.hint') },
    { value: 'manual', label: t('network.manual'), hint: t('network.manual.hint') },
  ];

  return (
    <section className="card settings-section" aria-labelledby="network-title">
      <h2 className="card-title" id="network-title">
        {t('network.title')}
      </h2>
      <p className="card-lead">{t('network.lead')}</p>
      <form className="settings-form" onSubmit={save} noValidate aria-label={t('network.proxy')}>
        <fieldset className="proxy-modes">
          <legend className="field-label">{t('network.proxy')}</legend>
          {modes.map((mode) => (
            <label key={mode.value} className="checkbox-field">
              <input
                type="radio"
                name={`${id}-mode`}
                value={mode.value}
                checked={fields.mode === mode.value}
                onChange={() => edit({ mode: mode.value })}
              />
              <span>
                {mode.label} <span className="muted">{mode.hint}</span>
              </span>
            </label>
          ))}
        </fieldset>
        {fields.mode === 'manual' && (
          <>
            <div className="field-row proxy-server">
              <div className="field">
                <label className="field-label" htmlFor={`${id}-scheme`}>
                  {t('network.kind')}
                </label>
                <select
                  id={`${id}-scheme`}
                  className="select"
                  value={fields.scheme}
                  onChange={(event) => {
                    const scheme = event.target.value as Scheme;
                    const port =
                      fields.port === DEFAULT_PORTS[fields.scheme]
                        ? DEFAULT_PORTS[scheme]
                        : fields.port;
                    edit({ scheme, port });
                  }}
                >
                  <option value="http">HTTP</option>
                  <option value="https">HTTPS</option>
                  <option value="socks5">SOCKS5</option>
                </select>
              </div>
              <Field
                label={t('network.host')}
                value={fields.host}
                placeholder="proxy.example.com"
                autoComplete="off"
                spellCheck={false}
                onChange={(event) => edit({ host: event.target.value })}
                error={errors.host}
              />
              <Field
                label={t('network.port')}
                inputMode="numeric"
                value={fields.port}
                onChange={(event) => edit({ port: event.target.value })}
                error={errors.port}
              />
            </div>
            <div className="field-row proxy-login">
              <Field
                label={t('network.username')}
                value={fields.username}
                autoComplete="off"
                spellCheck={false}
                onChange={(event) => edit({ username: event.target.value })}
              />
              <Field
                label={t('network.password')}
                type="password"
                value={fields.password}
                autoComplete="new-password"
                onChange={(event) => edit({ password: event.target.value })}
                hint={t(passwordKept ? 'network.passwordKept' : 'network.passwordNotKept')}
              />
            </div>
            <div className="field">
              <label className="field-label" htmlFor={`${id}-bypass`}>
                {t('network.bypass')}
              </label>
              <textarea
                id={`${id}-bypass`}
                className="input proxy-bypass"
                rows={4}
                spellCheck={false}
                value={fields.bypass}
                onChange={(event) => edit({ bypass: event.target.value })}
                aria-invalid={errors.bypass ? true : undefined}
                aria-describedby={`${id}-bypass-hint${errors.bypass ? ` ${id}-bypass-error` : ''}`}
              />
              <p className="field-hint" id={`${id}-bypass-hint`}>
                {t('network.bypass.hint')}
              </p>
              {errors.bypass && (
                <p className="field-error" id={`${id}-bypass-error`}>
                  {errors.bypass}
                </p>
              )}
            </div>
          </>
        )}
        <div className="form-actions">
          {outcome === 'saved' && (
            <span className="save-status" role="status">
              {t('network.saved')}
            </span>
          )}
          {outcome && outcome !== 'saved' && (
            <Notice tone="error" title={t('network.notChanged')}>
              <p className="failure-message">{outcome.message}</p>
            </Notice>
          )}
          <span className="form-actions-spacer" />
          <button type="submit" className="button button-primary" disabled={saving}>
            {saving ? t('defaults.saving') : t('network.save')}
          </button>
        </div>
      </form>
      <div className="proxy-test">
        <Field
          label={t('network.test')}
          type="url"
          value={url}
          placeholder="https://relay.example.com"
          autoComplete="off"
          spellCheck={false}
          onChange={(event) => setUrl(event.target.value)}
          hint={t('network.test.hint')}
        />
        <button
          type="button"
          className="button"
          disabled={testing || url.trim() === ''}
          onClick={() => void runTest()}
        >
          {testing ? <Spinner label={t('network.testing')} /> : null}
          {t('network.testButton')}
        </button>
      </div>
      {tested &&
        ('answer' in tested ? (
          <Notice tone="info" title={t('network.whereItGoes')} className="proxy-test-result">
            <p>{describeTest(tested)}</p>
            <p className="muted">
              <Message
                id="network.answer"
                values={{ answer: tested.answer }}
                components={{ 0: <code /> }}
              />
            </p>
          </Notice>
        ) : (
          <Notice tone="error" title={t('network.testFailed')}>
            <p className="failure-message">{tested.message}</p>
          </Notice>
        ))}
    </section>
  );
}
