import type { ReactNode } from 'react';
import { failureHeading, useMainMessageText, type FailureInfo } from '../lib/errors';
import { Notice } from './notice';

export interface FailureNoticeProps {
  /** What could not be done, as a heading; by default the failure's kind (and HTTP status). */
  title?: string;
  /** The failure as `runAction` or `failureOf` gives it. */
  failure: Pick<FailureInfo, 'kind' | 'status' | 'message' | 'messageId' | 'values' | 'parts'>;
  /** Buttons that act on it ("Try again"). */
  actions?: ReactNode;
  /** What the feature adds under the message. */
  children?: ReactNode;
}

/**
 * The page's one view of a failed call: a heading, then main's own words in the language shown
 * now (they follow a change of language). `RelayFailure` adds the remedies of a relay's
 * failures (the key field, the console link) around it.
 */
export function FailureNotice({ title, failure, actions, children }: FailureNoticeProps) {
  const message = useMainMessageText()(failure);
  return (
    <Notice tone="error" title={title ?? failureHeading(failure)} actions={actions}>
      <p className="failure-message" data-source="main">
        {message}
      </p>
      {children}
    </Notice>
  );
}
