/**
 * What a failed reply keeps, in chat and in quick ask alike: the relay's fields and the words'
 * key and values, so the page says the failure in the person's language with its remedy.
 */
import { expect, it } from 'vitest';
import { replyErrorOf } from '../../../../electron/main/services/chat/reply-error';
import { RelayError } from '../../../../electron/main/services/relay/relay-error';
import { said } from '../../../../electron/main/services/words';

it('keeps the kind, status, param, retry delay, message key and values of the relay’s error', () => {
  const error = new RelayError('bad_response', said('relay.chat.notJson', { host: 'relay.test' }), {
    status: 502,
    param: 'model',
    retryAfterMs: 2_000,
    partialText: 'Hello',
  });
  expect(replyErrorOf(error)).toEqual({
    kind: 'bad_response',
    message: error.message,
    status: 502,
    param: 'model',
    retryAfterMs: 2_000,
    messageId: 'relay.chat.notJson',
    values: { host: 'relay.test' },
  });
});

it('names any other failure as the app’s own, with no detail of it, in words of the catalogue', () => {
  expect(replyErrorOf(new Error('secret detail'))).toEqual({
    kind: 'internal',
    message: 'Something went wrong in the app while asking for a reply.',
    messageId: 'app.fault.reply',
  });
});
