import { useT } from '../i18n/i18n';
import { Notice } from './notice';

export interface ReadFailureProps {
  /** What could not be read, as a sentence ("The prompt library could not be read"). */
  title: string;
  /** Main's words for why (absent when none came). */
  message: string | undefined;
  onRetry(): void;
}

/** Something the screen needs could not be read: why, and "Try again". */
export function ReadFailure({ title, message, onRetry }: ReadFailureProps) {
  const t = useT();
  return (
    <Notice
      tone="error"
      title={title}
      actions={
        <button type="button" className="button" onClick={onRetry}>
          {t('common.tryAgain')}
        </button>
      }
    >
      <p className="failure-message" data-source="main">
        {message}
      </p>
    </Notice>
  );
}
