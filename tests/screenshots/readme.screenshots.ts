/**
 * Screenshots of every screen, light and dark, with realistic content from the demo relay: the
 * README's tour shows these. `npm run screenshots` (and nothing else: it is the only run that has
 * the `screenshots` project) writes them to docs/screenshots/, and checks that each scene still
 * renders: every picture is written, at the window's size, and shows more than one colour.
 * `npm test` checks only that every picture the README names is there (tests/unit/docs).
 */
import { copyFile, mkdir, readdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptedDialogs } from '../fakes/chat-dialogs';
import { FakeClock } from '../fakes/fake-clock';
import { messageWithContext } from '../../electron/main/services/quick-ask/quick-ask-service';
import { EVENTS } from '../../electron/shared/ipc/contract';
import { RecordingDesktop, RecordingProxyStack } from '../fakes/recording-desktop';
import { ScriptedUpdater } from '../fakes/scripted-updater';
import { e2eSuite } from '../e2e/harness/suite';
import { BackupsPage } from '../e2e/pages/backups-page';
import { ChatPage } from '../e2e/pages/chat-page';
import { ConnectPage } from '../e2e/pages/connect-page';
import { EmbeddingsPage } from '../e2e/pages/embeddings-page';
import { ImagesPage } from '../e2e/pages/images-page';
import { ModelsPage } from '../e2e/pages/models-page';
import { KnowledgePage } from '../e2e/pages/knowledge-page';
import { PromptsPage } from '../e2e/pages/prompts-page';
import { ToolsPage } from '../e2e/pages/tools-page';
import { QuickAskPage } from '../e2e/pages/quick-ask-page';
import { scriptedChat, SIMILARITY_PROMPT, SIMILARITY_REPLY } from '../e2e/pages/scripted-chat';
import { ShortcutsPage } from '../e2e/pages/shortcuts-page';

const ROOT = resolve(import.meta.dirname, '../..');
const DOCS = join(ROOT, 'docs/screenshots');

const suite = e2eSuite({ relay: false, scratch: true });

/** The pictures this run wrote. */
const written = new Set<string>();

beforeAll(() => mkdir(DOCS, { recursive: true }));

// Every picture of the folder was taken again: none is left from an older run of the scenes.
afterAll(async () => {
  const inFolder = (await readdir(DOCS)).filter((name) => name.endsWith('.png'));
  expect(inFolder.filter((name) => !written.has(name))).toEqual([]);
});

/** A picture the scene rendered: the window's size, and not one flat colour (a blank page). */
async function expectRendered(path: string, size: { width: number; height: number }) {
  const image = sharp(path);
  const [{ width, height }, stats] = await Promise.all([image.metadata(), image.stats()]);
  expect({ width, height }, path).toEqual(size);
  const spread = Math.max(...stats.channels.map((channel) => channel.max - channel.min));
  expect(spread, `${path} is one flat colour`).toBeGreaterThan(32);
}

const EARLIER_CHATS = [
  'Draft a friendly reminder about the unpaid March invoice',
  'Summarise the release notes for version 2.4 in three bullet points',
];

const EMBEDDING_TEXTS = [
  'The cat sleeps on the warm windowsill',
  'A kitten chases a ball of yarn',
  'Our puppy learned to sit today',
  'Invoice 2024-118 is due on Friday',
  'Your receipt for order 5521',
  'Payment reminder: the balance is overdue',
  'How to feed a sourdough starter',
  'Bake the loaf at 230 °C for 40 minutes',
];

const IMAGE_PROMPTS = [
  'a lighthouse on a cliff at dusk',
  'a red fox in fresh snow',
  'a paper boat on a still pond',
  'a city skyline at night, neon reflections',
  'a bowl of ramen, top view',
  'a hot air balloon over lavender fields',
  'a cabin in a pine forest, morning fog',
  'a tide pool with starfish',
  'a bicycle leaning on a yellow wall',
  'a stack of pancakes with berries',
];

/** A question whose two replies (the first, then a regenerated one) differ, as a model's would. */
const VERSIONS_PROMPT = 'Suggest a name for our team wiki';
const VERSIONS_REPLIES = [
  [
    'A few that read well in a sidebar and a URL:',
    '',
    '1. **Compass**: where the team finds its way.',
    '2. **The Ledger**: plain, and says it keeps records.',
    '3. **Basecamp**: the place everyone starts from.',
    '',
    'Compass is the safest: short, friendly, and rarely taken inside a company.',
  ].join('\n'),
  [
    'Three directions, depending on the tone you want:',
    '',
    '- **Practical**: _Handbook_, _Field Guide_',
    '- **Playful**: _The Hive_, _Brain Attic_',
    '- **Named after the team**: _Atlas Notes_, if your team is Atlas',
    '',
    'Whichever you pick, check that it searches well: a one-word name nobody else uses in',
    'your chat makes links to the wiki easy to find.',
  ].join('\n'),
];

const COMPARE_PROMPT = 'Why is the sky blue?';

const DAY = 86_400_000;

const RELEASE_NOTES = `<h3>Relay Desktop 0.2.0</h3>
<ul><li>Quick ask: one question from any app, with Ctrl+Alt+Space.</li>
<li>A tray icon, closing to the tray and opening at login.</li>
<li>Proxies, and extra headers for gateways.</li></ul>`;

const SELECTION =
  'Q3 revenue grew 4.2 % to 18.6 M EUR; churn fell from 3.1 % to 2.7 %, while support tickets rose 12 % after the pricing change.';
const QUICK_PROMPT = 'Summarise these figures for the weekly update';
const QUICK_REPLY = [
  '**Q3 in brief**',
  '',
  '- Revenue is up **4.2 %**, to 18.6 M EUR.',
  '- Churn improved from 3.1 % to **2.7 %**.',
  '- Support tickets rose **12 %** after the pricing change: worth a closer look.',
  '',
  'Overall a solid quarter; the one watch point is the support load since the new prices.',
].join('\n');

describe.each(['light', 'dark'] as const)('screenshots in the %s theme', (theme) => {
  const updater = new ScriptedUpdater();
  const dialogs = new ScriptedDialogs();
  // The backups' clock starts three days back, so the backups shown span a few days.
  const backupClock = new FakeClock(new Date(Date.now() - 3 * DAY));
  const shared = suite.sharedApp(() => ({
    colorScheme: theme,
    fetch: scriptedChat({
      [SIMILARITY_PROMPT]: SIMILARITY_REPLY,
      [VERSIONS_PROMPT]: VERSIONS_REPLIES,
      [messageWithContext(QUICK_PROMPT, SELECTION)]: QUICK_REPLY,
    }),
    dialogs,
    backupSeams: { clock: backupClock, computerName: 'ada-laptop' },
    platform: {
      updater,
      desktopIntegration: new RecordingDesktop(),
      proxyStack: new RecordingProxyStack(),
      readClipboard: async () => ({ text: SELECTION, source: 'selection' as const }),
      windows: { showMain: () => undefined, hideQuickAsk: () => undefined },
    },
  }));

  /** Saves a window as <screen>-<theme>.png, with the pointer and caret out of the way. */
  async function shoot(screen: string, page: Page = shared.app.page): Promise<void> {
    const size = page.viewportSize() ?? { width: 1280, height: 800 };
    await page.mouse.move(size.width - 1, size.height - 1);
    // Fonts and images settled, and two frames for layout.
    await page.evaluate(
      `document.fonts.ready.then(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))))`,
    );
    const name = `${screen}-${theme}.png`;
    const path = join(DOCS, name);
    await page.screenshot({ path, animations: 'disabled', caret: 'hide' });
    await expectRendered(path, size);
    written.add(name);
  }

  /** Scrolls the Settings section with this heading to the top of the window. */
  async function showSection(title: string): Promise<void> {
    await shared.app.page
      .getByRole('heading', { level: 2, name: title, exact: true })
      .evaluate((heading) =>
        (heading as unknown as { closest(s: string): { scrollIntoView(o: object): void } })
          .closest('section')
          .scrollIntoView({ block: 'start' }),
      );
  }

  /** Moves focus off whatever was clicked last, so no focus ring shows in the picture. */
  async function blur(): Promise<void> {
    await shared.app.page.evaluate('document.activeElement?.blur()');
  }

  beforeAll(() => shared.app.page.setViewportSize({ width: 1280, height: 800 }));

  it('first run', async () => {
    const connect = new ConnectPage(shared.app.page);
    await connect.waitUntilShown();
    await shoot('connect');
    await connect.tryDemo.click();
    // Connected: a new chat, with the model that will answer and three suggestions.
    const welcome = shared.app.page.getByRole('region', { name: 'Start a conversation' });
    await expect.poll(() => welcome.textContent()).toMatch(/Replies come from demo-chat/);
    await blur();
    await shoot('first-chat');
  });

  it('model picker, with prices entered', async () => {
    const models = new ModelsPage(shared.app.page);
    await models.open();
    await models.waitForModels();
    for (const [model, input, output] of [
      ['demo-chat', '2.5', '10'],
      ['demo-chat-fast', '0.15', '0.6'],
    ] as const) {
      await models
        .row(model)
        .getByRole('button', { name: `Set price of ${model}` })
        .click();
      const form = shared.app.page.getByRole('form', { name: `Price of ${model}` });
      await form.getByLabel('Input, per million tokens').fill(input);
      await form.getByLabel('Output, per million tokens').fill(output);
      if (model === 'demo-chat-fast') break;
      await form.getByRole('button', { name: 'Save price' }).click();
      await form.waitFor({ state: 'detached' });
    }
    await blur();
    await shoot('models');
    await shared.app.page.getByRole('button', { name: 'Save price' }).click();
    await shared.app.page.getByRole('form', { name: /^Price of / }).waitFor({ state: 'detached' });
  });

  it('chat: a conversation with markdown, code, a formula and a table', async () => {
    const chat = new ChatPage(shared.app.page);
    await chat.open();
    for (const prompt of [...EARLIER_CHATS, SIMILARITY_PROMPT]) {
      await chat.newChat();
      await expect.poll(() => chat.modelName()).toMatch(/^demo-chat/);
      await chat.send(prompt);
      await expect(chat.finishedReplyStatus()).resolves.toBe('complete');
    }
    await chat.lastReply().locator('.katex-display').waitFor();
    await blur();
    await shoot('chat');
  });

  it('chat: the model picker open, then a notice after Copy', async () => {
    const chat = new ChatPage(shared.app.page);
    await chat.model.click();
    await chat.picker().getByRole('combobox').waitFor();
    await shoot('chat-picker');
    await shared.app.page.keyboard.press('Escape');
    await chat.picker().waitFor({ state: 'detached' });
    await chat.lastReply().getByRole('button', { name: 'Copy', exact: true }).click();
    await shared.app.page
      .locator('.toast-region .toast')
      .filter({ hasText: 'Copied to the clipboard.' })
      .waitFor();
    await shoot('chat-notice');
  });

  it('chat: a conversation pinned, and the actions of another in its ⋯ menu', async () => {
    const page = shared.app.page;
    const chat = new ChatPage(page);
    const row = (start: string) =>
      chat.sidebar.locator('.chat-conversation').filter({ hasText: start });
    await row('Summarise the release notes')
      .getByRole('button', { name: /^Actions for / })
      .click();
    await page.getByRole('menuitem', { name: 'Pin', exact: true }).click();
    await chat.sidebar.getByRole('heading', { name: 'Pinned' }).waitFor();
    await row('Draft a friendly reminder')
      .getByRole('button', { name: /^Actions for / })
      .click();
    await page.getByRole('menuitem', { name: 'Export', exact: true }).hover();
    await page.getByRole('menuitem', { name: 'Markdown (.md)' }).waitFor();
    await shoot('chat-menu');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    await page.getByRole('menu').first().waitFor({ state: 'detached' });
  });

  it('chat: versions of a reply, and models compared side by side', async () => {
    const chat = new ChatPage(shared.app.page);
    await chat.ready();
    await chat.send(VERSIONS_PROMPT);
    await expect(chat.finishedReplyStatus()).resolves.toBe('complete');
    await chat.lastReply().getByRole('button', { name: 'Regenerate' }).click();
    await chat.lastReply().getByRole('group', { name: 'Version 2 of 2' }).waitFor();
    await expect(chat.finishedReplyStatus()).resolves.toBe('complete');
    await chat.lastReply().getByText('Three directions').waitFor();
    await blur();
    await shoot('chat-versions');

    await chat.ready();
    await shared.app.page.getByRole('button', { name: 'Compare models…' }).click();
    const form = shared.app.page.getByRole('form', { name: 'Compare models' });
    await form.getByLabel('Model of column 1').selectOption('demo-chat');
    await form.getByLabel('Model of column 2').selectOption('demo-chat-mini');
    await form.getByLabel('Message to compare').fill(COMPARE_PROMPT);
    await form.getByRole('button', { name: 'Send to all' }).click();
    const columns = shared.app.page.getByRole('region', { name: 'Replies side by side' });
    const column = (model: string) =>
      columns.getByRole('article', { name: new RegExp(`^${model} · temperature`) });
    for (const model of ['demo-chat', 'demo-chat-mini']) {
      await expect
        .poll(() => column(model).getAttribute('data-status'), { timeout: 20_000 })
        .toBe('complete');
    }
    await blur();
    await shoot('chat-compare');
    await column('demo-chat').getByRole('button', { name: 'Continue with this one' }).click();
    await columns.waitFor({ state: 'detached' });
  });

  it('chat in a narrow window: icon navigation, and a way back to the latest reply', async () => {
    const page = shared.app.page;
    const chat = new ChatPage(page);
    await chat.openConversation('How do I tell how similar');
    await chat.lastReply().locator('.katex-display').waitFor();
    await page.setViewportSize({ width: 900, height: 650 });
    // Read a little way up: the view stops following and offers the way back.
    await expect.poll(() => chat.scrollBy(-320)).toBe(true);
    await chat.jumpToLatest().waitFor();
    await blur();
    await shoot('chat-narrow');
    await chat.jumpToLatest().click();
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('knowledge: a base built from a folder, a refused file, and the passages a question finds', async () => {
    const page = shared.app.page;
    const folder = join(suite.scratch, `harbour-${theme}`);
    await mkdir(folder, { recursive: true });
    await writeFile(
      join(folder, 'harbour-guide.md'),
      '# Harbour guide\n\n## Ferry timetable\n\nThe ferry leaves the pier every hour from seven in the morning.\n\n## Mooring fees\n\nMooring fees are paid monthly at the harbour office counter.\n',
    );
    await copyFile(
      join(ROOT, 'tests/fixtures/documents/notes.pdf'),
      join(folder, 'keeper-notes.pdf'),
    );
    await writeFile(join(folder, 'engine-log.bin'), Buffer.from([0, 159, 146, 150, 0, 1, 2, 3]));
    dialogs.folders.push(folder);
    const knowledge = new KnowledgePage(page);
    await knowledge.open();
    await knowledge.ready();
    await knowledge.create('Harbour office');
    await page.getByRole('button', { name: 'Add folder…' }).click();
    await expect.poll(() => knowledge.status.textContent(), { timeout: 20_000 }).toBe('Ready');
    await knowledge.ask('When are storm warnings raised?');
    await blur();
    await shoot('knowledge');
  });

  it('attachments: files and an image in the message box, and one refused by name', async () => {
    const page = shared.app.page;
    const folder = join(suite.scratch, `attach-${theme}`);
    await mkdir(folder, { recursive: true });
    const table = join(folder, 'tide-table.md');
    await writeFile(
      table,
      '# Tide table\n\n| Day | High water |\n| --- | --- |\n| Monday | 06:12 |\n| Tuesday | 06:58 |\n',
    );
    const notes = join(folder, 'keeper-notes.pdf');
    await copyFile(join(ROOT, 'tests/fixtures/documents/notes.pdf'), notes);
    const scanned = join(folder, 'harbour-map.pdf');
    await copyFile(join(ROOT, 'tests/fixtures/documents/scanned.pdf'), scanned);
    // A picture of the harbour: sky, sea and sand, for the image chip's thumbnail.
    const photo = join(folder, 'harbour.jpg');
    const band = (height: number, background: string) =>
      sharp({ create: { width: 1600, height, channels: 3, background } })
        .png()
        .toBuffer();
    await writeFile(
      photo,
      await sharp({ create: { width: 1600, height: 1200, channels: 3, background: '#7fb8e6' } })
        .composite([
          { input: await band(500, '#1f5f99'), left: 0, top: 500 },
          { input: await band(200, '#e3c58f'), left: 0, top: 1000 },
        ])
        .jpeg()
        .toBuffer(),
    );
    dialogs.openPaths.push([table, notes, photo, scanned]);
    const chat = new ChatPage(page);
    await chat.open();
    await chat.newChat();
    await page.getByRole('button', { name: 'Attach files' }).click();
    const chips = page.getByRole('list', { name: 'Attached files' });
    await expect.poll(() => chips.getByRole('listitem').count(), { timeout: 20_000 }).toBe(3);
    await page.getByRole('list', { name: 'Files not added' }).waitFor();
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('When does the keeper raise storm warnings, and what is high water on Monday?');
    await blur();
    await shoot('attachments');
    // Nothing left in the message box for the screens after this one.
    for (const name of ['tide-table.md', 'keeper-notes.pdf', 'harbour.jpg'])
      await page.getByRole('button', { name: `Remove ${name}` }).click();
    await box.fill('');
  });

  it('prompts: the library, and a snippet asking for its variables in the message box', async () => {
    const page = shared.app.page;
    const prompts = new PromptsPage(page);
    await prompts.open();
    await prompts.ready();
    await prompts.fillNew('snippet', {
      name: 'Meeting notes',
      text: 'Turn these notes from the {{team}} meeting into {{format=action items with owners}}:\n\n',
    });
    await prompts.editor.getByRole('textbox', { name: 'Description' }).fill('Notes into actions');
    await prompts.save();
    await prompts.card('Meeting notes').waitFor();
    await blur();
    await shoot('prompts');

    const chat = new ChatPage(page);
    await chat.open();
    await chat.ready();
    await chat.message.fill('/meet');
    await page.getByRole('option', { name: /Meeting notes/ }).waitFor();
    await chat.message.press('Enter');
    const form = page.locator('.snippet-fill');
    await form.getByLabel('team').fill('design');
    await blur();
    await shoot('prompts-insert');
    await form.getByRole('button', { name: 'Cancel' }).click();
    await chat.message.fill('');
  });

  it('tools: an MCP server with its tools, their cost and a rule per tool', async () => {
    const page = shared.app.page;
    const tools = new ToolsPage(page);
    await tools.open();
    await tools.ready();
    await tools.fillLocal({
      name: 'Everything',
      command: 'node',
      args: [join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js')],
    });
    await tools.save();
    const card = tools.card('Everything');
    await card.waitFor();
    // The command line allowed in main's own question, as the person would.
    dialogs.confirmAnswers.push(true);
    await card.getByRole('button', { name: 'Test Everything' }).click();
    await card.getByRole('checkbox', { name: 'Offer echo' }).waitFor({ timeout: 60_000 });
    await card.getByRole('button', { name: 'Close' }).click();
    await card.getByRole('checkbox', { name: 'Offer get-env' }).click();
    await card.getByRole('combobox', { name: 'Rule for get-sum' }).selectOption('allow');
    await tools.permissions.locator('li.tools-permission').waitFor();
    // The command line as a person would write it, not this checkout's folder.
    await page.evaluate(
      `document.querySelector('.tools-server-target code').textContent = 'npx -y @modelcontextprotocol/server-everything'`,
    );
    await blur();
    await shoot('tools');
  });

  it('usage: tokens and cost per model and per day', async () => {
    // Three weeks of earlier replies, as a person using the app daily would have.
    const models = ['demo-chat', 'demo-chat-fast', 'demo-chat-mini'];
    for (let day = 1; day <= 21; day++) {
      const at = new Date(Date.now() - day * DAY);
      if (at.getDay() === 0) continue;
      models.forEach((model, index) => {
        const scale = 1 + ((day * 7 + index * 5) % 9);
        if ((day + index) % 4 === 3) return;
        shared.app.services.db.run(
          `INSERT INTO chat_usage
            (message_id, conversation_id, model, prompt_tokens, completion_tokens, created_at)
            VALUES (?, NULL, ?, ?, ?, ?)`,
          [
            `history-${day}-${model}`,
            model,
            scale * 900 * (3 - index),
            scale * 400,
            at.toISOString(),
          ],
        );
      });
    }
    const page = shared.app.page;
    await page
      .getByRole('navigation', { name: 'Screens' })
      .getByRole('button', { name: 'Usage', exact: true })
      .click();
    const chart = page.getByRole('img', { name: /^Tokens per day/ });
    await chart.locator('canvas').first().waitFor();
    await chart.focus();
    await chart.press('End');
    await chart.press('ArrowLeft');
    await chart.press('ArrowLeft');
    await expect.poll(() => page.locator('.usage-day').textContent()).toMatch(/tokens/);
    await page
      .getByRole('heading', { level: 1, name: 'Usage' })
      .evaluate((h) =>
        (h as unknown as { scrollIntoView(o: object): void }).scrollIntoView({ block: 'start' }),
      );
    await shoot('usage');
  });

  it('embeddings: vectors, heatmap and scatter', async () => {
    const embeddings = new EmbeddingsPage(shared.app.page);
    await embeddings.open();
    await expect.poll(() => embeddings.model.inputValue()).toMatch(/^demo-embedding/);
    await embeddings.embedLines(EMBEDDING_TEXTS);
    await embeddings.waitForPictures();
    await blur();
    await shoot('embeddings');
    // The map, further down its column, with a point chosen by keyboard.
    await embeddings.scatter.focus();
    await shared.app.page.keyboard.press('ArrowRight');
    await shared.app.page.evaluate(
      `document.querySelector('canvas.scatter-canvas').closest('section, .card')?.scrollIntoView({ block: 'start' })`,
    );
    await shoot('embeddings-pictures');
  });

  it('embeddings in German and in French, chosen in Settings', async () => {
    // The README shows one screen in two other languages; the light theme is enough for that.
    if (theme !== 'light') return;
    const page = shared.app.page;
    const screen = (index: number) => page.locator('nav.sidebar .nav-item').nth(index);
    const language = page.locator('section[aria-labelledby="appearance-title"] select');
    for (const [locale, title] of [
      ['de', 'Embeddings'],
      ['fr', 'Embeddings'],
    ] as const) {
      await screen(9).click();
      await language.selectOption(locale);
      await expect.poll(() => page.locator('html').getAttribute('lang')).toBe(locale);
      await screen(4).click();
      await page.getByRole('heading', { level: 1, name: title }).waitFor();
      await page.locator('canvas.heatmap-canvas[data-painted="true"]').waitFor();
      await page.evaluate(`document.querySelector('main.screen')?.scrollTo(0, 0)`);
      await blur();
      await shoot(`embeddings-${locale}`);
    }
    // Back to the system's language (English here) for the screens after this one.
    await screen(9).click();
    await language.selectOption('system');
    await expect.poll(() => page.locator('html').getAttribute('lang')).toBe('en');
  });

  it('images: a gallery of generated images', async () => {
    const images = new ImagesPage(shared.app.page);
    await images.open();
    await expect.poll(() => images.model.inputValue()).toBe('demo-image');
    for (const [index, prompt] of IMAGE_PROMPTS.entries()) {
      await images.generate(prompt, { size: '256x256' });
      await images.waitForThumbnails(index + 1);
      await expect.poll(() => images.generateButton.isVisible()).toBe(true);
    }
    await images.prompt.fill('a lighthouse on a cliff at dawn, watercolour');
    // The gallery folder is a temporary one here; show where the app keeps it by default.
    await shared.app.page.evaluate(
      `document.querySelector('.gallery-folder span').textContent = '/home/ada/Pictures/Relay Desktop'`,
    );
    await blur();
    await shoot('images');
  });

  it('connections and settings', async () => {
    const nav = shared.app.page.getByRole('navigation', { name: 'Screens' });
    await nav.getByRole('button', { name: 'Connections', exact: true }).click();
    await shared.app.page.getByRole('heading', { level: 1, name: 'Connections' }).waitFor();
    await blur();
    await shoot('connections');
    await nav.getByRole('button', { name: 'Settings', exact: true }).click();
    await shared.app.page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    await blur();
    await shoot('settings');
  });

  it('backups: the status, the backups, and the preview before a restore', async () => {
    const backupFolder = join(suite.scratch, `backups-${theme}`);
    await mkdir(backupFolder);
    const backups = new BackupsPage(shared.app.page);
    dialogs.folders.push(backupFolder);
    await backups.chooseFolder.click();
    await expect.poll(() => backups.headline.textContent()).toMatch(/Last verified backup/);
    await shared.app.services.backups.settled();
    // A backup a day, the newest two hours ago.
    for (const step of [DAY, DAY, DAY - 2 * 3_600_000]) {
      await backupClock.advance(step);
      await shared.app.services.backups.backUpNow('scheduled');
    }
    const nav = shared.app.page.getByRole('navigation', { name: 'Screens' });
    await nav.getByRole('button', { name: 'Models', exact: true }).click();
    await nav.getByRole('button', { name: 'Settings', exact: true }).click();
    await expect
      .poll(async () => `${await backups.rows().count()} backups: ${await readdir(backupFolder)}`)
      .toMatch(/^4 backups/);
    await expect.poll(() => backups.headline.textContent()).toMatch(/2 hours ago/);
    // The folder is a temporary one here; show one a cloud drive syncs, as a person would pick.
    const shown = '/home/ada/Dropbox/Relay Desktop backups';
    await shared.app.page.evaluate(
      `document.querySelector('.backup-folder-path').textContent = ${JSON.stringify(shown)}`,
    );
    await shared.app.page.evaluate(
      `document.getElementById('backups').scrollIntoView({ block: 'start' })`,
    );
    await blur();
    await shoot('backups');
    const dialog = await backups.askToRestore(1);
    await expect.poll(() => dialog.textContent()).toMatch(/Checksum matches/);
    await shared.app.page.evaluate(
      `document.querySelector('.backup-path').textContent = ${JSON.stringify(`${shown}/`)} + document.querySelector('.backup-path').textContent.split('/').pop()`,
    );
    await blur();
    await shoot('restore');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await shared.app.page.evaluate(`document.querySelector('main.screen').scrollTop = 0`);
  });

  it('settings: quick ask and the desktop, the network, updates', async () => {
    const page = shared.app.page;
    await showSection('Quick ask');
    await blur();
    await shoot('settings-desktop');

    const network = page.getByRole('region', { name: 'Network' });
    await network.getByRole('radio', { name: /Use this proxy/ }).check();
    await network.getByLabel('Host').fill('proxy.corp.example.com');
    await network.getByLabel('Port').fill('3128');
    await network.getByLabel('Reach directly (bypass list)').fill('<local>\n.corp.example.com');
    // A proxy is used only after the person's yes in main's own dialog.
    dialogs.confirmAnswers.push(true);
    await network.getByRole('button', { name: 'Save proxy' }).click();
    await network.getByText('Saved and in use').waitFor();
    await network.getByLabel('Test an address').fill('https://relay.example.com');
    await network.getByRole('button', { name: 'Test', exact: true }).click();
    await network.getByText('goes through an HTTP proxy', { exact: false }).waitFor();
    await showSection('Network');
    await blur();
    await shoot('settings-network');

    const updates = page.getByRole('region', { name: 'Updates' });
    updater.next.push([
      { type: 'available', release: { version: '0.2.0', releaseNotes: RELEASE_NOTES } },
    ]);
    await updates.getByRole('button', { name: 'Check now' }).click();
    await updates.getByText('Downloading version 0.2.0').waitFor();
    updater.emit({
      type: 'downloaded',
      release: { version: '0.2.0', releaseNotes: RELEASE_NOTES },
    });
    await updates.getByRole('button', { name: 'Restart to update' }).waitFor();
    await showSection('Updates');
    await blur();
    await shoot('settings-updates');
  });

  it('a connection from a link, with extra headers', async () => {
    const page = shared.app.page;
    const nav = page.getByRole('navigation', { name: 'Screens' });
    await nav.getByRole('button', { name: 'Connections', exact: true }).click();
    shared.app.services.desktop.openLink(
      'relay-desktop://connect?name=Team%20gateway&baseUrl=https%3A%2F%2Fgateway.example.com%2Fv1&consoleUrl=https%3A%2F%2Fconsole.example.com',
    );
    const form = page.getByRole('form', { name: 'New connection' });
    await form.waitFor();
    await form.getByRole('button', { name: 'Add header' }).click();
    await form.getByLabel('Header 1 name').fill('HTTP-Referer');
    await form.getByLabel('Header 1 value').fill('https://team.example.com');
    await form.getByRole('button', { name: 'Add header' }).click();
    await form.getByLabel('Header 2 name').fill('x-portkey-api-key');
    await form.getByRole('checkbox', { name: 'Secret' }).nth(1).check();
    await form.getByLabel('Header 2 value').fill('pk-0a1b2c3d4e5f');
    await blur();
    await page.evaluate(`document.querySelector('main.screen').scrollTo(0, 0)`);
    await shoot('connection-link');
    await form.getByRole('button', { name: 'Cancel' }).click();
  });

  it('quick ask: a reply, with the selected text as context', async () => {
    const app = shared.app;
    await app.services.desktop.update({ quickAsk: { useClipboard: true } });
    const quick = new QuickAskPage(await app.openQuickWindow({ width: 640, height: 560 }));
    await app.services.quickAsk.windowShown();
    app.emit(EVENTS.quickAskShown.channel, null);
    await quick.context.waitFor();
    await expect.poll(() => quick.model.textContent()).toBe('demo-chat');
    await quick.ask(QUICK_PROMPT);
    await quick.waitForReply();
    await quick.reply.getByText('Q3 in brief').waitFor();
    await quick.prompt.fill('And what should we watch next quarter?');
    await shoot('quick-ask', quick.page);
  });

  it('knowledge in chat: a cited answer, and the retrieval X-ray', async () => {
    const page = shared.app.page;
    const chat = new ChatPage(page);
    await chat.open();
    await chat.ready();
    await page.getByRole('button', { name: 'Knowledge bases', exact: true }).click();
    await page
      .getByRole('dialog', { name: 'Knowledge bases' })
      .getByRole('checkbox', { name: /^Harbour office/ })
      .check();
    await page.keyboard.press('Escape');
    await expect
      .poll(() => page.locator('.chat-knowledge-names').textContent())
      .toBe('Harbour office');
    await chat.send('When does the ferry leave the pier?');
    await expect(chat.finishedReplyStatus()).resolves.toBe('complete');
    const reply = chat.lastReply();
    await reply.getByRole('button', { name: 'Source 1', exact: true }).first().click();
    const source = reply.getByRole('region', { name: 'Source 1' });
    await source.locator('blockquote').waitFor();
    await source.scrollIntoViewIfNeeded();
    await blur();
    await shoot('knowledge-cited');
    await source.getByRole('button', { name: 'Retrieval X-ray' }).click();
    const xray = reply.getByRole('region', { name: 'Retrieval X-ray' });
    await xray.locator('canvas').first().waitFor();
    await xray.evaluate((element) =>
      (element as unknown as { scrollIntoView(o: object): void }).scrollIntoView({
        block: 'start',
      }),
    );
    await blur();
    await shoot('knowledge-xray');
    await xray.getByRole('button', { name: 'Close' }).click();
  });

  it('sync: set up through a folder, synced, and what each sync brought', async () => {
    const page = shared.app.page;
    const syncFolder = join(suite.scratch, `sync-${theme}`);
    await mkdir(syncFolder);
    const nav = page.getByRole('navigation', { name: 'Screens' });
    await nav.getByRole('button', { name: 'Settings', exact: true }).click();
    const section = page.getByRole('region', { name: 'Sync', exact: true });
    await section.waitFor();
    dialogs.folders.push(syncFolder);
    await section.getByRole('button', { name: 'Choose folder…' }).click();
    await section.getByRole('button', { name: 'Set up new sync' }).click();
    await section.getByTestId('sync-phrase').waitFor({ timeout: 60_000 });
    await section.getByRole('button', { name: 'I have kept it' }).click();
    await section.getByRole('button', { name: 'Sync now' }).click();
    await expect.poll(() => section.getByTestId('sync-state').textContent()).toBe('Synced');
    await section
      .getByRole('list', { name: 'Recent syncs' })
      .getByRole('listitem')
      .first()
      .waitFor();
    // The folder as a person's would read, not this run's scratch folder.
    await page.evaluate(
      `document.querySelector('.sync-target').textContent = 'Folder: /home/ada/Dropbox/Relay sync'`,
    );
    await showSection('Sync');
    await blur();
    await shoot('sync');
    // The scenes after this one show the app without sync.
    await section.getByRole('button', { name: 'Turn off sync' }).click();
    await section.getByRole('button', { name: 'Set up new sync' }).waitFor();
  });

  it('the shortcut sheet', async () => {
    const shortcuts = new ShortcutsPage(shared.app.page);
    await shared.app.page.keyboard.press('Control+/');
    await shortcuts.sheet.waitFor();
    await shoot('shortcuts');
    await shared.app.page.keyboard.press('Escape');
  });
});
