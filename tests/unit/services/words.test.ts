/**
 * Main's words: an error carries its message's key and values with its English text, and the same
 * error reads in another language when formatted there; the menus' words follow main's language.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  AppError,
  errorInfo,
  nothingImported,
  refusal,
} from '../../../electron/main/services/app-error';
import { errorFromHttp, errorFromNetwork } from '../../../electron/main/services/relay/http-errors';
import {
  errorText,
  inMainLanguage,
  localeFor,
  mainLocale,
  nativeText,
  said,
  setMainLocale,
} from '../../../electron/main/services/words';
import type { IpcError } from '../../../electron/shared/ipc/define';

const noRedaction = (text: string) => text;

/** An error as the page receives it, formatted in `locale` as the page does. */
function shown(error: IpcError, locale: 'en' | 'de' | 'fr'): string {
  if (error.messageId === undefined) return error.message;
  type Args = Parameters<typeof errorText>;
  return errorText(locale, error.messageId as Args[1], error.values as Args[2]);
}

afterEach(() => setMainLocale('en'));

describe('an error of main, in two languages', () => {
  it('keeps the English words as its message and carries the key and values for the page', () => {
    const error = errorInfo(
      errorFromHttp(401, '', 'https://relay.example.com/v1/models', noRedaction),
    )!;
    expect(error).toMatchObject({
      kind: 'unauthorized',
      message: 'The relay did not accept the API key (HTTP 401). Check the key and enter it again.',
      messageId: 'relay.http.unauthorized',
    });
    expect(shown(error, 'de')).toBe(
      'Das Relay hat den API-Schlüssel nicht angenommen (HTTP 401). Prüfen Sie den Schlüssel und geben Sie ihn erneut ein.',
    );
    expect(shown(error, 'en')).toBe(error.message);
  });

  it('formats the values where they belong in each language, numbers and plurals included', () => {
    const error = errorInfo(errorFromHttp(502, '', 'https://relay.example.com', noRedaction))!;
    expect(error.values).toEqual({ status: 502 });
    expect(shown(error, 'de')).toBe('Das Relay konnte nicht antworten (HTTP 502).');
    expect(shown(error, 'fr')).toBe('Le relais n’a pas pu répondre (HTTP 502).');

    const one = said('relay.noAnswerWithin', { host: 'relay.example.com', seconds: 1 });
    const many = said('relay.noAnswerWithin', { host: 'relay.example.com', seconds: 15 });
    expect(one.english).toBe('relay.example.com did not answer within 1 second.');
    expect(many.english).toBe('relay.example.com did not answer within 15 seconds.');
    expect(errorText('de', one.id, one.values)).toBe(
      'relay.example.com hat nicht innerhalb von 1 Sekunde geantwortet.',
    );
    expect(errorText('de', many.id, many.values)).toBe(
      'relay.example.com hat nicht innerhalb von 15 Sekunden geantwortet.',
    );
  });

  it('formats a message inside a message (a reason) in the same language', () => {
    const error = errorInfo(
      errorFromHttp(
        503,
        '<!doctype html><html><body>Bad gateway</body></html>',
        'https://r.example.com',
        noRedaction,
      ),
    )!;
    expect(error.message).toBe(
      'The relay failed to answer (HTTP 503). The answer was a web page, not a relay error: a proxy or gateway may stand in between.',
    );
    expect(shown(error, 'de')).toBe(
      'Das Relay konnte nicht antworten (HTTP 503). Die Antwort war eine Webseite, kein Fehler des Relays: Möglicherweise liegt ein Proxy oder Gateway dazwischen.',
    );
  });

  it('shows the relay’s own words as it sent them, with no key to translate', () => {
    const error = errorInfo(
      errorFromHttp(
        400,
        '{"error":{"message":"model is required"}}',
        'https://r.example.com',
        noRedaction,
      ),
    )!;
    expect(error.message).toBe('model is required');
    expect(error.messageId).toBeUndefined();
    expect(shown(error, 'de')).toBe('model is required');
  });

  it('translates a network failure and keeps the host', () => {
    const error = errorInfo(
      errorFromNetwork(
        Object.assign(new Error('boom'), { code: 'ECONNREFUSED' }),
        'http://127.0.0.1:9/v1',
      ),
    )!;
    expect(error.message).toBe(
      '127.0.0.1:9 refused the connection. Is the relay running at this address and port?',
    );
    expect(shown(error, 'fr')).toBe(
      '127.0.0.1:9 a refusé la connexion. Le relais fonctionne-t-il à cette adresse et sur ce port ?',
    );
  });

  it('keeps an AppError written as plain English text (older code) with no key', () => {
    const error = errorInfo(new AppError('not_found', 'Gone.'))!;
    expect(error).toEqual({ kind: 'not_found', message: 'Gone.' });
  });

  it('names a refused file with its reason’s key, and says nothing was imported in one sentence', () => {
    const refused = refusal('notes.txt', said('import.chat.notJson', { name: 'notes.txt' }));
    expect(refused).toEqual({
      name: 'notes.txt',
      reason: 'notes.txt is not a JSON file, so it cannot be imported.',
      messageId: 'import.chat.notJson',
      values: { name: 'notes.txt' },
    });
    const nothing = nothingImported([refused]);
    expect(nothing.english).toBe(
      'notes.txt is not a JSON file, so it cannot be imported. Nothing was imported.',
    );
    expect(errorText('de', nothing.id, nothing.values)).toBe(
      'notes.txt ist keine JSON-Datei und kann daher nicht importiert werden. Es wurde nichts importiert.',
    );
    expect(nothingImported([]).english).toBe('Nothing was imported.');
  });
});

describe('main’s language', () => {
  it('follows the setting, else the system’s language; the test language shows English', () => {
    expect(localeFor('system', 'ja')).toBe('ja');
    expect(localeFor('de', 'ja')).toBe('de');
    expect(localeFor(undefined, 'fr')).toBe('fr');
    expect(localeFor('en-XA', 'fr')).toBe('en');
  });

  it('says a passing error (a retry countdown) in the language set now, the relay’s words as they came', () => {
    const error = errorFromHttp(503, '', 'https://relay.example.com', noRedaction);
    setMainLocale('es');
    expect(inMainLanguage(error)).toBe('El relay no pudo responder (HTTP 503).');
    const relays = errorFromHttp(503, '{"error":"busy"}', 'https://relay.example.com', noRedaction);
    expect(inMainLanguage(relays)).toBe('busy');
  });

  it('gives the menus’ and dialogs’ words in the language set now', () => {
    expect(nativeText('dialog.cancel')).toBe('Cancel');
    setMainLocale('de');
    expect(mainLocale()).toBe('de');
    expect(nativeText('dialog.cancel')).toBe('Abbrechen');
    expect(nativeText('tray.connection', { name: 'Demo relay' })).toBe('Verbindung: Demo relay');
    setMainLocale('zh-CN');
    expect(nativeText('dialog.exportConversations', { count: 2 })).toBe('导出对话');
    setMainLocale('en');
    expect(nativeText('dialog.exportConversations', { count: 1 })).toBe('Export the conversation');
    expect(nativeText('dialog.exportConversations', { count: 2 })).toBe('Export the conversations');
  });
});
