import { readBoundSecret } from '../../electron/main/services/connections/secrets';
import { MemorySecretStore } from '../../electron/main/services/secret-store';
import { describe, expect, it } from 'vitest';
import {
  expectKeyNeverSentToPage,
  expectKeyNotInPage,
  keyFragments,
  pageText,
} from './harness/checks';
import type { AppUnderTest } from './harness/harness';
import { newKey } from './harness/relay';
import { e2eSuite } from './harness/suite';
import { ConnectPage } from './pages/connect-page';
import { ConnectionsPage } from './pages/connections-page';
import { ModelsPage } from './pages/models-page';
import { ShellPage } from './pages/shell-page';

const suite = e2eSuite({ keys: 2 });
const [firstKey, secondKey] = suite.keys as [string, string];

/** The page's markup, attributes included (not the live value of a field being typed in). */
async function markup(page: AppUnderTest['page']): Promise<string> {
  return page.evaluate(
    () =>
      (globalThis as unknown as { document: { documentElement: { outerHTML: string } } }).document
        .documentElement.outerHTML,
  );
}

describe('the API key never reaches the renderer', () => {
  it('through saving, testing, listing, editing, replacing and deleting', async () => {
    const secrets = new MemorySecretStore({ secure: true, persistent: true, backend: 'keychain' });
    const app = await suite.openApp({ secretStore: secrets });
    const { page } = app;
    const connect = new ConnectPage(page);
    await connect.waitUntilShown();

    await connect.form.fill({ name: 'Secret relay', baseUrl: suite.relay.url, apiKey: firstKey });
    // While it is typed, the key is only in the field's live value, never in the markup. (The
    // first check shows the search would find it: the field is part of what pageText reads.)
    expect(await pageText(app)).toContain(firstKey);
    for (const fragment of keyFragments(firstKey))
      expect(await markup(page)).not.toContain(fragment);
    await connect.form.test();
    for (const fragment of keyFragments(firstKey))
      expect(await markup(page)).not.toContain(fragment);

    await connect.form.save();
    const models = new ModelsPage(page);
    await models.open();
    await models.waitForModels();
    await expectKeyNotInPage(app, firstKey);

    const shell = new ShellPage(page);
    await shell.open('Connections');
    const card = new ConnectionsPage(page).card('Secret relay');
    await expect(card.keyStatus.textContent()).resolves.toBe(`Key saved (…${firstKey.slice(-4)})`);
    await expectKeyNotInPage(app, firstKey);

    // Editing shows an empty key field: the saved key is never loaded into it.
    const form = await card.edit();
    await expect(form.apiKey.inputValue()).resolves.toBe('');
    await expect(form.apiKey.getAttribute('type')).resolves.toBe('password');
    await expectKeyNotInPage(app, firstKey);
    // "Test connection" with the field empty tests the saved key, in main.
    await expect((await form.test()).textContent()).resolves.toContain('It lists 8 models.');
    await expectKeyNotInPage(app, firstKey);

    await form.fill({ apiKey: secondKey });
    await form.save();
    await expect
      .poll(() => card.keyStatus.textContent())
      .toBe(`Key saved (…${secondKey.slice(-4)})`);
    await expectKeyNotInPage(app, secondKey);
    await shell.open('Models');
    await models.waitForModels();
    await expectKeyNotInPage(app, secondKey);

    // Deleting the connection removes its key from the store.
    await shell.open('Connections');
    const [saved] = await app.services.connections.list();
    const id = saved!.id;
    // Kept bound to the origin it was given for.
    const stored = await secrets.get(id);
    expect(readBoundSecret(stored!)?.secret).toBe(secondKey);
    const dialog = await card.askToDelete();
    await dialog.getByRole('button', { name: 'Delete connection' }).click();
    await connect.waitUntilShown();
    await expect(secrets.get(id)).resolves.toBeUndefined();

    // The key went to main only where the person typed it; nothing main sent back held it.
    expectKeyNeverSentToPage(app.messages, firstKey);
    expectKeyNeverSentToPage(app.messages, secondKey);
    const sentWithKey = app.messages
      .filter(
        (m) => m.direction === 'invoke' && JSON.stringify(m.payload ?? null).includes(firstKey),
      )
      .map((m) => m.channel);
    expect(sentWithKey).toEqual(['connections:test', 'connections:create']);
  });

  it('a refused key and its correction leave nothing of either key in the page', async () => {
    const app = await suite.openApp();
    const connect = new ConnectPage(app.page);
    await connect.waitUntilShown();
    const wrongKey = newKey();
    await connect.connect({ name: 'Refusing relay', baseUrl: suite.relay.url, apiKey: wrongKey });
    const models = new ModelsPage(app.page);
    await models.open();
    await models.failure.waitFor();
    await expectKeyNotInPage(app, wrongKey);
    await models.enterCorrectedKey(firstKey);
    await models.waitForModels();
    await expectKeyNotInPage(app, firstKey);

    expectKeyNeverSentToPage(app.messages, wrongKey);
    expectKeyNeverSentToPage(app.messages, firstKey);
    // Every error message main sent is free of both keys, the relay's 401 text included.
    const errors = app.messages.flatMap((m) =>
      m.direction === 'invoke' && (m.result as { ok: boolean }).ok === false
        ? [JSON.stringify(m.result)]
        : [],
    );
    expect(errors.length).toBeGreaterThan(0);
    for (const fragment of [...keyFragments(wrongKey), ...keyFragments(firstKey)]) {
      for (const error of errors) expect(error).not.toContain(fragment);
    }
  });
});
