/**
 * The page's headings above a failure, and a form field's problem, in the language shown now.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import deErrors from '../../../../electron/shared/messages/de/errors.json';
import deShell from '../../../../renderer/src/i18n/messages/de/shell.json';
import enShell from '../../../../renderer/src/i18n/messages/en/shell.json';
import frShell from '../../../../renderer/src/i18n/messages/fr/shell.json';
import { i18n } from '../../../../renderer/src/i18n/i18n';
import { failureOf, failureTitle, fieldProblemText } from '../../../../renderer/src/lib/errors';

beforeAll(() => {
  i18n.load({ en: { ...enShell }, de: { ...deShell, ...deErrors }, fr: frShell });
});
afterEach(() => i18n.activate('en'));

describe('the heading of a failure', () => {
  it('keeps its English words', () => {
    i18n.activate('en');
    expect(failureTitle({ kind: 'unauthorized' })).toBe('The key was refused');
    expect(failureTitle({ kind: 'bad_request' })).toBe('The address is not valid');
    expect(failureTitle({ kind: 'bad_request', status: 400 })).toBe(
      'The relay refused the request',
    );
    expect(failureTitle({ kind: 'something new' })).toBe('Something went wrong');
  });

  it('follows the language shown now', () => {
    i18n.activate('de');
    expect(failureTitle({ kind: 'insufficient_balance' })).toBe('Das Guthaben ist aufgebraucht');
    expect(failureTitle({ kind: 'invalid_request' })).toBe('Prüfen Sie das Formular');
    i18n.activate('fr');
    expect(failureTitle({ kind: 'unauthorized' })).toBe('La clé a été refusée');
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
    i18n.activate('de');
    expect(fieldProblemText(failureOf(refused))).toBe('Der Port ist eine Zahl von 1 bis 65535.');
  });

  it('is the text after the field when main gave no key (an older main)', () => {
    i18n.activate('de');
    const { messageId: _id, values: _values, ...old } = refused;
    expect(fieldProblemText(failureOf(old))).toBe('The port is a number from 1 to 65535.');
  });
});
