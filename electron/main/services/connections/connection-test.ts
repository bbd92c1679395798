/**
 * "Test connection": GET /v1/models for an address and key that need not be saved yet.
 *
 * A typed key is the person's to send where they test; a saved key (an edit form that leaves the
 * key field empty) goes only to the origin it was saved for, and over plain http only by the
 * owner's saved choice or their yes now in main's dialog.
 */
import type { z } from 'zod';
import type { connectionTestDraftSchema } from '../../../shared/ipc/routes/connections';
import type { ErrorMessageKey, MessageValues } from '../../../shared/messages/keys';
import type { RelayErrorKind } from '../../../shared/relay-errors';
import { AppError } from '../app-error';
import type { CustomHeader } from '../relay/custom-headers';
import {
  createRelayClient,
  isRelayError,
  RelayError,
  resolveBaseUrl,
  type FetchLike,
  type RelayClient,
} from '../relay/relay-client';
import { said, wordsOf } from '../words';
import { checkTestDraft, originOf, splitHeaders } from './connection-input';
import type { ConnectionSecrets } from './secrets';
import type { Connection, ConnectionsStore } from './store';

/** An address and key to try before saving; `id` lets an edit form test with the saved key. */
export type ConnectionDraft = z.input<typeof connectionTestDraftSchema>;

export type ConnectionTestResult =
  | { ok: true; requestUrl: string; modelCount: number }
  | {
      ok: false;
      requestUrl?: string;
      error: {
        kind: RelayErrorKind;
        message: string;
        /** The message's key in main's catalogue and its values (the page formats it). */
        messageId?: ErrorMessageKey;
        values?: MessageValues | undefined;
        status?: number;
        code?: string;
      };
    };

type TestFailure = Extract<ConnectionTestResult, { ok: false }>['error'];

export interface ConnectionTestDeps {
  store: Pick<ConnectionsStore, 'read'>;
  secrets: Pick<ConnectionSecrets, 'key' | 'headerSecrets' | 'headersToSend'>;
  fetch: FetchLike | undefined;
  /** How long the test waits for the relay's headers. */
  timeoutMs: number;
  /** The person's own agreement, in a dialog from main, to send a key unencrypted. */
  agreeUnencrypted: (baseUrl: string) => Promise<boolean>;
}

export async function testConnection(
  deps: ConnectionTestDeps,
  draft: ConnectionDraft,
): Promise<ConnectionTestResult> {
  const valid = checkTestDraft(draft);
  try {
    resolveBaseUrl(valid.baseUrl);
  } catch (error) {
    return { ok: false, error: testError(error) };
  }
  const draftOrigin = originOf(valid.baseUrl);
  let saved: Connection | undefined;
  let withheldFrom: string | undefined;
  if (!valid.apiKey && valid.id !== undefined) {
    const connection = (await deps.store.read()).connections.find((c) => c.id === valid.id);
    if (connection !== undefined) {
      if (originOf(connection.baseUrl) === draftOrigin) saved = connection;
      else withheldFrom = originOf(connection.baseUrl);
    }
  }
  // The page asking is not enough to send a saved key in the clear: the owner's choice is.
  const allowKeyInClear =
    saved !== undefined
      ? saved.allowUnencrypted === true ||
        (valid.allowUnencrypted === true && (await deps.agreeUnencrypted(valid.baseUrl)))
      : valid.allowUnencrypted === true;
  // Typed headers as given; a secret one left empty takes the saved value, on the same origin.
  let headers: CustomHeader[] | (() => Promise<CustomHeader[]>) | undefined;
  if (valid.headers !== undefined) {
    const drafts = valid.headers;
    headers = async () => {
      const savedSecrets = saved ? await deps.secrets.headerSecrets(saved.id, draftOrigin) : {};
      let split: ReturnType<typeof splitHeaders>;
      try {
        split = splitHeaders(
          drafts,
          savedSecrets,
          withheldFrom === undefined ? undefined : { origin: withheldFrom },
        );
      } catch (error) {
        if (!(error instanceof AppError) || error.kind !== 'invalid_request') throw error;
        throw new RelayError('bad_request', said('relay.nothingSent', { reason: wordsOf(error) }), {
          code: 'header_missing',
        });
      }
      const { stored, secrets } = split;
      return stored.map((h) => ({
        name: h.name,
        value: h.secret ? (secrets[h.name] ?? '') : (h.value ?? ''),
        secret: h.secret,
      }));
    };
  } else if (saved !== undefined) {
    const connection = saved;
    headers = () => deps.secrets.headersToSend(connection);
  }
  let client: RelayClient;
  try {
    client = createRelayClient({
      baseUrl: valid.baseUrl,
      apiKey:
        valid.apiKey ??
        (async () => (saved ? await deps.secrets.key(saved.id, draftOrigin) : undefined) ?? ''),
      allowKeyInClear,
      ...(headers === undefined ? {} : { headers }),
      maxRetries: 0,
      timeoutMs: deps.timeoutMs,
      ...(deps.fetch ? { fetch: deps.fetch } : {}),
    });
  } catch (error) {
    return { ok: false, error: testError(error) };
  }
  const requestUrl = client.endpointUrl('models');
  try {
    const models = await client.listModels();
    return { ok: true, requestUrl, modelCount: models.length };
  } catch (error) {
    const failure = testError(error);
    if (withheldFrom !== undefined && failure.kind === 'unauthorized') {
      const withheld = said('connections.keyWithheld', {
        from: withheldFrom,
        to: draftOrigin,
        reason: wordsOf(failure),
      });
      failure.message = withheld.english;
      failure.messageId = withheld.id;
      failure.values = withheld.values;
    }
    return { ok: false, requestUrl, error: failure };
  }
}

function testError(error: unknown): TestFailure {
  if (isRelayError(error)) {
    const result: TestFailure = { kind: error.kind, message: error.message };
    if (error.messageId !== undefined) result.messageId = error.messageId;
    if (error.values !== undefined) result.values = error.values;
    if (error.status !== undefined) result.status = error.status;
    if (error.code !== undefined) result.code = error.code;
    return result;
  }
  if (error instanceof AppError) {
    return {
      kind: 'unauthorized',
      message: error.message,
      ...(error.messageId !== undefined ? { messageId: error.messageId } : {}),
      ...(error.values !== undefined ? { values: error.values } : {}),
    };
  }
  const failed = said('connections.testNotRun');
  return { kind: 'network', message: failed.english, messageId: failed.id };
}
