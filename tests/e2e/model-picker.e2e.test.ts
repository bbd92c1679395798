import type { FetchLike } from '../../electron/main/services/relay/relay-client';
import { describe, expect, it } from 'vitest';
import { e2eSuite, type SuiteAppOptions } from './harness/suite';
import { ModelsPage } from './pages/models-page';

const suite = e2eSuite({ connectionName: 'Picker relay' });

/** Connected (which lands in Chat), then on the model picker. */
async function connected(options: SuiteAppOptions = {}): Promise<ModelsPage> {
  const models = new ModelsPage((await suite.connect(options)).page);
  await models.open();
  return models;
}

/** Node's fetch, with the relay's model list replaced by `models` and answered after `delay`. */
function listing(models: unknown[], delay: Promise<void> = Promise.resolve()): FetchLike {
  return async (url, init) => {
    if (!url.endsWith('/v1/models')) return fetch(url, init);
    await delay;
    return Response.json({ object: 'list', data: models });
  };
}

describe('model picker', () => {
  it('groups models as chat, embeddings and images, with counts and owners', async () => {
    const models = await connected({
      fetch: listing([
        { id: 'gpt-mini', owned_by: 'acme' },
        { id: 'text-embed-small', owned_by: 'acme' },
        { id: 'flux-schnell', owned_by: 'black-forest' },
        { id: 'sdxl-turbo' },
        { id: 'llama-70b', owned_by: 'meta' },
        { id: 'clip-vectors', supported_endpoint_types: ['embeddings'] },
      ]),
    });
    await models.waitForModels();
    await expect(models.modelIds('Chat')).resolves.toEqual(['gpt-mini', 'llama-70b']);
    await expect(models.modelIds('Embeddings')).resolves.toEqual([
      'clip-vectors',
      'text-embed-small',
    ]);
    await expect(models.modelIds('Images')).resolves.toEqual(['flux-schnell', 'sdxl-turbo']);
    await expect(models.count('Chat').textContent()).resolves.toBe('2');
    await expect(models.row('llama-70b').locator('.model-owner').textContent()).resolves.toBe(
      'meta',
    );
    await expect(models.row('sdxl-turbo').locator('.model-owner').count()).resolves.toBe(0);
    await expect(models.row('clip-vectors').textContent()).resolves.toContain(
      'Kind given by the relay',
    );
    await expect(models.row('gpt-mini').textContent()).resolves.toContain(
      'Kind guessed from the name',
    );
  });

  it('searches by name and owner, counting what matches', async () => {
    const models = await connected();
    await models.waitForModels();
    await models.search.fill('fast');
    await expect(models.modelIds('Chat')).resolves.toEqual(['demo-chat-fast']);
    await expect(models.count('Chat').textContent()).resolves.toBe('1 of 5');
    await expect(models.group('Embeddings').textContent()).resolves.toContain(
      'None match the search.',
    );

    await models.search.fill('DEMO-RELAY image');
    await expect(models.modelIds('Images')).resolves.toEqual(['demo-image']);
    await expect(models.modelIds('Chat')).resolves.toEqual([]);

    await models.search.fill('nothing-like-this');
    await expect(
      suite.app.page.getByText('No models match “nothing-like-this”').isVisible(),
    ).resolves.toBe(true);
    await suite.app.screenshot('models-search-empty');

    await models.search.fill('');
    await expect(models.modelIds('Chat')).resolves.toEqual([
      'demo-chat',
      'demo-chat-fast',
      'demo-chat-mini',
      'demo-tools',
      'demo-vision',
    ]);
  });

  it('overrides a model kind, keeps it across refresh and reload, and goes back to automatic', async () => {
    const models = await connected();
    await models.waitForModels();
    await models.setKind('demo-chat-fast', 'Embeddings');
    await expect
      .poll(() => models.modelIds('Embeddings'))
      .toEqual(['demo-chat-fast', 'demo-embedding', 'demo-embedding-small']);
    await expect(models.modelIds('Chat')).resolves.toEqual([
      'demo-chat',
      'demo-chat-mini',
      'demo-tools',
      'demo-vision',
    ]);
    await expect(models.kindSelect('demo-chat-fast').inputValue()).resolves.toBe('embedding');
    await expect(models.row('demo-chat-fast').textContent()).resolves.toContain('Kind set by you');
    await suite.app.screenshot('models-override');

    await models.refresh.click();
    await expect.poll(() => models.modelIds('Embeddings')).toContain('demo-chat-fast');
    await suite.app.page.reload();
    await models.waitForModels();
    await expect(models.modelIds('Embeddings')).resolves.toContain('demo-chat-fast');

    await models.setKind('demo-chat-fast', 'Automatic');
    await expect
      .poll(() => models.modelIds('Chat'))
      .toEqual(['demo-chat', 'demo-chat-fast', 'demo-chat-mini', 'demo-tools', 'demo-vision']);
    await expect(models.kindSelect('demo-chat-fast').inputValue()).resolves.toBe('auto');
  });

  it('keeps the list when a refresh fails, with the failure above it', async () => {
    let offline = false;
    const models = await connected({
      fetch: (url, init) =>
        offline ? Promise.reject(new TypeError('fetch failed')) : fetch(url, init),
    });
    await models.waitForModels();
    offline = true;
    await models.refresh.click();
    await models.failure.waitFor();
    await expect(models.failure.textContent()).resolves.toContain('could not be reached');
    await expect(models.modelIds('Chat')).resolves.toEqual([
      'demo-chat',
      'demo-chat-fast',
      'demo-chat-mini',
      'demo-tools',
      'demo-vision',
    ]);

    offline = false;
    await models.refresh.click();
    await models.failure.waitFor({ state: 'detached' });
    await expect(models.modelIds('Chat')).resolves.toEqual([
      'demo-chat',
      'demo-chat-fast',
      'demo-chat-mini',
      'demo-tools',
      'demo-vision',
    ]);
  });

  it('remembers the model chosen for each screen', async () => {
    const models = await connected();
    await models.waitForModels();
    await models.choose('demo-chat-fast');
    // The relay's first embedding model shows as chosen already (the one used until one is
    // chosen): choosing the other is remembered.
    await expect(models.row('demo-embedding').getByRole('radio').isChecked()).resolves.toBe(true);
    await models.choose('demo-embedding-small');
    await expect
      .poll(() =>
        suite.app.messages.filter((m) => m.channel === 'models:set-last').map((m) => m.payload),
      )
      .toEqual([
        { feature: 'chat', modelId: 'demo-chat-fast' },
        { feature: 'embeddings', modelId: 'demo-embedding-small' },
      ]);

    await suite.app.page.reload();
    await models.waitForModels();
    await expect(models.row('demo-chat-fast').getByRole('radio').isChecked()).resolves.toBe(true);
    await expect(models.row('demo-chat').getByRole('radio').isChecked()).resolves.toBe(false);
    await expect(models.row('demo-embedding-small').getByRole('radio').isChecked()).resolves.toBe(
      true,
    );
    await expect(models.row('demo-embedding').getByRole('radio').isChecked()).resolves.toBe(false);
    // Images: none chosen, so the one the Images screen uses is the one shown.
    await expect(models.row('demo-image').getByRole('radio').isChecked()).resolves.toBe(true);
  });

  it('shows a designed loading state, then a designed empty state', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const models = await connected({ fetch: listing([], gate) });
    await models.loading.waitFor();
    await expect(models.loading.getAttribute('aria-busy')).resolves.toBe('true');
    await expect(models.loading.textContent()).resolves.toContain(
      'Asking Picker relay for its models',
    );
    await suite.app.screenshot('models-loading');
    release();

    const empty = suite.app.page.locator('.empty-state');
    await empty.waitFor();
    await expect(empty.textContent()).resolves.toContain('This relay lists no models');
    await expect(empty.getByRole('button', { name: 'Refresh' }).isVisible()).resolves.toBe(true);
    await suite.app.screenshot('models-empty');
  });

  it('can be driven from the keyboard', async () => {
    const models = await connected();
    await models.waitForModels();
    await models.search.focus();
    await suite.app.page.keyboard.type('image');
    await suite.app.page.keyboard.press('Tab');
    // From the search box, Tab reaches the first radio of the groups that show a model.
    const focused = () =>
      suite.app.page.evaluate(() => {
        const doc = (
          globalThis as unknown as {
            document: { activeElement: { getAttribute(n: string): string | null } | null };
          }
        ).document;
        return (
          doc.activeElement?.getAttribute('aria-label') ?? doc.activeElement?.getAttribute('name')
        );
      });
    await expect(focused()).resolves.toBe('model-for-images');
    await suite.app.page.keyboard.press('Space');
    await expect(models.row('demo-image').getByRole('radio').isChecked()).resolves.toBe(true);
    await suite.app.page.keyboard.press('Tab');
    await expect(focused()).resolves.toBe('Kind of demo-image');
  });
});
