/**
 * Search as a palette (Ctrl+K): the arrows choose a hit from the field, Enter opens it, one hit
 * per message however many versions it has, the words found marked in the rendered message
 * (through the CSS Custom Highlight API, not markup), and Esc closes it and gives focus back.
 */
import { describe, expect, it } from 'vitest';
import { ChatStore, type NewMessage } from '../../electron/main/services/chat/store';
import { e2eSuite } from './harness/suite';
import { ChatPage } from './pages/chat-page';

const suite = e2eSuite({ connectionName: 'Palette relay' });

const say = (role: 'user' | 'assistant', content: string): NewMessage => ({
  role,
  content,
  status: 'complete',
});

/** The ranges marked as search hits: their text, and whether they lie in `messageId`'s row. */
async function marked(page: ChatPage, messageId: string) {
  return page.page.evaluate((id) => {
    const registry = (
      globalThis as unknown as {
        CSS: {
          highlights: Map<
            string,
            Set<{ toString(): string; commonAncestorContainer: { parentElement: unknown } }>
          >;
        };
      }
    ).CSS.highlights;
    const highlight = registry.get('chat-search-hit');
    return [...(highlight ?? [])].map((range) => ({
      text: range.toString(),
      inRow: Boolean(
        (
          range.commonAncestorContainer.parentElement as {
            closest(s: string): unknown;
          } | null
        )?.closest(`article[data-message-id="${id}"]`),
      ),
    }));
  }, messageId);
}

describe('search as a palette', () => {
  for (const size of [
    { width: 1280, height: 800 },
    { width: 900, height: 650 },
  ]) {
    it(`chooses with the arrows, opens with Enter, marks the words, Esc goes back (${size.width}×${size.height})`, async () => {
      let deepId = '';
      const page = await suite.connected(ChatPage, {
        ready: false,
        seed: (app) => {
          const store = new ChatStore(app.services.db);
          const long = store.create({ title: 'A long history', model: 'demo-chat' });
          const messages = store.append(
            long.id,
            Array.from({ length: 200 }, (_, i) =>
              say(
                i % 2 === 0 ? 'user' : 'assistant',
                i === 41
                  ? 'Deep in the past: **the pangolin** rolled into a ball.'
                  : `Message number ${i}, nothing to see.`,
              ),
            ),
          );
          deepId = messages[41]!.id;
          // One reply in three versions, each with the word: one hit, not three.
          const versions = store.create({ title: 'Scaly animals', model: 'demo-chat' });
          const [question] = store.append(versions.id, [say('user', 'Which animal has scales?')]);
          for (const text of ['A pangolin.', 'The pangolin, surely.', 'Pangolins do.'])
            store.append(versions.id, [say('assistant', text)], question!.id);
        },
      });
      await page.page.setViewportSize(size);
      await page.message.waitFor();
      await page.message.focus();

      await page.page.keyboard.press('Control+k');
      await expect.poll(() => page.isFocused(page.search)).toBe(true);
      await page.page.keyboard.type('pangolin');
      const results = page.searchResults();
      await results.waitFor();
      const options = results.getByRole('option');
      await expect.poll(() => options.count()).toBe(2);
      await expect(options.allTextContents()).resolves.toEqual([
        expect.stringContaining('Scaly animals'),
        expect.stringContaining('A long history'),
      ]);

      // The first hit is chosen; the arrows move the choice and the field keeps the focus.
      const selected = () => results.locator('[aria-selected="true"]').allTextContents();
      await expect.poll(selected).toEqual([expect.stringContaining('Scaly animals')]);
      await page.page.keyboard.press('ArrowDown');
      await expect.poll(selected).toEqual([expect.stringContaining('A long history')]);
      await page.page.keyboard.press('ArrowDown');
      await expect.poll(selected).toEqual([expect.stringContaining('Scaly animals')]);
      await page.page.keyboard.press('ArrowUp');
      await expect.poll(selected).toEqual([expect.stringContaining('A long history')]);
      await expect(page.isFocused(page.search)).resolves.toBe(true);
      const chosenId = await results.locator('[aria-selected="true"]').getAttribute('id');
      await expect(page.search.getAttribute('aria-activedescendant')).resolves.toBe(chosenId);

      // Enter opens it at the message, in view, the word marked in the rendered text.
      await page.page.keyboard.press('Enter');
      const target = page.messageById(deepId);
      await target.waitFor();
      await expect.poll(() => target.getAttribute('data-highlighted')).toBe('true');
      await expect.poll(() => page.isInView(target)).toBe(true);
      await expect.poll(() => marked(page, deepId)).toEqual([{ text: 'pangolin', inRow: true }]);
      // Marked, not rewritten: the message's own markup holds no mark of ours.
      await expect(target.locator('.markdown mark').count()).resolves.toBe(0);
      await expect(target.locator('.markdown strong').textContent()).resolves.toBe('the pangolin');

      // Esc closes the search and gives the focus back to the message box.
      await page.page.keyboard.press('Escape');
      await results.waitFor({ state: 'detached' });
      await expect(page.search.inputValue()).resolves.toBe('');
      await expect.poll(() => page.isFocused(page.message)).toBe(true);
    }, 60_000);
  }
});
