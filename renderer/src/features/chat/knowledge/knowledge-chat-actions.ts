/** What the chat's knowledge chip and a reply's sources ask of main. */
import { failureOf, type FailureInfo } from '../../../lib/errors';
import { relayBridge, requireBridge, type Answer } from '../../../lib/relay-bridge';

type ConversationKnowledge = Answer<'getConversationKnowledge'>;
type KnowledgeBase = Answer<'listKnowledgeBases'>[number];
export type KnowledgeChange = Omit<
  Parameters<ReturnType<typeof requireBridge>['setConversationKnowledge']>[0],
  'conversationId'
>;

/**
 * The conversation's replies that have sources: read now and after each reply of the
 * conversation. Returns the unsubscribe, or undefined outside the app.
 */
export function watchRetrievals(
  conversationId: string,
  loaded: (ids: Answer<'listRetrievals'>) => void,
): (() => void) | undefined {
  const bridge = relayBridge();
  if (!bridge) return undefined;
  const load = () => void bridge.listRetrievals({ conversationId }).then(loaded, () => undefined);
  load();
  return bridge.onChatReplyFinished((finished) => {
    if (finished.conversationId === conversationId) load();
  });
}

/**
 * The conversation's knowledge settings (when `settings` is given: the new chat has none in main
 * yet) and the bases there are: read now and after each change of the knowledge bases. Returns
 * the unsubscribe, or undefined outside the app.
 */
export function watchConversationKnowledge(
  conversationId: string,
  handlers: {
    settings?(found: ConversationKnowledge): void;
    failed(failure: FailureInfo): void;
    bases(list: KnowledgeBase[]): void;
  },
): (() => void) | undefined {
  const bridge = relayBridge();
  if (!bridge) return undefined;
  const load = () => {
    if (handlers.settings)
      void bridge
        .getConversationKnowledge({ conversationId })
        .then(handlers.settings, (error) => handlers.failed(failureOf(error)));
    void bridge.listKnowledgeBases().then(handlers.bases, () => handlers.bases([]));
  };
  load();
  return bridge.onKnowledgeChanged(load);
}

export function readConversationKnowledge(conversationId: string): Promise<ConversationKnowledge> {
  return requireBridge().getConversationKnowledge({ conversationId });
}

export function changeConversationKnowledge(
  conversationId: string,
  changes: KnowledgeChange,
): Promise<ConversationKnowledge> {
  return requireBridge().setConversationKnowledge({ conversationId, ...changes });
}

/** What a reply was asked with: its retrieved chunks (null when none was kept). */
export function readRetrieval(replyId: string): Promise<Answer<'getRetrieval'>> {
  return requireBridge().getRetrieval({ messageId: replyId });
}

/** Shows a cited chunk's file in its folder, or opens it. */
export function revealRetrievedFile(
  messageId: string,
  chunkId: string,
  action: 'show' | 'open',
): Promise<unknown> {
  return requireBridge().revealRetrievedFile({ messageId, chunkId, action });
}

/** Pins, unpins, excludes or includes a chunk for the conversation's next questions. */
export function steerRetrieval(
  conversationId: string,
  chunkId: string,
  action: 'pin' | 'unpin' | 'exclude' | 'include',
): Promise<ConversationKnowledge> {
  return requireBridge().steerRetrieval({ conversationId, chunkId, action });
}
