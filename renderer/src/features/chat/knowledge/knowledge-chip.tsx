/**
 * The knowledge bases a conversation asks with, as a chip in the chat header (loaded after the
 * chat screen): the names while any are linked, and a panel to link bases and set how many
 * chunks are retrieved (top-k), the score threshold and the sources' token budget. It also keeps
 * the list of the conversation's replies that have sources (their citations and X-ray).
 */
import { useEffect, useId, useState } from 'react';
import { PopoverButton } from '../../../components/popover-button';
import { loadNamespace, useT, type MessageKey } from '../../../i18n/i18n';
import { failureOf } from '../../../lib/errors';
import type { Answer } from '../../../lib/relay-bridge';
import { NEW_CHAT_ID, useChatStore } from '../chat-store';
import { draftKnowledgeFor, useDraftKnowledge } from './draft-knowledge';
import {
  changeConversationKnowledge,
  readConversationKnowledge,
  watchConversationKnowledge,
  watchRetrievals,
  type KnowledgeChange,
} from './knowledge-chat-actions';
import { useKnowledgeChatStore } from './knowledge-chat-store';
import './knowledge-chat.css';
import { RETRIEVAL_LIMITS } from '../../../../../electron/shared/limits';

type ConversationKnowledge = Answer<'getConversationKnowledge'>;
type KnowledgeBase = Answer<'listKnowledgeBases'>[number];

// Loaded after the chat screen: its words (and those of the sources below a reply, which open
// only once this has said which replies have them) come before it renders.
await loadNamespace('knowledge');

const STATUS: Record<KnowledgeBase['status'], MessageKey> = {
  empty: 'knowledge.status.empty',
  indexing: 'knowledge.status.indexing',
  ready: 'knowledge.status.ready',
  cancelled: 'knowledge.status.cancelled',
  failed: 'knowledge.status.failed',
};

function useRetrievalReplies(conversationId: string) {
  useEffect(() => {
    if (conversationId === NEW_CHAT_ID) return;
    let current = true;
    const off = watchRetrievals(
      conversationId,
      (ids) => current && useKnowledgeChatStore.getState().repliesLoaded(ids),
    );
    if (!off) return;
    return () => {
      current = false;
      off();
      useKnowledgeChatStore.getState().opened(undefined);
    };
  }, [conversationId]);
}

export default function KnowledgeChip({ conversationId }: { conversationId: string }) {
  const [settings, setSettings] = useState<ConversationKnowledge>();
  const [bases, setBases] = useState<KnowledgeBase[]>();
  const [failure, setFailure] = useState<string>();
  const id = useId();
  const t = useT();
  // The new chat: the bases are chosen here and linked when its first message makes it a
  // conversation; its retrieval settings come with it.
  const drafting = conversationId === NEW_CHAT_ID;
  const composerFor = useChatStore((s) => s.composerFor);
  const draftIds = useDraftKnowledge((s) => draftKnowledgeFor(s, composerFor));
  useRetrievalReplies(conversationId);

  useEffect(() => {
    let current = true;
    const off = watchConversationKnowledge(conversationId, {
      // The new chat has no settings of its own in main yet.
      ...(drafting ? {} : { settings: (found) => current && setSettings(found) }),
      failed: (found) => current && setFailure(found.message),
      bases: (list) => current && setBases(list),
    });
    if (!off) return;
    return () => {
      current = false;
      off();
    };
  }, [conversationId, drafting]);

  function change(changes: KnowledgeChange) {
    changeConversationKnowledge(conversationId, changes).then(
      (next) => {
        setSettings(next);
        setFailure(undefined);
      },
      (error: unknown) => {
        setFailure(failureOf(error).message);
        void readConversationKnowledge(conversationId).then(setSettings, () => undefined);
      },
    );
  }

  const linked = drafting
    ? draftIds.map((kbId) => ({
        id: kbId,
        name: bases?.find((b) => b.id === kbId)?.name ?? '',
        missing: false,
      }))
    : (settings?.bases ?? []);
  const missing = linked.filter((b) => b.missing);
  const toggle = (kbId: string, on: boolean) => {
    const ids = linked.map((b) => b.id).filter((b) => b !== kbId);
    if (drafting) {
      useDraftKnowledge.getState().chosen(composerFor, on ? [...ids, kbId] : ids);
      return;
    }
    // Shown at once; main's answer (or its refusal) follows.
    const base = bases?.find((b) => b.id === kbId);
    if (settings)
      setSettings({
        ...settings,
        bases: on
          ? [...settings.bases, { id: kbId, name: base?.name ?? '', missing: false }]
          : settings.bases.filter((b) => b.id !== kbId),
      });
    change({ kbIds: on ? [...ids, kbId] : ids });
  };
  const numberChange =
    (key: 'topK' | 'minScore' | 'budgetTokens') => (event: React.ChangeEvent<HTMLInputElement>) => {
      const value = Number(event.target.value);
      if (event.target.value !== '' && event.target.checkValidity()) change({ [key]: value });
    };

  return (
    <div className="chat-knowledge" data-active={linked.length > 0 || undefined}>
      <PopoverButton label={t('knowledge.chip.label')} icon="knowledge">
        <fieldset className="chat-knowledge-bases">
          <legend>{t('knowledge.chip.askWith')}</legend>
          {bases === undefined && <p className="chat-option-hint">{t('knowledge.chip.loading')}</p>}
          {bases?.length === 0 && <p className="chat-option-hint">{t('knowledge.chip.none')}</p>}
          {bases?.map((base) => (
            <label key={base.id} className="chat-knowledge-base">
              <input
                type="checkbox"
                checked={linked.some((b) => b.id === base.id)}
                onChange={(event) => toggle(base.id, event.target.checked)}
              />{' '}
              {base.name}{' '}
              <span className="chat-option-hint">
                {base.status === 'ready'
                  ? t('knowledge.chip.chunks', { count: base.embedded })
                  : t('knowledge.chip.chunksStatus', {
                      count: base.embedded,
                      status: t(STATUS[base.status]),
                    })}
              </span>
            </label>
          ))}
          {missing.map((base) => (
            <p key={base.id} className="field-error">
              {t('knowledge.chip.deleted', { name: base.name })}{' '}
              <button
                type="button"
                className="button button-small"
                onClick={() => toggle(base.id, false)}
              >
                {t('knowledge.chip.removeDeleted')}
              </button>
            </p>
          ))}
        </fieldset>
        {settings && (
          <div className="chat-knowledge-settings">
            <label htmlFor={`${id}-k`}>{t('knowledge.chip.topK')}</label>
            <input
              id={`${id}-k`}
              className="input"
              type="number"
              min={RETRIEVAL_LIMITS.topK.min}
              max={RETRIEVAL_LIMITS.topK.max}
              defaultValue={settings.topK}
              onChange={numberChange('topK')}
            />
            <label htmlFor={`${id}-s`}>{t('knowledge.chip.threshold')}</label>
            <input
              id={`${id}-s`}
              className="input"
              type="number"
              min={RETRIEVAL_LIMITS.minScore.min}
              max={RETRIEVAL_LIMITS.minScore.max}
              step={0.05}
              defaultValue={settings.minScore}
              onChange={numberChange('minScore')}
            />
            <label htmlFor={`${id}-b`}>{t('knowledge.chip.budget')}</label>
            <input
              id={`${id}-b`}
              className="input"
              type="number"
              min={RETRIEVAL_LIMITS.budgetTokens.min}
              max={RETRIEVAL_LIMITS.budgetTokens.max}
              step={100}
              defaultValue={settings.budgetTokens}
              onChange={numberChange('budgetTokens')}
            />
          </div>
        )}
        <p className="chat-option-hint">{t('knowledge.chip.privacy')}</p>
        {failure && (
          <p className="field-error" role="alert">
            {failure}
          </p>
        )}
      </PopoverButton>
      {linked.length > 0 && (
        <span
          className="chat-knowledge-names"
          data-missing={missing.length > 0 || undefined}
          title={t('knowledge.chip.names')}
        >
          {linked.map((b) => b.name).join(t('knowledge.chip.separator'))}
        </span>
      )}
    </div>
  );
}
