import { RelayFailure } from '../../components/relay-failure';
import { useT } from '../../i18n/i18n';
import type { FailureInfo } from '../../lib/errors';
import type { ConnectionSummary } from '../../lib/relay-bridge';
import { loadModels, replaceKeyAndRetry } from './models-actions';

export interface ModelsFailureProps {
  connection: ConnectionSummary;
  failure: FailureInfo;
}

/**
 * Why the models could not be listed, with the remedy in place: a refused key opens a field for
 * the right one; a used-up balance links to the relay's console; anything else can be retried.
 */
export function ModelsFailure({ connection, failure }: ModelsFailureProps) {
  const t = useT();
  return (
    <RelayFailure
      className="models-failure"
      failure={failure}
      connection={connection}
      onKey={(key) => replaceKeyAndRetry(connection.id, key)}
      keyCardLead={t('models.keyCardLead')}
      retry={
        <button
          type="button"
          className="button"
          onClick={() => void loadModels(connection.id, true)}
        >
          {t('common.tryAgain')}
        </button>
      }
    />
  );
}
