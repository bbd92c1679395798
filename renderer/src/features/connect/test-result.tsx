import { Notice } from '../../components/notice';
import { useT } from '../../i18n/i18n';
import { failureHeading, useMainMessageText } from '../../lib/errors';
import type { ConnectionTestResult } from '../../lib/relay-bridge';

/** The outcome of "Test connection": what was requested and, on failure, exactly why it failed. */
export function TestResult({ result }: { result: ConnectionTestResult }) {
  const mainText = useMainMessageText();
  const t = useT();
  const requested = result.requestUrl && (
    <p className="request-url">
      <span className="request-url-label">{t('connect.test.requested')}</span>{' '}
      <code>GET {result.requestUrl}</code>
    </p>
  );
  if (result.ok) {
    const count = result.modelCount ?? 0;
    return (
      <Notice tone="success" title={t('connect.test.answered')} className="test-result">
        <p>{t('connect.test.models', { count })}</p>
        {requested}
      </Notice>
    );
  }
  const error = result.error ?? { kind: 'internal', message: t('connect.test.failed') };
  return (
    <Notice tone="error" title={failureHeading(error)} className="test-result">
      <p className="failure-message" data-source="main">
        {mainText(error)}
      </p>
      {requested}
    </Notice>
  );
}
