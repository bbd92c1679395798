/**
 * The chat's model chip as a searchable picker, against a relay offering 300 chat models and a
 * second connection with the demo's: search, marks for what a model can do, a group per
 * connection, the models chosen recently first, all by keyboard, in a narrow and a wide window.
 * Only part of a long list is drawn at once; typing finds the rest.
 */
import { describe, expect, it } from 'vitest';
import type { FetchLike } from '../../electron/main/services/relay/relay-client';
import type { AppUnderTest } from './harness/harness';
import { e2eSuite } from './harness/suite';
import { blocking, describeViolations, scanPage } from './pages/axe';
import { ChatPage } from './pages/chat-page';
import { ShellPage } from './pages/shell-page';

const suite = e2eSuite({ connectionName: 'Many models relay', keys: 2 });

const SIZES = [
  { width: 900, height: 650 },
  { width: 1280, height: 800 },
] as const;

/** 300 chat models: the demo's four (so a reply can come), and generated ones, every tenth reading images. */
const MANY = [
  { id: 'demo-chat', owned_by: 'demo' },
  { id: 'demo-chat-fast', owned_by: 'demo' },
  { id: 'demo-chat-mini', owned_by: 'demo' },
  { id: 'demo-vision', owned_by: 'demo', architecture: { input_modalities: ['text', 'image'] } },
  ...Array.from({ length: 296 }, (_, i) => {
    const n = String(i + 1).padStart(3, '0');
    return i % 10 === 6
      ? {
          id: `atlas-${n}-vision`,
          owned_by: 'atlas',
          architecture: { input_modalities: ['text', 'image'] },
        }
      : { id: `atlas-${n}`, owned_by: 'atlas' };
  }),
];

/** The first key's list is the 300 models; the second key's is the demo relay's own. */
function listing(firstKey: string): FetchLike {
  return async (url, init) => {
    const auth = new Headers(init.headers).get('authorization') ?? '';
    if (!url.endsWith('/v1/models') || !auth.endsWith(firstKey)) return fetch(url, init);
    return Response.json({ object: 'list', data: MANY });
  };
}

/** The element's box lies inside the window. */
async function insideWindow(app: AppUnderTest, selector: string): Promise<boolean> {
  const box = await app.page.locator(selector).boundingBox();
  const size = app.page.viewportSize();
  if (!box || !size) return false;
  return (
    box.x >= 0 && box.y >= 0 && box.x + box.width <= size.width && box.y + box.height <= size.height
  );
}

describe.each(SIZES)('the model picker at $width×$height', (size) => {
  it('searches 300 models by keyboard, marks what they read, groups them by connection, and puts recent ones first', async () => {
    const app = await suite.connect({ fetch: listing(suite.keys[0]!) });
    await app.page.setViewportSize(size);
    const [first] = await app.services.connections.list();
    await app.services.connections.create({
      name: 'Backup relay',
      baseUrl: suite.relay.url,
      apiKey: suite.keys[1]!,
    });
    await app.services.connections.select(first!.id);
    const page = new ChatPage(app.page);
    await expect.poll(() => page.modelName(), { timeout: 10_000 }).toBe('demo-chat');

    // Opened from the keyboard: the search field takes the focus, the list is a listbox.
    await page.model.focus();
    await app.page.keyboard.press('ArrowDown');
    const picker = page.picker();
    await picker.waitFor();
    const search = picker.getByRole('combobox', { name: 'Search models' });
    await expect.poll(() => page.isFocused(search)).toBe(true);
    const listbox = picker.getByRole('listbox', { name: 'Chat model' });
    const inUse = listbox.getByRole('group', { name: 'Many models relay (in use)' });
    await inUse.getByRole('option').first().waitFor();
    // A long list is drawn in part, and says how to find the rest.
    const drawn = await listbox.getByRole('option').count();
    expect(drawn).toBeGreaterThan(10);
    expect(drawn).toBeLessThanOrEqual(100);
    await expect(
      picker.getByText(/more models match: type to narrow the list/).count(),
    ).resolves.toBe(1);
    expect(await insideWindow(app, '.model-picker-panel')).toBe(true);
    // The other connection's models, in a group of their own.
    const backup = listbox.getByRole('group', { name: 'Backup relay' });
    await backup.getByRole('option').first().waitFor();
    const violations = blocking(await scanPage(app.page));
    expect(
      violations.map((v) => v.id),
      describeViolations('the model picker, open', violations),
    ).toEqual([]);

    // Arrows move the active option; typing filters; the marks say what a model reads.
    const activeOption = () => search.getAttribute('aria-activedescendant');
    const before = await activeOption();
    await app.page.keyboard.press('ArrowDown');
    await expect.poll(activeOption).not.toBe(before);
    await app.page.keyboard.type('atlas-287');
    await expect.poll(() => listbox.getByRole('option').count()).toBe(1);
    const vision = listbox.getByRole('option', { name: /atlas-287-vision/ });
    await expect(vision.textContent()).resolves.toContain('Reads images');
    await expect(vision.locator('svg').count()).resolves.toBeGreaterThan(1);
    await app.page.keyboard.press('Enter');
    await picker.waitFor({ state: 'detached' });
    await expect.poll(() => page.modelName(), { timeout: 10_000 }).toBe('atlas-287-vision');
    await expect.poll(() => page.isFocused(page.model)).toBe(true);

    // Searching by what a model reads.
    await app.page.keyboard.press('ArrowDown');
    await search.fill('reads images atlas-01');
    await expect
      .poll(() => listbox.getByRole('option').allTextContents())
      .toEqual([expect.stringMatching(/^atlas-017-vision/)]);
    // Esc closes, and the focus is back on the chip.
    await app.page.keyboard.press('Escape');
    await picker.waitFor({ state: 'detached' });
    await expect.poll(() => page.isFocused(page.model)).toBe(true);

    // Typing on the chip opens the picker with what was typed; the recent model comes first.
    await app.page.keyboard.press('a');
    await picker.waitFor();
    await expect(search.inputValue()).resolves.toBe('a');
    await search.fill('');
    const groups = listbox.getByRole('group');
    await expect.poll(() => groups.first().getAttribute('aria-labelledby')).toBeTruthy();
    await expect
      .poll(() => groups.first().locator('.model-picker-group-title').textContent())
      .toBe('Recent');
    await expect(
      groups.first().getByRole('option').first().locator('.model-option-id').textContent(),
    ).resolves.toBe('atlas-287-vision');

    // A model of the other connection: that connection is the one in use from then on.
    await search.fill('demo-chat-mini');
    await backup.locator('[role="option"][data-model="demo-chat-mini"]').click();
    await picker.waitFor({ state: 'detached' });
    await expect.poll(() => page.modelName(), { timeout: 10_000 }).toBe('demo-chat-mini');
    await expect
      .poll(() => new ShellPage(app.page).activeConnection.textContent(), { timeout: 10_000 })
      .toMatch(/Backup relay/);
    await page.send('Which relay answers now?');
    await expect(page.finishedReplyStatus()).resolves.toBe('complete');
  });
});
