import { StreamingMarkdown } from './markdown/streaming-markdown';
import { useStreamStore } from './stream-store';

export interface ReplyBodyProps {
  replyId: string;
  /** The stored text, shown once the reply is no longer streaming. */
  content: string;
}

/** A reply's markdown: its streaming text while it arrives, then its stored text. */
export function ReplyBody({ replyId, content }: ReplyBodyProps) {
  const streamed = useStreamStore((state) => state.texts[replyId]);
  return <StreamingMarkdown text={streamed ?? content} streaming={streamed !== undefined} />;
}
