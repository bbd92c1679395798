/**
 * "Attach from a tool server": beside the attach button, a panel of the resources of the
 * conversation's MCP servers (the header's Tools chip), a group a server. Choosing one asks main
 * to read it and attach it like a file (the same size cap and checks); the page sends only the
 * server's id and the URI the server listed. Resource templates are not offered.
 */
import { useEffect, useState } from 'react';
import { PopoverButton } from '../../../components/popover-button';
import { formatFileSize } from '../../../i18n/format';
import { useT } from '../../../i18n/i18n';
import { useMainMessageText } from '../../../lib/errors';
import { readMcpResources, watchMcpLists, type McpResourceList } from './mcp-lists';
import './tools.css';

type Group =
  | { id: string; status: 'reading' }
  | { id: string; status: 'read'; list: McpResourceList }
  | { id: string; status: 'failed'; message: string };

export function ResourcePicker({
  serverIds,
  disabled,
  onChoose,
}: {
  serverIds: readonly string[];
  disabled?: boolean;
  onChoose(serverId: string, uri: string): void;
}) {
  const t = useT();
  return (
    <PopoverButton label={t('chat.resources.button')} icon="folder">
      {(close) => (
        <ResourceList
          serverIds={serverIds}
          disabled={disabled === true}
          onChoose={(serverId, uri) => {
            close();
            onChoose(serverId, uri);
          }}
        />
      )}
    </PopoverButton>
  );
}

/** Read when the panel opens, and again when a server says its resources changed. */
function ResourceList({
  serverIds,
  disabled,
  onChoose,
}: {
  serverIds: readonly string[];
  disabled: boolean;
  onChoose(serverId: string, uri: string): void;
}) {
  const t = useT();
  const mainText = useMainMessageText();
  const key = serverIds.join('\n');
  const [groups, setGroups] = useState<Group[]>(() =>
    serverIds.map((id) => ({ id, status: 'reading' })),
  );
  const [changes, setChanges] = useState(0);
  useEffect(
    () =>
      watchMcpLists((id, list) => {
        if (list === 'resources' && key.split('\n').includes(id)) setChanges((n) => n + 1);
      }),
    [key],
  );
  useEffect(() => {
    if (key === '') return;
    let current = true;
    for (const id of key.split('\n'))
      void readMcpResources(id).then((outcome) => {
        if (!current) return;
        const group: Group = outcome.ok
          ? { id, status: 'read', list: outcome.value }
          : { id, status: 'failed', message: outcome.failure.message };
        setGroups((old) => old.map((g) => (g.id === id ? group : g)));
      });
    return () => {
      current = false;
    };
  }, [key, changes]);

  if (key === '') return <p className="chat-option-hint">{t('chat.resources.noServers')}</p>;
  return (
    <div className="chat-resources">
      <p className="chat-option-hint">{t('chat.resources.hint')}</p>
      {groups.map((group) => {
        if (group.status === 'reading')
          return (
            <p key={group.id} className="chat-option-hint" role="status">
              {t('chat.resources.reading')}
            </p>
          );
        if (group.status === 'failed')
          return (
            <p key={group.id} className="field-error">
              {t('chat.resources.unread')} <span data-source="main">{group.message}</span>
            </p>
          );
        const { list } = group;
        return (
          <section key={group.id} className="chat-resources-group" aria-label={list.name}>
            <h3 className="chat-resources-server">{list.name}</h3>
            {list.problem ? (
              <p className="field-error">
                {t('chat.resources.failed', { server: list.name })}{' '}
                <span data-source="main">{mainText(list.problem)}</span>
              </p>
            ) : list.resources.length === 0 ? (
              <p className="chat-option-hint">{t('chat.resources.none')}</p>
            ) : (
              <ul className="chat-resources-list">
                {list.resources.map((resource) => (
                  <li key={resource.uri}>
                    <button
                      type="button"
                      className="chat-resource"
                      disabled={disabled}
                      title={resource.description || resource.uri}
                      onClick={() => onChoose(group.id, resource.uri)}
                    >
                      <span className="chat-resource-name">{resource.title ?? resource.name}</span>
                      <span className="chat-resource-meta">
                        {[
                          resource.mimeType,
                          resource.size === null ? null : formatFileSize(resource.size),
                        ]
                          .filter(Boolean)
                          .join(' · ')}
                      </span>
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </section>
        );
      })}
    </div>
  );
}
