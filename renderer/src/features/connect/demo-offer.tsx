import { useState } from 'react';
import { FailureNotice } from '../../components/failure-notice';
import { Spinner } from '../../components/spinner';
import { useT } from '../../i18n/i18n';
import { failureOf, type FailureInfo } from '../../lib/errors';
import type { ConnectionSummary } from '../../lib/relay-bridge';
import { startDemoRelay } from './connect-actions';

/** "Try the demo relay": starts the relay built into the app, on this computer. */
export function DemoOffer({ onStarted }: { onStarted?: (connection: ConnectionSummary) => void }) {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<FailureInfo | undefined>();
  const t = useT();

  async function start() {
    setBusy(true);
    setFailure(undefined);
    try {
      // Awaited first: `onStarted?.(await …)` would skip the call when there is no listener.
      const started = await startDemoRelay();
      onStarted?.(started);
    } catch (error) {
      setFailure(failureOf(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="demo-offer" aria-labelledby="demo-offer-title">
      <h2 className="demo-offer-title" id="demo-offer-title">
        {t('connect.demo.title')}
      </h2>
      <p>{t('connect.demo.body')}</p>
      {failure && <FailureNotice title={t('connect.demo.failed')} failure={failure} />}
      <button type="button" className="button" onClick={() => void start()} disabled={busy}>
        {busy && <Spinner label={t('connect.demo.starting')} />}
        {t('connect.demo.try')}
      </button>
    </section>
  );
}
