import { describe, expect, it } from 'vitest';
import { endpointUrl, resolveBaseUrl } from '../../../../electron/main/services/relay/base-url';
import { RelayError } from '../../../../electron/main/services/relay/relay-error';

describe('resolveBaseUrl', () => {
  it.each([
    'https://relay.example.com',
    'https://relay.example.com/',
    'https://relay.example.com/v1',
    'https://relay.example.com/v1/',
    '  https://relay.example.com/v1//  ',
    'HTTPS://Relay.Example.com/v1',
  ])('reads %j as the host, never producing /v1/v1', (input) => {
    const base = resolveBaseUrl(input);
    expect(endpointUrl(base, 'chat/completions')).toBe(
      'https://relay.example.com/v1/chat/completions',
    );
    expect(endpointUrl(base, 'models')).toBe('https://relay.example.com/v1/models');
  });

  it.each([
    ['https://h.example/openai', 'https://h.example/openai/v1/embeddings'],
    ['https://h.example/openai/', 'https://h.example/openai/v1/embeddings'],
    ['https://h.example/openai/v1', 'https://h.example/openai/v1/embeddings'],
    ['https://h.example/openai/v1/', 'https://h.example/openai/v1/embeddings'],
    ['http://127.0.0.1:8787/api/v1', 'http://127.0.0.1:8787/api/v1/embeddings'],
  ])('keeps the mount point of %j', (input, expected) => {
    expect(endpointUrl(resolveBaseUrl(input), 'embeddings')).toBe(expected);
  });

  it('does not take a path that merely ends in v1 letters for the version', () => {
    expect(endpointUrl(resolveBaseUrl('https://h.example/apiv1'), 'models')).toBe(
      'https://h.example/apiv1/v1/models',
    );
  });

  it.each([
    ['', /empty/],
    ['relay.example.com', /not a valid web address/],
    ['ftp://relay.example.com', /only http and https/],
    ['file:///etc/passwd', /only http and https/],
    ['https://user:secret@relay.example.com', /user name or password/],
    ['https://relay.example.com/v1?key=abc', /query/],
    ['https://relay.example.com/#frag', /fragment/],
  ])('refuses %j with a specific message naming the address', (input, message) => {
    let caught: unknown;
    try {
      resolveBaseUrl(input);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(RelayError);
    expect((caught as RelayError).kind).toBe('bad_request');
    expect((caught as RelayError).param).toBe('baseUrl');
    expect((caught as RelayError).message).toMatch(message);
  });

  it('does not echo a password from the address in its error', () => {
    expect(() => resolveBaseUrl('https://me:hunter2@relay.example.com')).toThrow(RelayError);
    try {
      resolveBaseUrl('https://me:hunter2@relay.example.com');
    } catch (error) {
      // The address is shown as typed, so the message names the problem instead of hiding it.
      expect((error as RelayError).message).toMatch(/put the API key in the key field/);
    }
  });
});
