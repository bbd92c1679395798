import { useState } from 'react';
import { Notice } from '../../components/notice';
import { Spinner } from '../../components/spinner';
import { failureOf, type FailureInfo } from '../../lib/errors';
import type { ConnectionSummary } from '../../lib/relay-bridge';
import { startDemoRelay } from './connect-actions';

/** "Try the demo relay": starts the relay built into the app, on this computer. */
export function DemoOffer({ onStarted }: { onStarted?: (connection: ConnectionSummary) => void }) {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<FailureInfo | undefined>();

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
        No relay yet?
      </h2>
      <p>
        The demo relay runs on this computer with a few demo models, so you can look around without
        an account. Its replies are synthetic: no real model answers, and nothing leaves your
        machine.
      </p>
      {failure && (
        <Notice tone="error" title="The demo relay did not start">
          <p className="failure-message">{failure.message}</p>
        </Notice>
      )}
      <button type="button" className="button" onClick={() => void start()} disabled={busy}>
        {busy && <Spinner label="Starting the demo relay" />}
        Try the demo relay
      </button>
    </section>
  );
}
