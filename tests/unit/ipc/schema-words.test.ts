/**
 * The contract's own words: a schema's message for the person carries its key in main's `errors`
 * catalogue, its English text is that catalogue's English, and a refused request reaches the
 * page with the key so it reads in the person's language.
 */
import { describe, expect, it } from 'vitest';
import { createRouter } from '../../../electron/main/ipc/router';
import { errorText } from '../../../electron/main/services/words';
import { ROUTES } from '../../../electron/shared/ipc/contract';
import { promptDraftSchema } from '../../../electron/shared/ipc/routes/prompts';
import { fixedWordings, issueWords } from '../../../electron/shared/messages/worded';
import type { IpcError } from '../../../electron/shared/ipc/define';
import type { ErrorMessageKey, MessageValues } from '../../../electron/shared/messages/keys';

const sender = { url: 'app://relay/index.html', isMainFrame: true, webContentsId: 1 };

/** The page's reading of an error: formatted from its key in `locale`, else its message. */
function shown(error: IpcError, locale: 'en' | 'de' | 'ja'): string {
  return error.messageId === undefined
    ? error.message
    : errorText(locale, error.messageId as ErrorMessageKey, error.values as MessageValues);
}

function router() {
  const handlers = Object.fromEntries(Object.keys(ROUTES).map((name) => [name, () => undefined]));
  return createRouter(ROUTES, handlers as never, { isTrustedSender: () => true });
}

describe("the schemas' words", () => {
  it('are, for every fixed message, the English of their key in the catalogue', () => {
    const wordings = [...fixedWordings()];
    expect(wordings.length).toBeGreaterThan(60);
    for (const [english, ref] of wordings) {
      expect(errorText('en', ref.id, ref.values), ref.id).toBe(english);
    }
  });

  it("carry their key and values out of zod's issue", () => {
    const parsed = promptDraftSchema.safeParse({
      kind: 'assistant',
      name: 'x',
      text: 'y',
      tags: ['a'.repeat(41)],
    });
    expect(parsed.success).toBe(false);
    const issue = parsed.error!.issues.find((i) => i.path.includes('tags'))!;
    expect(issueWords(issue)).toEqual({ id: 'form.prompts.tagAtMost', values: { max: 40 } });
  });
});

describe('a request its schema refuses', () => {
  it("reaches the page with the field's words, in English as before and in German", async () => {
    const result = await router().dispatch(
      ROUTES.setProxy.channel,
      { proxy: { mode: 'manual', scheme: 'http', host: 'proxy.example.com', port: 0, bypass: [] } },
      sender,
    );
    expect(result.ok).toBe(false);
    const { error } = result as { ok: false; error: IpcError };
    expect(error).toMatchObject({
      kind: 'invalid_request',
      message: `The request to ${ROUTES.setProxy.channel} is not valid: proxy.port: The port is a number from 1 to 65535.`,
      messageId: 'form.requestInvalidAt',
      param: 'proxy.port',
    });
    expect(shown(error, 'en')).toBe(error.message);
    expect(shown(error, 'de')).toBe(
      `Die Anfrage an ${ROUTES.setProxy.channel} ist ungültig: proxy.port: Der Port ist eine Zahl von 1 bis 65535.`,
    );
  });

  it('carries the values of a refinement (the characters of an embeddings run)', async () => {
    const result = await router().dispatch(
      ROUTES.startEmbeddingRun.channel,
      { model: 'm', inputs: Array.from({ length: 300 }, () => 'x'.repeat(8000)) },
      sender,
    );
    const { error } = result as { ok: false; error: IpcError };
    expect(error.message).toMatch(
      /The texts hold 2400000 characters; one run takes at most \d+\.$/,
    );
    expect(shown(error, 'ja')).toMatch(/テキストの合計は 2400000 文字です。/);
  });

  it('names an unexpected field in the words of the page too', async () => {
    const result = await router().dispatch(
      ROUTES.setProxy.channel,
      { proxy: { mode: 'system' }, extra: 1 },
      sender,
    );
    const { error } = result as { ok: false; error: IpcError };
    expect(error.message).toBe(
      `The request to ${ROUTES.setProxy.channel} is not valid: unexpected field "extra"`,
    );
    expect(shown(error, 'de')).toBe(
      `Die Anfrage an ${ROUTES.setProxy.channel} ist ungültig: unerwartetes Feld "extra"`,
    );
  });
});
