import { describe, expect, it } from 'vitest';
import {
  displayAddress,
  endpointUrl,
  isLocalNetworkHost,
  resolveBaseUrl,
  sendsKeyInClear,
} from '../../../../electron/main/services/relay/base-url';
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

describe('what may be shown of an address', () => {
  it('cuts out a user name, password, query and fragment, even from an address that does not parse', () => {
    expect(displayAddress('https://alice:pw-1@relay.example.com/v1?token=abc#x')).toBe(
      'https://relay.example.com/v1?…',
    );
    expect(displayAddress('https://user@relay.example.com:99999/x#frag')).toBe(
      'https://relay.example.com:99999/x#…',
    );
    expect(displayAddress('  relay.example.com  ')).toBe('relay.example.com');
    expect(displayAddress(`https://h/${'a'.repeat(300)}`)).toHaveLength(201);
  });

  it('never echoes credentials or a query in the error of an address it refuses', () => {
    for (const input of [
      'https://alice:pw-secret@relay.example.com',
      'https://relay.example.com/v1?key=pw-secret',
      'ftp://alice:pw-secret@relay.example.com',
    ]) {
      expect(() => resolveBaseUrl(input)).toThrow(/The address/);
      try {
        resolveBaseUrl(input);
      } catch (error) {
        expect((error as Error).message).not.toContain('pw-secret');
      }
    }
  });
});

describe('which hosts are this machine or the local network', () => {
  it.each([
    'localhost',
    'relay.localhost',
    '127.0.0.1',
    '127.8.9.10',
    '[::1]',
    '10.0.0.7',
    '172.16.4.2',
    '192.168.1.20',
    '169.254.3.3',
    '100.64.0.9',
    '[fd00::1]',
    '[fe80::1]',
    '[::ffff:192.168.1.2]',
    'ollama',
    'studio.local',
    'nas.lan',
    'relay.internal',
    'box.home.arpa',
    'app.test',
  ])('%s is local', (host) => {
    expect(isLocalNetworkHost(host)).toBe(true);
  });

  it.each([
    'relay.example.com',
    '8.8.8.8',
    '[2001:4860:4860::8888]',
    '[::ffff:8.8.8.8]',
    'localhost.example.com',
    'evil.local.example.com',
  ])('%s is not', (host) => {
    expect(isLocalNetworkHost(host)).toBe(false);
  });

  it('sends a key in clear only over http to a host outside the local network', () => {
    expect(sendsKeyInClear(resolveBaseUrl('http://relay.example.com'))).toBe(true);
    expect(sendsKeyInClear(resolveBaseUrl('https://relay.example.com'))).toBe(false);
    expect(sendsKeyInClear(resolveBaseUrl('http://192.168.1.5:8080/v1'))).toBe(false);
  });
});
