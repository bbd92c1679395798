/**
 * Accessibility: an axe-core scan (WCAG 2.1 A and AA, and best practices) of every screen and its
 * main states, in the light and the dark theme, with no serious or critical violation; and a
 * keyboard-only walk where Tab reaches every control of a screen with a visible focus ring. Then
 * the same in a 900×650 window (the navigation as icons), where nothing may be cut off either.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ScriptedDialogs } from '../fakes/chat-dialogs';
import type { AppUnderTest } from './harness/harness';
import { e2eSuite } from './harness/suite';
import { blocking, describeViolations, scanPage } from './pages/axe';
import { ChatPage } from './pages/chat-page';
import { ConnectPage } from './pages/connect-page';
import { EmbeddingsPage } from './pages/embeddings-page';
import { ImagesPage } from './pages/images-page';
import { KnowledgePage } from './pages/knowledge-page';
import { walkWithTab } from './pages/keyboard-walk';
import { cutOff } from './pages/layout';
import { ModelsPage } from './pages/models-page';
import { PromptsPage } from './pages/prompts-page';
import { scriptedChat, SIMILARITY_PROMPT, SIMILARITY_REPLY } from './pages/scripted-chat';
import { SettingsPage } from './pages/settings-page';
import { ShortcutsPage } from './pages/shortcuts-page';

const suite = e2eSuite();

/** Scans the page and fails on a serious or critical violation, naming rule, element and help. */
async function expectAccessible(app: AppUnderTest, state: string): Promise<void> {
  const violations = await scanPage(app.page);
  const failing = blocking(violations);
  const minor = violations.filter((v) => !failing.includes(v));
  if (minor.length > 0) console.info(describeViolations(`${state} (not failing)`, minor));
  expect(
    failing.map((v) => v.id),
    describeViolations(state, failing),
  ).toEqual([]);
}

/**
 * Tab alone reaches every control of what is on screen, sidebar first and then the screen (or,
 * with a modal open, round the modal only), each with a visible outline while focused.
 */
async function expectKeyboardReachable(app: AppUnderTest, state: string): Promise<void> {
  const { controls, stops } = await walkWithTab(app.page);
  const reached = new Set(stops.map((stop) => stop.index));
  const missed = controls.filter((_, index) => !reached.has(index));
  expect(missed, `${state}: controls Tab never reaches`).toEqual([]);
  const unmarked = stops.filter((s) => s.outlineStyle === 'none' || !(s.outlineWidth > 0));
  expect(
    unmarked.map((s) => s.name),
    `${state}: focused without a visible outline`,
  ).toEqual([]);
  const regions = stops.map((stop) => stop.region).filter((r, i, all) => r !== all[i - 1]);
  expect(
    [['sidebar', 'screen'], ['screen'], ['dialog']].map((order) => order.join()),
    `${state}: Tab order goes ${regions.join(' → ')}`,
  ).toContain(regions.join());
}

/** "Add folder…" answered with the document fixtures (a PDF, a .docx, two refused PDFs). */
function knowledgeFolder(): ScriptedDialogs {
  const dialogs = new ScriptedDialogs();
  dialogs.folders.push(join(import.meta.dirname, '../fixtures/documents'));
  return dialogs;
}

const nav = (app: AppUnderTest, name: string) =>
  app.page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name, exact: true });

describe.each(['light', 'dark'] as const)('every screen in the %s theme', (theme) => {
  // Checked after the last spec for page errors and CSP violations, the formulas included: KaTeX's
  // markup is parsed without the DOM (see electron.vite.config).
  const shared = suite.sharedApp(() => ({
    colorScheme: theme,
    fetch: scriptedChat({ [SIMILARITY_PROMPT]: SIMILARITY_REPLY }),
    dialogs: knowledgeFolder(),
  }));

  it('first run: connect to a relay', async () => {
    await new ConnectPage(shared.app.page).waitUntilShown();
    await expectAccessible(shared.app, `${theme}: first run`);
    await expectKeyboardReachable(shared.app, `${theme}: first run`);
  });

  it('models', async () => {
    const connect = new ConnectPage(shared.app.page);
    if (await connect.heading.isVisible()) {
      await connect.connect({
        name: 'Accessible relay',
        baseUrl: suite.relay.url,
        apiKey: suite.key,
      });
    }
    const models = new ModelsPage(shared.app.page);
    await nav(shared.app, 'Models').click();
    await models.waitForModels();
    await expectAccessible(shared.app, `${theme}: models`);
    await expectKeyboardReachable(shared.app, `${theme}: models`);
  });

  it('settings, with the theme chosen there', async () => {
    await nav(shared.app, 'Settings').click();
    const settings = new SettingsPage(shared.app.page);
    await settings.chooseTheme(theme === 'dark' ? 'Dark' : 'Light');
    await expect
      .poll(() => shared.app.page.evaluate('document.documentElement.dataset.theme'))
      .toBe(theme);
    await expectAccessible(shared.app, `${theme}: settings`);
    await expectKeyboardReachable(shared.app, `${theme}: settings`);
  });

  it('connections', async () => {
    await nav(shared.app, 'Connections').click();
    await shared.app.page.getByRole('heading', { level: 1, name: 'Connections' }).waitFor();
    await expectAccessible(shared.app, `${theme}: connections`);
    await expectKeyboardReachable(shared.app, `${theme}: connections`);

    await shared.app.page.getByRole('button', { name: 'Add connection' }).click();
    const adding = shared.app.page.getByRole('region', { name: 'New connection' });
    await adding.waitFor();
    await expectAccessible(shared.app, `${theme}: connections, adding one`);
    await adding.getByRole('button', { name: 'Cancel' }).click();

    // A confirmation, on the native modal dialog.
    await shared.app.page.getByRole('button', { name: 'Delete Accessible relay' }).click();
    const confirm = shared.app.page.getByRole('dialog');
    await confirm.waitFor();
    await expectAccessible(shared.app, `${theme}: confirm dialog`);
    await expectKeyboardReachable(shared.app, `${theme}: confirm dialog`);
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'hidden' });
  });

  it('prompts: the library, the editor and the start dialog', async () => {
    const prompts = new PromptsPage(shared.app.page);
    await prompts.open();
    await prompts.ready();
    await expectAccessible(shared.app, `${theme}: prompts`);
    await expectKeyboardReachable(shared.app, `${theme}: prompts`);

    await shared.app.page.getByRole('button', { name: 'New assistant' }).click();
    await prompts.editor.waitFor();
    await expectAccessible(shared.app, `${theme}: prompts, editing one`);
    await prompts.editor.getByRole('button', { name: 'Cancel' }).click();

    // The built-in code reviewer asks for its language before the chat starts.
    await shared.app.page.getByRole('button', { name: 'Start chat with Code reviewer' }).click();
    await prompts.startDialog.waitFor();
    await expectAccessible(shared.app, `${theme}: prompts, starting a chat`);
    await expectKeyboardReachable(shared.app, `${theme}: prompts, starting a chat`);
    await prompts.startDialog.getByRole('button', { name: 'Cancel' }).click();
    await prompts.startDialog.waitFor({ state: 'hidden' });
  });

  it('knowledge: a base built, its refused files and the passages found', async () => {
    const knowledge = new KnowledgePage(shared.app.page);
    await knowledge.open();
    await knowledge.ready();
    await expectAccessible(shared.app, `${theme}: knowledge, none yet`);
    await knowledge.create('Harbour');
    await shared.app.page.getByRole('button', { name: 'Add folder…' }).click();
    await expect.poll(() => knowledge.status.textContent(), { timeout: 20_000 }).toBe('Ready');
    await knowledge.ask('When are storm warnings raised?');
    await expectAccessible(shared.app, `${theme}: knowledge`);
    await expectKeyboardReachable(shared.app, `${theme}: knowledge`);
  });

  it('chat: the new chat', async () => {
    const chat = new ChatPage(shared.app.page);
    await chat.open();
    await chat.newChat();
    await expect.poll(() => chat.modelName()).toMatch(/^demo-chat/);
    await shared.app.page.getByRole('region', { name: 'Start a conversation' }).waitFor();
    await expectAccessible(shared.app, `${theme}: chat, the new chat`);
    // The chat options panel, open.
    await shared.app.page.getByRole('button', { name: 'Chat options', exact: true }).click();
    await shared.app.page.getByRole('dialog', { name: 'Chat options' }).waitFor();
    await expectAccessible(shared.app, `${theme}: chat options`);
    await shared.app.page.keyboard.press('Escape');
  });

  it('chat: a streamed reply with code, a table and a formula', async () => {
    const chat = new ChatPage(shared.app.page);
    await chat.send(SIMILARITY_PROMPT);
    await expect(chat.finishedReplyStatus()).resolves.toBe('complete');
    await chat.lastReply().locator('.katex-display').waitFor();
    await chat.lastReply().locator('table').waitFor();
    await expectAccessible(shared.app, `${theme}: chat with a reply`);
    await expectKeyboardReachable(shared.app, `${theme}: chat with a reply`);
  });

  it('chat: a reply that failed', async () => {
    const chat = new ChatPage(shared.app.page);
    suite.relay.setFaults({ status: 500 });
    await chat.send('Are you there?');
    await expect(chat.finishedReplyStatus()).resolves.toBe('error');
    suite.relay.setFaults(undefined);
    await chat.replyAlert().waitFor();
    await expectAccessible(shared.app, `${theme}: chat with an error`);
  });

  it('usage: the chart and its tables', async () => {
    await nav(shared.app, 'Usage').click();
    const chart = shared.app.page.getByRole('img', { name: /^Tokens per day/ });
    await chart.locator('canvas').first().waitFor();
    await shared.app.page.getByText('Per day and model, as a table').click();
    await expectAccessible(shared.app, `${theme}: usage`);
    await expectKeyboardReachable(shared.app, `${theme}: usage`);
  });

  it('embeddings: results, heatmap and scatter', async () => {
    const embeddings = new EmbeddingsPage(shared.app.page);
    await embeddings.open();
    await expect.poll(() => embeddings.model.inputValue()).toMatch(/^demo-embedding/);
    await embeddings.embedLines(['cat', 'kitten', 'invoice', 'receipt', 'dog', 'puppy']);
    await embeddings.waitForPictures();
    await embeddings.results.waitFor();
    await expectAccessible(shared.app, `${theme}: embeddings with results`);
    await expectKeyboardReachable(shared.app, `${theme}: embeddings with results`);
  });

  it('images: a gallery, then the lightbox', async () => {
    const images = new ImagesPage(shared.app.page);
    await images.open();
    await expect.poll(() => images.model.inputValue()).toBe('demo-image');
    // Three prompts, three images (each request draws a picture of its own).
    for (const [index, prompt] of [
      'a lighthouse at dusk',
      'a fox in snow',
      'a paper boat',
    ].entries()) {
      await images.generate(prompt, { size: '256x256' });
      await images.waitForThumbnails(index + 1);
      await expect.poll(() => images.generateButton.isVisible()).toBe(true);
    }
    await expectAccessible(shared.app, `${theme}: images with a gallery`);
    await expectKeyboardReachable(shared.app, `${theme}: images with a gallery`);
    await images.thumbnails.first().click();
    await images.lightbox.waitFor();
    await expectAccessible(shared.app, `${theme}: image lightbox`);
    await expectKeyboardReachable(shared.app, `${theme}: image lightbox`);
    await shared.app.page.keyboard.press('Escape');
    await images.lightbox.waitFor({ state: 'hidden' });
  });

  it('the shortcut sheet', async () => {
    const shortcuts = new ShortcutsPage(shared.app.page);
    await shared.app.page.keyboard.press('Control+/');
    await shortcuts.sheet.waitFor();
    await expectAccessible(shared.app, `${theme}: shortcut sheet`);
    await expectKeyboardReachable(shared.app, `${theme}: shortcut sheet`);
    await shared.app.page.keyboard.press('Escape');
    await shortcuts.sheet.waitFor({ state: 'hidden' });
  });

  /** Nothing in the icon rail or the conversation list reaches past its edge. */
  async function expectNothingCutOff(state: string, columns: string[]): Promise<void> {
    for (const column of columns)
      expect(await cutOff(shared.app.page, column), `${state}: cut off in ${column}`).toEqual([]);
  }

  it('900×650: the chat with a reply, and a conversation’s menu', async () => {
    const page = shared.app.page;
    await page.setViewportSize({ width: 900, height: 650 });
    const chat = new ChatPage(page);
    await chat.open();
    await chat.openConversation(SIMILARITY_PROMPT.slice(0, 24));
    // The reply with a formula, then the one that failed, from the specs above.
    await expect(chat.finishedReplyStatus()).resolves.toBe('error');
    const state = `${theme}, 900×650: chat with replies`;
    await expectNothingCutOff(state, ['nav.sidebar', '.chat-sidebar']);
    await expectAccessible(shared.app, state);
    await expectKeyboardReachable(shared.app, state);

    await chat.sidebar
      .getByRole('button', { name: /^Actions for / })
      .first()
      .click();
    const menu = page.getByRole('menu');
    await menu.waitFor();
    await expectAccessible(shared.app, `${theme}, 900×650: a conversation's menu`);
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
  });

  it('900×650: the other screens', async () => {
    for (const screen of ['Models', 'Embeddings', 'Images', 'Connections', 'Settings']) {
      await nav(shared.app, screen).click();
      await shared.app.page.getByRole('heading', { level: 1, name: screen }).waitFor();
      const state = `${theme}, 900×650: ${screen.toLowerCase()}`;
      await expectNothingCutOff(state, ['nav.sidebar']);
      await expectAccessible(shared.app, state);
    }
    await expectKeyboardReachable(shared.app, `${theme}, 900×650: settings`);
  });
});

/**
 * The translated screens in the pseudo-language (every letter accented, each message 40% longer):
 * the same scan, and nothing cut off by its column, on the shell, Settings, Chat (a reply and its
 * versions), Prompts, Knowledge, Models, Embeddings, Images, Connections and the shortcut sheet.
 * What the screens show is made in English first; then screens are reached by their place in the
 * navigation, not their names.
 */
describe('the translated screens in the pseudo-language', () => {
  const shared = suite.sharedApp(() => ({ colorScheme: 'light', dialogs: knowledgeFolder() }));
  const screen = (index: number) => shared.app.page.locator('nav.sidebar .nav-item').nth(index);

  async function expectWhole(state: string, columns = ['nav.sidebar', 'main.screen']) {
    for (const column of columns)
      expect(await cutOff(shared.app.page, column), `${state}: cut off in ${column}`).toEqual([]);
    await expectAccessible(shared.app, state);
  }

  it('in English first: a conversation whose reply has two versions, and a knowledge base', async () => {
    const page = shared.app.page;
    await new ConnectPage(page).connect({
      name: 'Accessible relay',
      baseUrl: suite.relay.url,
      apiKey: suite.key,
    });
    const chat = new ChatPage(page);
    await chat.open();
    await chat.ready();
    await chat.send('Where do rivers begin?');
    await expect(chat.finishedReplyStatus()).resolves.toBe('complete');
    await chat.lastReply().getByRole('button', { name: 'Regenerate' }).click();
    await chat.lastReply().getByRole('group', { name: 'Version 2 of 2' }).waitFor();
    await expect(chat.finishedReplyStatus()).resolves.toBe('complete');
    const knowledge = new KnowledgePage(page);
    await knowledge.open();
    await knowledge.ready();
    await knowledge.create('Harbour');
    await page.getByRole('button', { name: 'Add folder…' }).click();
    await expect.poll(() => knowledge.status.textContent(), { timeout: 20_000 }).toBe('Ready');
  }, 60_000);

  it('the shell and Settings', async () => {
    const page = shared.app.page;
    await shared.app.services.settings.update({ language: 'en-XA' });
    await page.reload();
    await screen(8).click();
    // The screen shown before the reload may still be there while Settings' chunk loads.
    await page.locator('section[aria-labelledby="appearance-title"]').waitFor();
    await expect.poll(() => page.locator('h1.page-title').textContent()).toMatch(/^Šéţţîñĝš·+$/);
    await expectWhole('en-XA: settings');
  });

  it('chat: a conversation with a reply and its version switcher', async () => {
    const page = shared.app.page;
    await screen(0).click();
    await page
      .locator('.chat-conversation-open')
      .filter({ hasText: 'Where do rivers begin?' })
      .click();
    await page.locator('.chat-versions').waitFor();
    await expect(page.locator('.chat-versions').getAttribute('aria-label')).resolves.toMatch(
      /^Ṽéŕšîöñ/,
    );
    await expectWhole('en-XA: chat with a reply and its versions', [
      'nav.sidebar',
      '.chat-sidebar',
      'main.screen',
    ]);
  });

  it('prompts: the library', async () => {
    const page = shared.app.page;
    await screen(1).click();
    await page.locator('li.prompt-card').first().waitFor();
    await expectWhole('en-XA: prompts');
  });

  it('knowledge: a base, its refused files and its status', async () => {
    const page = shared.app.page;
    await screen(2).click();
    const harbour = page.locator('.knowledge-list-item', { hasText: 'Harbour' });
    await harbour.waitFor();
    if ((await harbour.getAttribute('aria-current')) !== 'true') await harbour.click();
    await page.locator('.knowledge-refused li').first().waitFor();
    await expectWhole('en-XA: knowledge');
  });

  it('models', async () => {
    const page = shared.app.page;
    await screen(3).click();
    await page.locator('.model-row').first().waitFor();
    await expectWhole('en-XA: models');
  });

  it('connections', async () => {
    const page = shared.app.page;
    await screen(7).click();
    await page.locator('h1.page-title').waitFor();
    await expect(page.getByText('Accessible relay').first().isVisible()).resolves.toBe(true);
    await expectWhole('en-XA: connections');
  });

  it('embeddings: results, heatmap and scatter', async () => {
    const page = shared.app.page;
    await screen(4).click();
    await expect
      .poll(() => page.locator('.embeddings-page select').first().inputValue())
      .toMatch(/^demo-embedding/);
    await page.locator('textarea.embeddings-lines').fill('cat\nkitten\ninvoice\nreceipt');
    await page.locator('.embeddings-input .button-primary').click();
    await page.locator('canvas.heatmap-canvas[data-painted="true"]').waitFor({ timeout: 30_000 });
    await page.locator('canvas.scatter-canvas[data-painted="true"]').waitFor({ timeout: 30_000 });
    await expectWhole('en-XA: embeddings with results');
  });

  it('images: a gallery, then the lightbox', async () => {
    const page = shared.app.page;
    await screen(5).click();
    await expect
      .poll(() => page.locator('.image-form select').first().inputValue())
      .toBe('demo-image');
    await page.locator('textarea.image-prompt').fill('a lighthouse at dusk');
    await page.locator('.image-form select').nth(1).selectOption('256x256');
    await page.locator('.image-form .button-primary').click();
    await page.locator('.gallery-item').first().waitFor();
    await page.locator('.generation-outcome').waitFor();
    await expectWhole('en-XA: images with a gallery');
    await page.locator('.gallery-item').first().click();
    await page.locator('dialog.lightbox .lightbox-actions').waitFor();
    await expectWhole('en-XA: image lightbox', ['dialog.lightbox']);
    await page.keyboard.press('Escape');
    await page.locator('dialog.lightbox').waitFor({ state: 'hidden' });
  });

  it('the shortcut sheet', async () => {
    // Found by its element: its name is in the pseudo-language too.
    const sheet = shared.app.page.locator('dialog.shortcut-sheet');
    await shared.app.page.keyboard.press('Control+/');
    await sheet.locator('.shortcut-groups').waitFor();
    await expectWhole('en-XA: shortcut sheet', ['dialog.shortcut-sheet']);
    await shared.app.page.keyboard.press('Escape');
    await sheet.waitFor({ state: 'hidden' });
  });
});
