/** What a summary says of a saved connection: whether secrets are saved, never the secrets. */
import { describe, expect, it } from 'vitest';
import {
  ConnectionSecrets,
  bindSecret,
  headerSecretsAccount,
} from '../../../../electron/main/services/connections/secrets';
import { summarize } from '../../../../electron/main/services/connections/summary';
import { MemorySecretStore } from '../../../../electron/main/services/secret-store';

const KEY = 'sk-summary-test-key-9876';
const ORIGIN = 'https://relay.example.com';

describe('a connection summary', () => {
  it('says which secret headers have a value and the key’s last four, and holds no secret', async () => {
    const store = new MemorySecretStore();
    await store.set('c', bindSecret(ORIGIN, KEY));
    await store.set(headerSecretsAccount('c'), bindSecret(ORIGIN, '{"X-Secret":"hush-value"}'));
    const summary = await summarize(new ConnectionSecrets(store), {
      id: 'c',
      name: 'C',
      baseUrl: ORIGIN,
      headers: [
        { name: 'X-Secret', secret: true },
        { name: 'X-Missing', secret: true },
        { name: 'X-Title', secret: false, value: 'Relay' },
      ],
    });
    expect(summary).toEqual({
      id: 'c',
      name: 'C',
      baseUrl: ORIGIN,
      hasKey: true,
      keyLast4: KEY.slice(-4),
      unencrypted: false,
      allowUnencrypted: false,
      headers: [
        { name: 'X-Secret', secret: true, hasValue: true },
        { name: 'X-Missing', secret: true, hasValue: false },
        { name: 'X-Title', secret: false, value: 'Relay', hasValue: true },
      ],
    });
    expect(JSON.stringify(summary)).not.toContain('hush-value');
  });

  it('reads no secret saved for another origin', async () => {
    const store = new MemorySecretStore();
    await store.set('c', bindSecret('https://elsewhere.example.com', KEY));
    const summary = await summarize(new ConnectionSecrets(store), {
      id: 'c',
      name: 'C',
      baseUrl: ORIGIN,
    });
    expect(summary).toMatchObject({ hasKey: false });
    expect(summary.keyLast4).toBeUndefined();
  });
});
