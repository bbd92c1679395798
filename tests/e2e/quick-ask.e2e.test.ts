/**
 * Quick ask in Chromium: its own page (quick.html) beside the main window's, the same bridge and
 * router, the demo relay's reply streamed and rendered with the chat's markdown renderer, saved
 * as a conversation (or not, as set), continued in the main window, and the clipboard offered as
 * context only when asked for and sent only if kept.
 */
import { describe, expect, it } from 'vitest';
import type { AppWindows } from '../../electron/main/services/quick-ask';
import type { ClipboardText } from '../../electron/main/services/quick-ask/quick-ask-service';
import { EVENTS } from '../../electron/shared/ipc/contract';
import { e2eSuite } from './harness/suite';
import type { Page } from 'playwright-core';
import { blocking, describeViolations, scanPage } from './pages/axe';
import { ChatPage } from './pages/chat-page';
import { walkWithTab } from './pages/keyboard-walk';
import { ConnectPage } from './pages/connect-page';
import { QuickAskPage } from './pages/quick-ask-page';

const suite = e2eSuite({ relay: false });

/** What the quick window's routes asked of the app's windows. */
class RecordingWindows implements AppWindows {
  calls: string[] = [];
  showMain() {
    this.calls.push('showMain');
  }
  hideQuickAsk() {
    this.calls.push('hideQuickAsk');
  }
}

async function openQuickAsk(
  options: { clipboard?: ClipboardText; colorScheme?: 'light' | 'dark' } = {},
) {
  const windows = new RecordingWindows();
  let reads = 0;
  const app = await suite.openApp({
    ...(options.colorScheme ? { colorScheme: options.colorScheme } : {}),
    platform: {
      windows,
      readClipboard: async () => {
        reads++;
        return options.clipboard;
      },
    },
  });
  const connect = new ConnectPage(app.page);
  await connect.waitUntilShown();
  await connect.tryDemo.click();
  await new ConnectPage(app.page).waitUntilConnected();
  const quick = new QuickAskPage(await app.openQuickWindow());
  await expect.poll(() => quick.model.textContent()).toBe('demo-chat');
  return { quick, windows, reads: () => reads };
}

/** No serious axe violation; Tab reaches every control, each with a visible focus ring. */
async function expectAccessible(page: Page, state: string): Promise<void> {
  const failing = blocking(await scanPage(page));
  expect(
    failing.map((v) => v.id),
    describeViolations(state, failing),
  ).toEqual([]);
  const { controls, stops } = await walkWithTab(page);
  const reached = new Set(stops.map((stop) => stop.index));
  expect(
    controls.filter((_, index) => !reached.has(index)),
    `${state}: not reached`,
  ).toEqual([]);
  expect(
    stops.filter((s) => s.outlineStyle === 'none' || !(s.outlineWidth > 0)).map((s) => s.name),
    `${state}: no visible focus`,
  ).toEqual([]);
}

/** As the shortcut does (index.ts): main reads the clipboard if allowed, then tells the page. */
async function showQuickWindow(): Promise<void> {
  await suite.app.services.quickAsk.windowShown();
  suite.app.emit(EVENTS.quickAskShown.channel, null);
}

describe('quick ask', () => {
  it('streams the reply with the chat renderer, keeps it as a conversation, opens it in the app, and hides on Esc', async () => {
    const { quick, windows } = await openQuickAsk();
    await quick.ask('Explain the relay in two points');
    await quick.waitForReply();
    // Styled with the app's design tokens, as the main window is.
    const token = `getComputedStyle(document.documentElement).getPropertyValue('--color-accent').trim()`;
    await expect(quick.page.evaluate(token)).resolves.toMatch(/\S/);
    await expect(quick.page.evaluate(token)).resolves.toBe(await suite.app.page.evaluate(token));
    // The chat's markdown: the demo reply's bold text and its code block.
    await expect.poll(() => quick.reply.locator('.markdown strong').count()).toBeGreaterThan(0);
    await expect.poll(() => quick.reply.locator('.md-code').count()).toBeGreaterThan(0);
    await quick.page.getByText('Saved as a conversation').waitFor();
    const list = await suite.app.services.handlers.listConversations(undefined, {
      url: '',
      isMainFrame: true,
      webContentsId: 1,
    });
    expect(list.map((c) => c.title)).toEqual(['Explain the relay in two points']);
    // Streamed: deltas went to the quick window's page, and never to the main one.
    const deltas = suite.app.messages.filter((m) => m.channel === EVENTS.quickAskDelta.channel);
    expect(deltas.length).toBeGreaterThan(1);
    await expectAccessible(quick.page, 'quick ask with a reply (light)');

    await quick.openInApp.click();
    await expect.poll(() => windows.calls).toEqual(['showMain', 'hideQuickAsk']);
    // The main window shows that conversation, in Chat.
    const chat = new ChatPage(suite.app.page);
    await chat.lastReply().waitFor();
    await expect
      .poll(() => chat.sidebar.getByRole('button', { name: /Explain the relay/ }).count())
      .toBeGreaterThan(0);

    // Esc hides the window; shown again, the prompt has the focus.
    await quick.prompt.fill('half a question');
    await quick.prompt.press('Escape');
    await expect.poll(() => windows.calls.at(-1)).toBe('hideQuickAsk');
    await quick.page.getByRole('button', { name: 'Hide' }).focus();
    await showQuickWindow();
    await expect
      .poll(() =>
        quick.prompt.evaluate(
          (el) =>
            el ===
            (el as { ownerDocument: { activeElement: unknown } }).ownerDocument.activeElement,
        ),
      )
      .toBe(true);
  });

  it('keeps nothing unless it is opened in the app, when set so', async () => {
    const { quick } = await openQuickAsk();
    await suite.app.services.desktop.update({ quickAsk: { saveConversations: false } });
    await showQuickWindow();
    await quick.page.getByText('Not saved unless you open it in Relay Desktop').waitFor();
    await quick.ask('A question to forget');
    await quick.waitForReply();
    expect(await quick.page.getByText('Saved as a conversation').count()).toBe(0);
    expect(suite.app.services.db.all('SELECT id FROM chat_conversations')).toEqual([]);

    await quick.openInApp.click();
    await expect
      .poll(() => suite.app.services.db.all('SELECT title FROM chat_conversations'))
      .toEqual([{ title: 'A question to forget' }]);
  });

  // Two windows, two quick asks and a reload: about 27 s alone on 2 cores, near the 30 s default.
  it('offers the clipboard only when allowed, and sends it only if kept', async () => {
    const clipboard: ClipboardText = {
      text: 'The quarterly figures rose by 4 %.',
      source: 'selection',
    };
    const { quick, reads } = await openQuickAsk({ clipboard, colorScheme: 'dark' });
    // Off by default: nothing is read.
    await showQuickWindow();
    expect(reads()).toBe(0);
    expect(await quick.context.count()).toBe(0);

    await suite.app.services.desktop.update({ quickAsk: { useClipboard: true } });
    await showQuickWindow();
    expect(reads()).toBe(1);
    await quick.context.waitFor();
    await expectAccessible(quick.page, 'quick ask with context (dark)');
    await expect.poll(() => quick.context.textContent()).toContain('the text you last selected');
    await expect.poll(() => quick.context.textContent()).toContain('quarterly figures');

    await quick.ask('Summarise this');
    await quick.waitForReply();
    const sent = suite.app.services.db.all<{ content: string }>(
      "SELECT content FROM chat_messages WHERE role = 'user'",
    );
    expect(sent[0]?.content).toBe(
      'Summarise this\n\nContext:\n\n> The quarterly figures rose by 4 %.',
    );

    // Left out: the next question goes alone.
    await showQuickWindow();
    await quick.context.waitFor();
    await quick.context.getByRole('button', { name: 'Don’t send it' }).click();
    expect(await quick.context.count()).toBe(0);
    await quick.ask('Just this');
    await quick.waitForReply();
    const last = suite.app.services.db.all<{ content: string }>(
      "SELECT content FROM chat_messages WHERE role = 'user' ORDER BY created_at DESC, rowid DESC LIMIT 1",
    );
    expect(last[0]?.content).toBe('Just this');
  }, 60_000);

  it('is a page of its own, served with the same CSP, and says when there is no relay', async () => {
    const app = await suite.openApp();
    const quick = new QuickAskPage(await app.openQuickWindow());
    await quick.page.getByText('Connect to a relay first').waitFor();
    await expect(quick.prompt.isDisabled()).resolves.toBe(true);
    const csp = await quick.page.evaluate(async () => {
      const response = await fetch('/quick.html');
      return response.headers.get('content-security-policy');
    });
    expect(csp).toContain("script-src 'self'");
    // Main's reason in the language shown, from its key.
    await app.services.settings.update({ language: 'de' });
    await quick.page.reload();
    await quick.page
      .getByText('Verbinden Sie sich zuerst mit einem Relay:', { exact: false })
      .waitFor();
  });
});
