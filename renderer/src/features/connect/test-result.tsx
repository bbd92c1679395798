import { Notice } from '../../components/notice';
import { failureTitle, useMainMessageText } from '../../lib/errors';
import type { ConnectionTestResult } from '../../lib/relay-bridge';

/** The outcome of "Test connection": what was requested and, on failure, exactly why it failed. */
export function TestResult({ result }: { result: ConnectionTestResult }) {
  const mainText = useMainMessageText();
  const requested = result.requestUrl && (
    <p className="request-url">
      <span className="request-url-label">Requested</span> <code>GET {result.requestUrl}</code>
    </p>
  );
  if (result.ok) {
    const count = result.modelCount ?? 0;
    return (
      <Notice tone="success" title="The relay answered" className="test-result">
        <p>
          It lists {count} {count === 1 ? 'model' : 'models'}.
        </p>
        {requested}
      </Notice>
    );
  }
  const error = result.error ?? { kind: 'internal', message: 'The test failed.' };
  const title = failureTitle(error);
  return (
    <Notice
      tone="error"
      title={error.status ? `${title} (HTTP ${error.status})` : title}
      className="test-result"
    >
      <p className="failure-message">{mainText(error)}</p>
      {requested}
    </Notice>
  );
}
