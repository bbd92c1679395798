/**
 * Notices (toasts) a person can see: a styled stack in the window's corner, above everything on
 * every screen, read out politely, closing by itself after a few seconds (an Undo too), and its
 * action reachable from the keyboard (F6 goes to it, Esc leaves it), in a narrow light window
 * and a wide dark one.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ScriptedDialogs } from '../fakes/chat-dialogs';
import { e2eSuite } from './harness/suite';
import { blocking, describeViolations, scanPage } from './pages/axe';
import { ChatPage } from './pages/chat-page';
import { EmbeddingsPage } from './pages/embeddings-page';
import { NoticesPage, type NoticePlacement } from './pages/notices-page';

const suite = e2eSuite({ connectionName: 'Notice relay', scratch: true });

const WINDOWS = [
  { width: 900, height: 650, theme: 'light' },
  { width: 1280, height: 800, theme: 'dark' },
] as const;

/** In the window, in its bottom corner (at the end of the line), drawn over whatever is there. */
function expectInCorner(place: NoticePlacement) {
  expect(place.left).toBeGreaterThanOrEqual(0);
  expect(place.top).toBeGreaterThanOrEqual(0);
  expect(place.right).toBeLessThanOrEqual(place.window.width);
  expect(place.bottom).toBeLessThanOrEqual(place.window.height);
  expect(place.window.width - place.right).toBeLessThanOrEqual(40);
  expect(place.window.height - place.bottom).toBeLessThanOrEqual(40);
  expect(place.onTop).toBe(true);
  expect(place.background).not.toMatch(/^rgba\(0, 0, 0, 0\)$|^transparent$/);
}

describe.each(WINDOWS)('notices at $width×$height, $theme', ({ width, height, theme }) => {
  it('show in the corner above everything, are read out, leave by themselves, and stay clear of the rail', async () => {
    const page = await suite.connected(ChatPage, { colorScheme: theme });
    await page.page.setViewportSize({ width, height });
    const notices = new NoticesPage(page.page);
    await expect(notices.region.getAttribute('aria-live')).resolves.toBe('polite');

    await page.send('Where do rivers begin?');
    await expect(page.finishedReplyStatus()).resolves.toBe('complete');
    await page.lastReply().getByRole('button', { name: 'Copy', exact: true }).click();
    const copied = notices.notice('Copied to the clipboard.');
    await copied.waitFor();
    expectInCorner(await notices.placement(copied));
    const violations = blocking(await scanPage(page.page));
    expect(
      violations.map((v) => v.id),
      describeViolations('a notice', violations),
    ).toEqual([]);
    // It closes by itself, within seconds.
    await page.page.mouse.move(1, 1);
    await expect.poll(() => copied.count(), { timeout: 10_000 }).toBe(0);

    // On Embeddings, a notice sits in the same corner, clear of the icon rail.
    await page.lastReply().getByRole('button', { name: 'Copy', exact: true }).click();
    await copied.waitFor();
    const embeddings = new EmbeddingsPage(page.page);
    await embeddings.open();
    const place = await notices.placement(copied);
    expectInCorner(place);
    const rail = await page.page.getByRole('navigation', { name: 'Screens' }).boundingBox();
    expect(place.left).toBeGreaterThanOrEqual((rail?.x ?? 0) + (rail?.width ?? 0));
  });

  it('offer their action to the keyboard: F6 goes to it, and an Undo leaves after seconds', async () => {
    const dialogs = new ScriptedDialogs();
    const shown: string[] = [];
    const page = await suite.connected(ChatPage, {
      colorScheme: theme,
      dialogs,
      platform: {
        desktop: {
          showInFolder: (path) => void shown.push(path),
          moveToTrash: () => Promise.resolve(),
        },
      },
    });
    await page.page.setViewportSize({ width, height });
    const notices = new NoticesPage(page.page);
    await page.send('First question');
    await expect(page.finishedReplyStatus()).resolves.toBe('complete');
    await page.sidebar.getByText('First question').first().waitFor();

    // Exported: the notice says where, and F6 takes the keyboard to "Show in folder".
    dialogs.savePaths.push(join(suite.scratch, `notice-${width}.md`));
    await page.conversationAction('First question', 'Export', 'Markdown (.md)');
    const saved = notices.notice(/^Saved the conversation to .*notice-\d+\.md\./);
    await saved.waitFor();
    expectInCorner(await notices.placement(saved));
    await page.message.focus();
    await page.page.keyboard.press('F6');
    const show = saved.getByRole('button', { name: 'Show in folder' });
    await expect.poll(() => page.isFocused(show)).toBe(true);
    // Esc leaves it, back where the person was.
    await page.page.keyboard.press('Escape');
    await expect.poll(() => page.isFocused(page.message)).toBe(true);
    await page.page.keyboard.press('F6');
    await expect.poll(() => page.isFocused(show)).toBe(true);
    await page.page.keyboard.press('Enter');
    await expect.poll(() => shown.length).toBe(1);
    expect(shown[0]).toMatch(/notice-\d+\.md$/);
    await expect.poll(() => saved.count()).toBe(0);

    // Deleted: "Undo" in a notice in the same corner, which F6 reaches too.
    await page.conversationAction('First question', 'Delete');
    const deleted = notices.notice('Deleted “First question”.');
    await deleted.waitFor();
    expectInCorner(await notices.placement(deleted));
    await page.page.keyboard.press('F6');
    const undo = deleted.getByRole('button', { name: 'Undo' });
    await expect.poll(() => page.isFocused(undo)).toBe(true);
    await page.page.keyboard.press('Enter');
    await page.sidebar.getByText('First question').first().waitFor();
    await expect.poll(() => deleted.count()).toBe(0);

    // Left alone, an Undo goes after a few seconds, not minutes.
    await page.conversationAction('First question', 'Delete');
    await deleted.waitFor();
    await page.search.focus();
    await page.page.mouse.move(1, 1);
    await expect.poll(() => deleted.count(), { timeout: 15_000 }).toBe(0);
    await expect(page.sidebar.getByText('First question').count()).resolves.toBe(0);
  });
});
