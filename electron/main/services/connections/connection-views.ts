/**
 * The connections as the page sees them: each summary says whether it is the connection in use,
 * every change is announced (`connectionsChanged`), and a deleted connection's health and the
 * records kept for it elsewhere (its model list) go with it.
 */
import type { Emit } from '../../../shared/ipc/contract';
import { logConnectionTest, type AppLog } from '../log';
import type { ConnectionHealthTracker } from './connection-health';
import type { ConnectionDraft } from './connection-test';
import type { ConnectionsService } from './connections';
import type { ConnectionChanges, ConnectionSummary, NewConnection } from './types';

export class ConnectionViews {
  readonly #connections: ConnectionsService;
  readonly #health: ConnectionHealthTracker;
  readonly #emit: Emit;
  readonly #log: AppLog;
  readonly #onDelete: Array<(id: string) => Promise<void> | void> = [];

  constructor(
    connections: ConnectionsService,
    health: ConnectionHealthTracker,
    emit: Emit,
    log: AppLog,
  ) {
    this.#connections = connections;
    this.#health = health;
    this.#emit = emit;
    this.#log = log;
  }

  /** Forgets what another domain keeps for a connection when the connection is deleted. */
  onDelete(forget: (id: string) => Promise<void> | void): void {
    this.#onDelete.push(forget);
  }

  async list() {
    const activeId = await this.#connections.activeId();
    return (await this.#connections.list()).map((summary) => shown(summary, activeId));
  }

  async create(draft: NewConnection) {
    return this.#changed(await this.#withActive(await this.#connections.create(draft)));
  }

  async update(id: string, changes: ConnectionChanges) {
    return this.#changed(await this.#withActive(await this.#connections.update(id, changes)));
  }

  async delete(id: string): Promise<null> {
    await this.#connections.delete(id);
    for (const forget of this.#onDelete) await forget(id);
    this.#health.forget(id);
    return this.#changed(null);
  }

  async select(id: string) {
    await this.#connections.select(id);
    return this.#changed(await this.#withActive(await this.#connections.get(id)));
  }

  async startDemo() {
    return this.#changed(await this.#withActive(await this.#connections.startDemo()));
  }

  /** "Test connection", logged (the typed key is kept out of the log). */
  test(draft: ConnectionDraft) {
    return logConnectionTest(this.#log, draft, () => this.#connections.test(draft));
  }

  health() {
    return this.#health.list();
  }

  /** How keys are kept, as the page is told: without the failure's detail (for logs only). */
  keyStorage() {
    const { secure, persistent, backend, reason, messageId, values } =
      this.#connections.keyStorage();
    return reason === undefined
      ? { secure, persistent, backend }
      : {
          secure,
          persistent,
          backend,
          reason,
          ...(messageId !== undefined ? { messageId } : {}),
          ...(values !== undefined ? { values } : {}),
        };
  }

  async #withActive(summary: ConnectionSummary) {
    return shown(summary, await this.#connections.activeId());
  }

  #changed<T>(value: T): T {
    this.#emit('connectionsChanged', null);
    return value;
  }
}

/** A summary as the page sees it: whether it is the connection in use. */
function shown(summary: ConnectionSummary, activeId: string | undefined) {
  return { ...summary, isDemo: summary.isDemo ?? false, active: summary.id === activeId };
}
