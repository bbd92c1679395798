/**
 * The MCP servers whose tools a conversation may use, as a chip in the chat header: a panel of
 * the servers, each a checkbox (remembered with the conversation). None chosen: no tools.
 */
import { useEffect, useState } from 'react';
import { PopoverButton } from '../../../components/popover-button';
import { useT } from '../../../i18n/i18n';
import {
  readMcpServers,
  setConversationTools,
  watchMcpServers,
  type McpServer,
} from './tool-actions';
import './tools.css';

export function ToolsChip({
  conversationId,
  chosen,
}: {
  conversationId: string;
  chosen: readonly string[];
}) {
  const t = useT();
  const [servers, setServers] = useState<McpServer[]>();
  const [ids, setIds] = useState<readonly string[]>(chosen);
  const [failure, setFailure] = useState<string>();
  const chosenKey = chosen.join('\n');
  useEffect(() => setIds(chosenKey === '' ? [] : chosenKey.split('\n')), [chosenKey]);
  useEffect(() => {
    let current = true;
    const load = () =>
      void readMcpServers().then((outcome) => {
        if (!current) return;
        if (outcome.ok) setServers(outcome.value);
        else setFailure(outcome.failure.message);
      });
    load();
    const off = watchMcpServers(load);
    return () => {
      current = false;
      off?.();
    };
  }, []);
  const toggle = (id: string, on: boolean) => {
    const next = on ? [...ids.filter((s) => s !== id), id] : ids.filter((s) => s !== id);
    setIds(next);
    void setConversationTools(conversationId, next).then((outcome) => {
      if (outcome.ok) {
        setFailure(undefined);
        setIds(outcome.value.toolServerIds ?? []);
      } else setFailure(outcome.failure.message);
    });
  };
  const active = ids.filter((id) => servers?.some((s) => s.id === id)).length;
  return (
    <div className="chat-tools-chip" data-active={active > 0 || undefined}>
      <PopoverButton
        label={active > 0 ? t('chat.tools.chip.on', { count: active }) : t('chat.tools.chip')}
        icon="sparkle"
      >
        <fieldset className="chat-tools-servers">
          <legend>{t('chat.tools.chip.legend')}</legend>
          {servers === undefined && !failure && (
            <p className="chat-option-hint">{t('chat.tools.chip.loading')}</p>
          )}
          {servers?.length === 0 && <p className="chat-option-hint">{t('chat.tools.chip.none')}</p>}
          {servers?.map((server) => (
            <label key={server.id}>
              <input
                type="checkbox"
                checked={ids.includes(server.id)}
                onChange={(event) => toggle(server.id, event.target.checked)}
              />{' '}
              {server.name}
            </label>
          ))}
          {failure && (
            <p className="chat-option-hint" role="alert">
              {failure}
            </p>
          )}
        </fieldset>
      </PopoverButton>
    </div>
  );
}
