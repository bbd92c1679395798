import { lazy, Suspense } from 'react';
import { CitingReplyProvider } from './knowledge/citations';
import { useKnowledgeChatStore } from './knowledge/knowledge-chat-store';
import { StreamingMarkdown } from './markdown/streaming-markdown';
import { useStreamStore } from './stream-store';

/** A reply's sources (a cited one, or the X-ray), loaded the first time one is opened. */
const ReplySources = lazy(() => import('./knowledge/reply-sources'));

export interface ReplyBodyProps {
  replyId: string;
  /** The stored text, shown once the reply is no longer streaming. */
  content: string;
  /** The reply stopped or failed before its end: markup left open at its end stays hidden. */
  cutShort?: boolean;
}

/** A reply's markdown: its streaming text while it arrives, then its stored text. */
export function ReplyBody({ replyId, content, cutShort = false }: ReplyBodyProps) {
  const streamed = useStreamStore((state) => state.texts[replyId]);
  const open = useKnowledgeChatStore((s) => (s.open?.replyId === replyId ? s.open : undefined));
  return (
    <CitingReplyProvider replyId={replyId}>
      <StreamingMarkdown
        text={streamed ?? content}
        streaming={streamed !== undefined}
        cutShort={cutShort}
      />
      {open && (
        <Suspense fallback={null}>
          <ReplySources replyId={replyId} source={open.source} />
        </Suspense>
      )}
    </CitingReplyProvider>
  );
}
