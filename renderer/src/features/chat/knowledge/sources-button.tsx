import { useT } from '../../../i18n/i18n';
import { useKnowledgeChatStore } from './knowledge-chat-store';

/**
 * "Sources" under a reply asked with a knowledge base: opens its retrieval X-ray below it. Shown
 * only once the knowledge chip has listed the replies with sources, so after it loaded its words.
 */
export function SourcesButton({ replyId }: { replyId: string }) {
  const t = useT();
  const has = useKnowledgeChatStore((s) => s.replies[replyId] === true);
  const open = useKnowledgeChatStore((s) => s.open?.replyId === replyId && s.open.source === null);
  if (!has) return null;
  return (
    <button
      type="button"
      className="button button-small"
      aria-expanded={open}
      title={t('knowledge.sources.button.title')}
      onClick={() =>
        useKnowledgeChatStore.getState().opened(open ? undefined : { replyId, source: null })
      }
    >
      {t('knowledge.sources.button')}
    </button>
  );
}
