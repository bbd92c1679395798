/**
 * The headings of relay failures, as every screen shows them (RelayFailure, the connection test,
 * the sidebar's health): by kind, in the language shown, with the HTTP status when there was one;
 * and a form field's problem from a refused request.
 */
import { afterEach, describe, expect, it } from 'vitest';
import deErrors from '../../../../electron/shared/messages/de/errors.json';
import { i18n } from '../../../../renderer/src/i18n/i18n';
import shellDe from '../../../../renderer/src/i18n/messages/de/shell.json';
import {
  failureHeading,
  failureOf,
  failureTitle,
  fieldProblemText,
} from '../../../../renderer/src/lib/errors';

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

describe("a form field's problem from a refused request", () => {
  const refused = {
    kind: 'invalid_request',
    message:
      'The request to network:set-proxy is not valid: proxy.port: The port is a number from 1 to 65535.',
    messageId: 'form.requestInvalidAt',
    values: {
      channel: 'network:set-proxy',
      param: 'proxy.port',
      detail: { id: 'form.network.portRange' },
    },
    param: 'proxy.port',
  };

  it('is the schema’s words alone, in English', () => {
    i18n.activate('en');
    expect(fieldProblemText(failureOf(refused))).toBe('The port is a number from 1 to 65535.');
  });

  it('is the schema’s words alone, in German', () => {
    i18n.load('de', { ...shellDe, ...deErrors });
    i18n.activate('de');
    expect(fieldProblemText(failureOf(refused))).toBe('Der Port ist eine Zahl von 1 bis 65535.');
  });

  it('is the text after the field when main gave no key (an older main)', () => {
    i18n.load('de', { ...shellDe, ...deErrors });
    i18n.activate('de');
    const { messageId: _id, values: _values, ...old } = refused;
    expect(fieldProblemText(failureOf(old))).toBe('The port is a number from 1 to 65535.');
  });
});
