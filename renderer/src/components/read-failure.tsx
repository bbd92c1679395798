import { useT } from '../i18n/i18n';
import { FailureNotice } from './failure-notice';

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
  // Main's words as they were read, with no kind of their own: the title says what failed.
  const failure = { kind: 'internal', message: message ?? '' };
  return (
    <FailureNotice
      title={title}
      failure={failure}
      actions={
        <button type="button" className="button" onClick={onRetry}>
          {t('common.tryAgain')}
        </button>
      }
    />
  );
}
