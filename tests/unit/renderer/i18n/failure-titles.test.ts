/**
 * The headings of relay failures, as every screen shows them (RelayFailure, the connection test,
 * the sidebar's health): by kind, in the language shown, with the HTTP status when there was one.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '../../../../renderer/src/i18n/i18n';
import shellDe from '../../../../renderer/src/i18n/messages/de/shell.json';
import { failureHeading, failureOf, failureTitle } from '../../../../renderer/src/lib/errors';

afterEach(() => i18n.activate('en'));

describe('failure headings', () => {
  it('names each kind, and an address that never reached a relay', () => {
    expect(failureTitle({ kind: 'network' })).toBe('The relay could not be reached');
    expect(failureTitle({ kind: 'bad_request' })).toBe('The address is not valid');
    expect(failureTitle({ kind: 'bad_request', status: 400 })).toBe(
      'The relay refused the request',
    );
    expect(failureTitle({ kind: 'constructor' })).toBe('Something went wrong');
    expect(failureHeading({ kind: 'server_error', status: 503 })).toBe(
      'The relay had a problem (HTTP 503)',
    );
  });

  it('says them in the language shown', () => {
    i18n.load('de', shellDe);
    i18n.activate('de');
    expect(failureHeading({ kind: 'unauthorized', status: 401 })).toBe(
      'Der Schlüssel wurde abgelehnt (HTTP 401)',
    );
    expect(failureOf({}).message).toBe('Etwas ist schiefgelaufen.');
  });
});
