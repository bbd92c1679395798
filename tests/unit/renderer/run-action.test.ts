/**
 * The page's one error path: a call to main run with `runAction` answers its value, or its
 * failure with every field main sent (kind, status, the message's key and values, its parts, the
 * refused field), from the plain data the preload resolves with.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import deErrors from '../../../electron/shared/messages/de/errors.json';
import enErrors from '../../../electron/shared/messages/en/errors.json';
import type { IpcError, IpcResult } from '../../../electron/shared/ipc/define';
import { i18n } from '../../../renderer/src/i18n/i18n';
import { requireBridge } from '../../../renderer/src/lib/relay-bridge';
import { runAction } from '../../../renderer/src/lib/run-action';

beforeAll(() => i18n.load({ en: enErrors, de: deErrors }));
afterEach(() => {
  vi.unstubAllGlobals();
  i18n.activate('en');
});

/** `window.relay` whose routes resolve with `answer` as the preload does: plain, copied data. */
function exposeAnswer(answer: IpcResult<unknown>) {
  const route = async () => Object.freeze(structuredClone(answer));
  vi.stubGlobal('window', { relay: { listModels: route, createConnection: route } });
}

const refused: IpcError = {
  kind: 'bad_request',
  status: 400,
  message: 'The relay refused the request as invalid (HTTP 400).',
  messageId: 'relay.http.badRequest',
  values: { status: 400 },
  param: 'temperature',
};

describe('runAction', () => {
  it('hands a failure from main to the page whole: kind, status, key, values and field', async () => {
    i18n.activate('en');
    exposeAnswer({ ok: false, error: refused });
    const outcome = await runAction(() => requireBridge().listModels());
    expect(outcome).toEqual({
      ok: false,
      failure: {
        kind: 'bad_request',
        status: 400,
        message: 'The relay refused the request as invalid (HTTP 400).',
        messageId: 'relay.http.badRequest',
        values: { status: 400 },
        param: 'temperature',
      },
    });
  });

  it("says main's message in the page's language, from its key and values", async () => {
    i18n.activate('de');
    exposeAnswer({ ok: false, error: refused });
    const outcome = await runAction(() => requireBridge().listModels());
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.failure.message).toBe(i18n._('relay.http.badRequest', { status: 400 }));
    expect(outcome.failure.message).not.toBe(refused.message);
  });

  it('keeps each part of a failure that says several things at once', async () => {
    const parts = [
      {
        message: 'Send at most 10 files with one message.',
        messageId: 'attachments.tooMany',
        values: { max: 10 },
      },
      { message: 'That file is no longer in the app.', messageId: 'attachments.gone' },
    ];
    exposeAnswer({
      ok: false,
      error: {
        kind: 'invalid_request',
        message: parts.map((p) => p.message).join(' '),
        parts,
      },
    });
    const outcome = await runAction(() => requireBridge().listModels());
    expect(outcome).toMatchObject({
      ok: false,
      failure: { kind: 'invalid_request', parts, message: parts.map((p) => p.message).join(' ') },
    });
  });

  it('answers the value of a call that succeeds', async () => {
    exposeAnswer({ ok: true, value: { models: [] } });
    expect(await runAction(() => requireBridge().listModels())).toEqual({
      ok: true,
      value: { models: [] },
    });
  });

  it('turns a call that throws before reaching main into a failure, not a rejection', async () => {
    vi.stubGlobal('window', {});
    const outcome = await runAction(() => requireBridge().listModels());
    expect(outcome).toEqual({
      ok: false,
      failure: { kind: 'internal', message: 'This page is not running inside Relay Desktop.' },
    });
  });
});
