import { Notice } from '../../components/notice';
import { RelayFailure } from '../../components/relay-failure';
import { useNamespace } from '../../i18n/use-namespace';
import type { FailureInfo } from '../../lib/errors';
import type { ConnectionSummary } from '../../lib/relay-bridge';
import { replaceImagesKey } from './images-actions';

/**
 * Why a Generate failed, with the remedy in place, as chat shows it: a refused key opens a
 * field for the right one, a used-up balance links to the relay's console, a bad request names
 * the field, and a failed relay can be asked again.
 */
export function ImageFailure({
  connection,
  failure,
  onRetry,
}: {
  connection: ConnectionSummary;
  failure: FailureInfo;
  onRetry(): void;
}) {
  const t = useNamespace('images');
  if (failure.kind === 'aborted') {
    return (
      <Notice tone="info" title={t('images.cancelled.title')}>
        <p>{t('images.cancelled.body')}</p>
      </Notice>
    );
  }
  const retryable = !['bad_request', 'invalid_request'].includes(failure.kind);
  return (
    <RelayFailure
      className="images-failure"
      failure={failure}
      connection={connection}
      onKey={async (key) => {
        await replaceImagesKey(connection.id, key);
        onRetry();
      }}
      balanceNote={false}
      retry={
        retryable && (
          <button type="button" className="button" onClick={onRetry}>
            {t('images.tryAgain')}
          </button>
        )
      }
    >
      {failure.param && (
        <p className="muted">{t('images.failure.param', { param: failure.param })}</p>
      )}
    </RelayFailure>
  );
}
