import { useKnowledgeChatStore } from './knowledge-chat-store';

/** "Sources" under a reply asked with a knowledge base: opens its retrieval X-ray below it. */
export function SourcesButton({ replyId }: { replyId: string }) {
  const has = useKnowledgeChatStore((s) => s.replies[replyId] === true);
  const open = useKnowledgeChatStore((s) => s.open?.replyId === replyId && s.open.source === null);
  if (!has) return null;
  return (
    <button
      type="button"
      className="button button-small"
      aria-expanded={open}
      title="The chunks retrieved for this reply, their scores, and what went into the prompt"
      onClick={() =>
        useKnowledgeChatStore.getState().opened(open ? undefined : { replyId, source: null })
      }
    >
      Sources
    </button>
  );
}
