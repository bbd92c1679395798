/**
 * Main's messages as the page shows them: formatted from their key and values in the language
 * shown now, so a stored error follows a language change; an error kept by the previous release
 * (English text only), or with a key this build does not know, shows its text as it is.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import deErrors from '../../../../electron/shared/messages/de/errors.json';
import enErrors from '../../../../electron/shared/messages/en/errors.json';
import jaErrors from '../../../../electron/shared/messages/ja/errors.json';
import { i18n } from '../../../../renderer/src/i18n/i18n';
import { failureOf, mainMessageText } from '../../../../renderer/src/lib/errors';

beforeAll(() => {
  i18n.load({ en: enErrors, de: deErrors, ja: jaErrors });
});
afterEach(() => i18n.activate('en'));

/** A failed reply's error as main stores it now: key, values, and the English text. */
const stored = {
  kind: 'unauthorized',
  message: 'The relay did not accept the API key (HTTP 401). Check the key and enter it again.',
  messageId: 'relay.http.unauthorized',
};

describe('main’s messages in the page', () => {
  it('shows a stored error in the language shown now, not the one it happened in', () => {
    i18n.activate('en');
    expect(mainMessageText(stored)).toBe(stored.message);
    i18n.activate('de');
    expect(mainMessageText(stored)).toBe(
      'Das Relay hat den API-Schlüssel nicht angenommen (HTTP 401). Prüfen Sie den Schlüssel und geben Sie ihn erneut ein.',
    );
    i18n.activate('ja');
    expect(mainMessageText(stored)).toMatch(/^リレーが API キーを受け付けませんでした/);
  });

  it('fills in values, and formats a message inside a message first', () => {
    i18n.activate('de');
    expect(
      mainMessageText({
        message: 'The relay failed to answer (HTTP 502). The answer was a web page…',
        messageId: 'relay.http.webPageBehind',
        values: { reason: { id: 'relay.http.serverError', values: { status: 502 } } },
      }),
    ).toBe(
      'Das Relay konnte nicht antworten (HTTP 502). Die Antwort war eine Webseite, kein Fehler des Relays: Möglicherweise liegt ein Proxy oder Gateway dazwischen.',
    );
  });

  it('shows an error kept by the previous release (English text, no key) as it was written', () => {
    i18n.activate('de');
    const old = { kind: 'server_error', message: 'The relay failed to answer (HTTP 500).' };
    expect(mainMessageText(old)).toBe('The relay failed to answer (HTTP 500).');
  });

  it('shows the text when the key is unknown to this build, never the key itself', () => {
    i18n.activate('de');
    expect(mainMessageText({ message: 'Something newer.', messageId: 'relay.fromTheFuture' })).toBe(
      'Something newer.',
    );
  });

  it('says several messages said at once each in the page’s language, in order', () => {
    const part = (name: string) => ({
      message: `${name} was not sent: it is no longer there (moved or deleted since it was chosen).`,
      messageId: 'documents.notSent',
      values: { name, why: { id: 'documents.why.missing' } },
    });
    const refused = {
      kind: 'invalid_request',
      message: `${part('a.txt').message} ${part('b.txt').message}`,
      parts: [part('a.txt'), part('b.txt')],
    };
    i18n.activate('de');
    const failure = failureOf(refused);
    expect(failure.message).toMatch(
      /^a\.txt wurde nicht gesendet: .+\. b\.txt wurde nicht gesendet: /,
    );
    // Kept with its parts, it follows a later change of language.
    i18n.activate('en');
    expect(mainMessageText(failure)).toBe(refused.message);
    // A part without a key shows its text as it is.
    i18n.activate('de');
    expect(
      mainMessageText({ message: 'x', parts: [{ message: 'Old words.' }, part('c.txt')] }),
    ).toMatch(/^Old words\. c\.txt wurde nicht gesendet: /);
  });

  it('gives a failed call’s message in the page’s language', () => {
    i18n.activate('de');
    expect(failureOf({ ...stored }).message).toMatch(/^Das Relay hat den API-Schlüssel/);
    expect(failureOf({ kind: 'network', message: 'Could not reach x.' }).message).toBe(
      'Could not reach x.',
    );
  });
});
