import { useEffect, useState } from 'react';
import { Badge, type BadgeTone } from '../../components/badge';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { EmptyState } from '../../components/empty-state';
import { Notice } from '../../components/notice';
import { ReadFailure } from '../../components/read-failure';
import { Spinner } from '../../components/spinner';
import { useT, type MessageKey } from '../../i18n/i18n';
import { failureOf, useMainMessageText } from '../../lib/errors';
import { showToast } from '../../lib/toasts';
import { ServerFormSection } from './server-form';
import {
  importServers,
  removeServer,
  setServerRule,
  setToolEnabled,
  setToolRule,
  stopServer,
  testServer,
} from './tools-actions';
import {
  loadServers,
  useToolsStore,
  watchServers,
  type McpImportResult,
  type McpRule,
  type McpServer,
  type McpTestResult,
} from './tools-store';
import './tools.css';

const RULES: readonly McpRule[] = ['ask', 'allow', 'deny'];
const RULE_NAMES = {
  ask: 'tools.rule.ask',
  allow: 'tools.rule.allow',
  deny: 'tools.rule.deny',
} as const satisfies Record<McpRule, MessageKey>;
const STANDING_NAMES = {
  ask: 'tools.permissions.ruleAsk',
  allow: 'tools.permissions.ruleAllow',
  deny: 'tools.permissions.ruleDeny',
} as const satisfies Record<McpRule, MessageKey>;
const STATE_TONES: Record<McpServer['state'], BadgeTone> = {
  stopped: 'neutral',
  starting: 'accent',
  running: 'success',
  restarting: 'warning',
  failed: 'warning',
};

/** Runs a change; a refusal is said in a toast. */
async function act(run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (error) {
    showToast(failureOf(error).message, { tone: 'error' });
  }
}

/**
 * MCP servers and their tools: what each runs, its state and why it stopped, its tools (each on or
 * off, each with its rule) and what they cost in every request, and every standing permission.
 */
export function ToolsScreen() {
  const servers = useToolsStore((s) => s.servers);
  const status = useToolsStore((s) => s.status);
  const failure = useToolsStore((s) => s.failure);
  const [editing, setEditing] = useState<'new' | string | undefined>();
  const [removing, setRemoving] = useState<McpServer | undefined>();
  const [imported, setImported] = useState<
    { ok: true; result: McpImportResult } | { ok: false; message: string } | undefined
  >();
  const t = useT();

  useEffect(() => {
    void loadServers();
    return watchServers();
  }, []);

  async function importFile() {
    try {
      const result = await importServers();
      setImported(result.chosen ? { ok: true, result } : undefined);
      if (result.added.length > 0) void loadServers();
    } catch (error) {
      setImported({ ok: false, message: failureOf(error).message });
    }
  }

  const edited = editing && editing !== 'new' ? servers.find((s) => s.id === editing) : undefined;

  return (
    <div className="page tools-page">
      <header className="page-header">
        <div>
          <h1 className="page-title">{t('tools.title')}</h1>
          <p className="page-lead">{t('tools.lead')}</p>
        </div>
        <div className="page-header-actions">
          <button type="button" className="button" onClick={() => void importFile()}>
            {t('tools.import')}
          </button>
          <button type="button" className="button button-primary" onClick={() => setEditing('new')}>
            {t('tools.add')}
          </button>
        </div>
      </header>

      {imported && <ImportNotice outcome={imported} onClose={() => setImported(undefined)} />}

      {editing !== undefined && (editing === 'new' || edited) && (
        <ServerFormSection
          key={editing}
          server={edited}
          onDone={() => {
            setEditing(undefined);
            void loadServers();
          }}
        />
      )}

      {status === 'loading' && (
        <p className="muted">
          <Spinner label={t('tools.loading.label')} /> {t('tools.loading')}
        </p>
      )}
      {status === 'failed' && failure && (
        <ReadFailure
          title={t('tools.unreadable')}
          message={failure.message}
          onRetry={() => void loadServers()}
        />
      )}
      {status === 'ready' && servers.length === 0 && editing === undefined && (
        <EmptyState
          title={t('tools.empty.title')}
          actions={
            <button
              type="button"
              className="button button-primary"
              onClick={() => setEditing('new')}
            >
              {t('tools.add')}
            </button>
          }
        >
          <p>{t('tools.empty.body')}</p>
        </EmptyState>
      )}
      {status === 'ready' && servers.length > 0 && (
        <>
          <ul className="tools-servers">
            {servers.map((server) => (
              <ServerCard
                key={server.id}
                server={server}
                onEdit={() => setEditing(server.id)}
                onRemove={() => setRemoving(server)}
              />
            ))}
          </ul>
          <StandingPermissions servers={servers} />
        </>
      )}

      <ConfirmDialog
        open={removing !== undefined}
        title={t('tools.remove.title', { name: removing?.name ?? '' })}
        confirmLabel={t('tools.remove.confirm')}
        danger
        onConfirm={() => {
          const server = removing;
          setRemoving(undefined);
          if (server === undefined) return;
          if (editing === server.id) setEditing(undefined);
          void act(() => removeServer(server.id));
        }}
        onCancel={() => setRemoving(undefined)}
      >
        <p>{t('tools.remove.body')}</p>
      </ConfirmDialog>
    </div>
  );
}

function stateText(server: McpServer, t: ReturnType<typeof useT>): string {
  if (server.state === 'restarting')
    return server.restartInMs !== null && server.restartInMs > 0
      ? t('tools.state.restarting', { seconds: Math.ceil(server.restartInMs / 1000) })
      : t('tools.state.restartingSoon');
  return t(`tools.state.${server.state}`);
}

function commandLine(server: McpServer): string {
  return [server.command ?? '', ...server.args.map((a) => (/\s/.test(a) ? `"${a}"` : a))].join(' ');
}

function ServerCard({
  server,
  onEdit,
  onRemove,
}: {
  server: McpServer;
  onEdit(): void;
  onRemove(): void;
}) {
  const [testing, setTesting] = useState(false);
  const [tested, setTested] = useState<McpTestResult | undefined>();
  const t = useT();
  const mainText = useMainMessageText();
  const local = server.transport === 'stdio';
  const headingId = `tools-server-${server.id}`;
  const enabled = server.tools.filter((tool) => tool.enabled).length;
  const own = new Map(server.toolRules.map((r) => [r.tool, r.rule]));

  async function test() {
    setTesting(true);
    setTested(undefined);
    try {
      setTested(await testServer(server.id));
    } catch (error) {
      showToast(failureOf(error).message, { tone: 'error' });
    } finally {
      setTesting(false);
    }
  }

  return (
    <li className="tools-server" aria-labelledby={headingId}>
      <div className="tools-server-head">
        <h2 className="tools-server-name" id={headingId}>
          {server.name}
        </h2>
        <Badge>{t(local ? 'tools.kind.local' : 'tools.kind.remote')}</Badge>
        <span
          className="tools-state"
          data-state={server.state}
          role="status"
          aria-label={t('tools.state.label', { state: stateText(server, t) })}
        >
          <Badge tone={STATE_TONES[server.state]}>{stateText(server, t)}</Badge>
        </span>
        {server.serverInfo && (
          <span className="muted small">
            {t('tools.server.info', {
              name: server.serverInfo.name,
              version: server.serverInfo.version,
            })}
          </span>
        )}
      </div>
      <p className="tools-server-target">
        <code>{local ? commandLine(server) : server.url}</code>
      </p>
      {local && <p className="tools-server-rights small">{t('tools.server.rights')}</p>}

      <div className="tools-server-actions">
        <button
          type="button"
          className="button button-small button-primary"
          aria-label={t('tools.server.test.label', { name: server.name })}
          disabled={testing}
          onClick={() => void test()}
        >
          {testing ? t('tools.server.testing') : t('tools.server.test')}
        </button>
        {(server.state === 'running' || server.state === 'restarting') && (
          <button
            type="button"
            className="button button-small"
            aria-label={t('tools.server.stop.label', { name: server.name })}
            onClick={() => void act(() => stopServer(server.id))}
          >
            {t('tools.server.stop')}
          </button>
        )}
        <button
          type="button"
          className="button button-small"
          aria-label={t('tools.server.edit.label', { name: server.name })}
          onClick={onEdit}
        >
          {t('tools.server.edit')}
        </button>
        <button
          type="button"
          className="button button-small button-quiet-danger"
          aria-label={t('tools.server.remove.label', { name: server.name })}
          onClick={onRemove}
        >
          {t('tools.server.remove')}
        </button>
      </div>

      {tested && (
        <Notice
          tone={tested.ok ? 'success' : 'error'}
          className="tools-test"
          title={
            tested.ok
              ? t('tools.test.ok', {
                  count: tested.tools,
                  seconds: Math.round(tested.durationMs / 100) / 10,
                })
              : t('tools.test.failed')
          }
          actions={
            <button
              type="button"
              className="button button-small"
              onClick={() => setTested(undefined)}
            >
              {t('tools.test.close')}
            </button>
          }
        >
          {tested.problem && <p className="failure-message">{mainText(tested.problem)}</p>}
        </Notice>
      )}
      {!tested &&
        server.problem &&
        (server.state === 'failed' || server.state === 'restarting') && (
          <Notice tone="warning" title={t('tools.server.problem')} className="tools-problem">
            <p className="failure-message">{mainText(server.problem)}</p>
          </Notice>
        )}

      <label className="tools-rule">
        <span className="field-label">{t('tools.rule.label', { name: server.name })}</span>
        <select
          className="select select-small"
          value={server.rule}
          onChange={(event) =>
            void act(() => setServerRule(server.id, event.target.value as McpRule))
          }
        >
          {RULES.map((rule) => (
            <option key={rule} value={rule}>
              {t(RULE_NAMES[rule])}
            </option>
          ))}
        </select>
      </label>

      <section className="tools-list" aria-label={t('tools.tools.title', { name: server.name })}>
        {!server.toolsListed ? (
          <p className="muted small">{t('tools.tools.notListed')}</p>
        ) : server.tools.length === 0 ? (
          <p className="muted small">{t('tools.tools.none')}</p>
        ) : (
          <>
            <p className="tools-cost small">
              {t('tools.tools.summary', {
                on: enabled,
                count: server.tools.length,
                tokens: server.toolTokens,
              })}
            </p>
            <ul className="tools-tools">
              {server.tools.map((tool) => (
                <li key={tool.name} className="tools-tool" data-enabled={tool.enabled || undefined}>
                  <label className="tools-tool-switch">
                    <input
                      type="checkbox"
                      checked={tool.enabled}
                      onChange={(event) =>
                        void act(() => setToolEnabled(server.id, tool.name, event.target.checked))
                      }
                    />{' '}
                    <span className="visually-hidden">
                      {t('tools.tool.offer', { tool: tool.name })}
                    </span>
                    <code className="tools-tool-name" aria-hidden="true">
                      {tool.name}
                    </code>
                  </label>
                  <span className="tools-tool-about">
                    {tool.description && (
                      <span className="tools-tool-description muted small">{tool.description}</span>
                    )}
                    <span className="tools-tool-meta small">
                      {t('tools.tool.tokens', { tokens: tool.tokens })}
                      {tool.destructive === true && (
                        <Badge tone="warning">{t('tools.tool.destructive')}</Badge>
                      )}
                      {tool.readOnly === true && <Badge>{t('tools.tool.readOnly')}</Badge>}
                    </span>
                  </span>
                  <select
                    className="select select-small tools-tool-rule"
                    aria-label={t('tools.rule.toolLabel', { tool: tool.name })}
                    value={own.get(tool.name) ?? ''}
                    onChange={(event) =>
                      void act(() =>
                        setToolRule(
                          server.id,
                          tool.name,
                          event.target.value === '' ? null : (event.target.value as McpRule),
                        ),
                      )
                    }
                  >
                    <option value="">
                      {t('tools.rule.default', { rule: t(RULE_NAMES[server.rule]) })}
                    </option>
                    {RULES.map((rule) => (
                      <option key={rule} value={rule}>
                        {t(RULE_NAMES[rule])}
                      </option>
                    ))}
                  </select>
                </li>
              ))}
            </ul>
          </>
        )}
      </section>

      {server.errorOutput.length > 0 && (
        <details className="tools-output">
          <summary>{t('tools.output.title', { count: server.errorOutput.length })}</summary>
          <pre tabIndex={0}>{server.errorOutput.slice(-20).join('\n')}</pre>
        </details>
      )}
    </li>
  );
}

/** Every rule that decides calls without asking, each revocable. */
function StandingPermissions({ servers }: { servers: McpServer[] }) {
  const t = useT();
  const rows = servers.flatMap((server) => [
    ...(server.rule === 'ask'
      ? []
      : [
          {
            key: `${server.id}:`,
            text: t('tools.permissions.server', {
              name: server.name,
              rule: t(STANDING_NAMES[server.rule]),
            }),
            revoke: () => setServerRule(server.id, 'ask'),
          },
        ]),
    ...server.toolRules.map(({ tool, rule }) => ({
      key: `${server.id}:${tool}`,
      text: t('tools.permissions.tool', {
        tool,
        name: server.name,
        rule: t(STANDING_NAMES[rule]),
      }),
      revoke: () => setToolRule(server.id, tool, null),
    })),
  ]);
  return (
    <section className="tools-permissions" aria-labelledby="tools-permissions-title">
      <h2 className="tools-section-title" id="tools-permissions-title">
        {t('tools.permissions.title')}
      </h2>
      <p className="muted small">{t('tools.permissions.lead')}</p>
      {rows.length === 0 ? (
        <p className="muted">{t('tools.permissions.none')}</p>
      ) : (
        <ul className="tools-permission-list">
          {rows.map((row) => (
            <li key={row.key} className="tools-permission">
              <span>{row.text}</span>
              <button
                type="button"
                className="button button-small"
                aria-label={t('tools.permissions.revoke.label', { rule: row.text })}
                onClick={() => void act(row.revoke)}
              >
                {t('tools.permissions.revoke')}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function ImportNotice({
  outcome,
  onClose,
}: {
  outcome: { ok: true; result: McpImportResult } | { ok: false; message: string };
  onClose(): void;
}) {
  const t = useT();
  const mainText = useMainMessageText();
  const close = (
    <button type="button" className="button button-small" onClick={onClose}>
      {t('tools.import.close')}
    </button>
  );
  if (!outcome.ok)
    return (
      <Notice tone="error" title={t('tools.import.failed')} actions={close}>
        <p className="failure-message">{outcome.message}</p>
      </Notice>
    );
  const { result } = outcome;
  return (
    <Notice
      tone={result.refused.length > 0 ? 'warning' : 'success'}
      title={t('tools.import.done', { added: result.added.length })}
      actions={close}
    >
      {result.secrets > 0 && <p>{t('tools.import.secrets', { count: result.secrets })}</p>}
      {result.refused.length > 0 && (
        <>
          <p>{t('tools.import.refused', { count: result.refused.length })}</p>
          <ul className="tools-refused">
            {result.refused.map((r, i) => (
              <li key={i}>
                {t('tools.import.refusedEntry', {
                  entry: r.entry,
                  reason: mainText({ ...r, message: r.reason }),
                })}
              </li>
            ))}
          </ul>
        </>
      )}
    </Notice>
  );
}
