import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

/** The chat screen: the conversation list, the open conversation and its composer. */
export class ChatPage {
  readonly sidebar: Locator;
  readonly message: Locator;
  readonly model: Locator;
  readonly search: Locator;

  constructor(readonly page: Page) {
    this.sidebar = page.getByRole('complementary', { name: 'Conversations' });
    this.message = page.getByLabel('Message', { exact: true });
    this.model = page.getByRole('button', { name: /^Chat model: / });
    this.search = page.getByLabel('Search messages');
  }

  async open(): Promise<void> {
    await this.page
      .getByRole('navigation', { name: 'Screens' })
      .getByRole('button', { name: 'Chat', exact: true })
      .click();
    await this.sidebar.waitFor();
  }

  /** A new conversation, its message box shown and a demo chat model chosen. */
  async ready(): Promise<void> {
    await this.newChat();
    await expect.poll(() => this.modelName()).toMatch(/^demo-chat/);
  }

  /** The model the chip shows (the open conversation's, or the new chat's). */
  async modelName(): Promise<string> {
    return (await this.model.locator('.chat-model-name').textContent()) ?? '';
  }

  /** The model picker, open. */
  picker(): Locator {
    return this.page.getByRole('dialog', { name: 'Choose a chat model' });
  }

  /** Gives the chat one tool server's tools through the header's chip (none were given). */
  async chooseToolServer(name: string): Promise<void> {
    await this.page.getByRole('button', { name: 'Tools: none' }).click();
    await this.page.getByRole('checkbox', { name }).check();
    await this.page.keyboard.press('Escape');
    await this.page.getByRole('button', { name: 'Tools: 1 server' }).waitFor();
  }

  /** Chooses a model of the connection in use (or of `connection`) in the picker. */
  async chooseModel(model: string, connection?: string): Promise<void> {
    if ((await this.model.getAttribute('aria-expanded')) !== 'true') await this.model.click();
    const picker = this.picker();
    await picker.getByRole('combobox').fill(model);
    const group = picker.getByRole('group', {
      name: connection ?? /\(in use\)$/,
    });
    await group.locator(`[role="option"][data-model="${model}"]`).click();
    await picker.waitFor({ state: 'detached' });
    await expect.poll(() => this.modelName()).toBe(model);
  }

  async newChat(): Promise<void> {
    await this.sidebar.getByRole('button', { name: 'New chat' }).click();
    await this.message.waitFor();
  }

  async send(text: string): Promise<void> {
    await this.message.fill(text);
    await this.message.press('Enter');
  }

  /** Turns a toggle of "Chat options" (in the conversation's header) on or off, then closes it. */
  async setChatOption(name: 'Stream' | 'Enter sends', on: boolean): Promise<void> {
    const button = this.page.getByRole('button', { name: 'Chat options', exact: true });
    if ((await button.getAttribute('aria-expanded')) !== 'true') await button.click();
    await this.page
      .getByRole('dialog', { name: 'Chat options' })
      .getByLabel(name, { exact: true })
      .setChecked(on);
    await this.page.keyboard.press('Escape');
  }

  replies(): Locator {
    return this.page.locator('article.chat-message[data-role="assistant"]');
  }

  lastReply(): Locator {
    return this.replies().last();
  }

  /** The error shown on the last reply, with its remedy. */
  replyAlert(): Locator {
    return this.lastReply().locator('.chat-reply-error');
  }

  /** The countdown of main's automatic retry on the last reply, with Cancel. */
  retryCountdown(): Locator {
    return this.lastReply().locator('.chat-retry');
  }

  /** The text of the last reply's body, without its header and tools. */
  async replyText(): Promise<string> {
    return (await this.lastReply().locator('.markdown').first().textContent()) ?? '';
  }

  /** The list of search hits in the sidebar. */
  searchResults(): Locator {
    return this.sidebar.getByRole('listbox', { name: 'Search results' });
  }

  /**
   * The reply right after the person's message `text` (mounted only while near the view: the
   * list is virtualized, so wait for this rather than count rows).
   */
  replyAfter(text: string): Locator {
    const user = `article.chat-message[data-role="user"]:has-text(${JSON.stringify(text)})`;
    return this.page.locator(
      `div[data-index]:has(> ${user}) + div[data-index] > article.chat-message[data-role="assistant"]`,
    );
  }

  /** A message row by its id (mounted only while near the view). */
  messageById(id: string): Locator {
    return this.page.locator(`article.chat-message[data-message-id="${id}"]`);
  }

  /** Whether the element lies wholly inside the scrolled message list. */
  async isInView(element: Locator): Promise<boolean> {
    const [box, frame] = await Promise.all([
      element.boundingBox(),
      this.page.locator('.chat-messages').boundingBox(),
    ]);
    if (!box || !frame) return false;
    return (
      box.y >= frame.y - 1 &&
      box.y + Math.min(box.height, frame.height) <= frame.y + frame.height + 1
    );
  }

  /**
   * Whether the end of the element is inside the scrolled message list (a reply taller than the
   * list counts once its last line shows).
   */
  async isEndInView(element: Locator): Promise<boolean> {
    const [box, frame] = await Promise.all([
      element.boundingBox(),
      this.page.locator('.chat-messages').boundingBox(),
    ]);
    if (!box || !frame) return false;
    const end = box.y + box.height;
    return end > frame.y && end <= frame.y + frame.height + 1;
  }

  /** How far the message list is scrolled, in pixels. */
  async scrollTop(): Promise<number> {
    return this.messageList().evaluate(
      (element) => (element as unknown as { scrollTop: number }).scrollTop,
    );
  }

  /** The button that brings a person who scrolled up back to the newest message. */
  jumpToLatest(): Locator {
    return this.page.getByRole('button', { name: /Jump to latest|New reply/ });
  }

  /** The quiet line under the message box (why Enter does not send now). */
  composerHint(): Locator {
    return this.page.locator('.chat-composer-hint');
  }

  /** The scrolled message list. */
  messageList(): Locator {
    return this.page.locator('.chat-messages');
  }

  /** Scrolls the message list to its very top (where older messages are asked for). */
  async scrollToTop(): Promise<void> {
    await this.messageList().evaluate((element) => {
      (element as unknown as { scrollTop: number }).scrollTop = 0;
    });
  }

  /** Scrolls the message list down by `pixels`; resolves to whether it moved. */
  async scrollBy(pixels: number): Promise<boolean> {
    return this.messageList().evaluate((element, by) => {
      const scroller = element as unknown as { scrollTop: number };
      const before = scroller.scrollTop;
      scroller.scrollTop = before + by;
      return scroller.scrollTop !== before;
    }, pixels);
  }

  /** The ids and texts of the message rows mounted now, in page order. */
  async mountedMessages(): Promise<{ id: string; text: string }[]> {
    return this.page.locator('article.chat-message').evaluateAll((rows) =>
      rows.map((row) => {
        const element = row as unknown as {
          getAttribute(name: string): string | null;
          textContent: string | null;
        };
        return {
          id: element.getAttribute('data-message-id') ?? '',
          text: element.textContent ?? '',
        };
      }),
    );
  }

  /** A notice of the chat screen (saved, imported). */
  notice(text: string | RegExp): Locator {
    return this.page.locator('.chat-main, .toast-region').getByText(text);
  }

  /** The token count of the whole open conversation. */
  conversationUsage(): Locator {
    return this.page.getByLabel('Tokens in this conversation');
  }

  /** A conversation's "⋯" button in the sidebar. */
  conversationMenuButton(title: string): Locator {
    return this.sidebar.getByRole('button', { name: `Actions for ${title}`, exact: true });
  }

  /** A conversation's open menu of actions (it opens over the page, not in the sidebar). */
  conversationMenu(title: string): Locator {
    return this.page.getByRole('menu', { name: `Actions for ${title}`, exact: true });
  }

  /**
   * Runs an action of a conversation from its "⋯" menu, with the pointer: Rename, Pin, Unpin,
   * Delete, or Export and then `choice` ("Markdown (.md)", "JSON (.json)").
   */
  async conversationAction(title: string, action: string, choice?: string): Promise<void> {
    await this.conversationMenuButton(title).click();
    const menu = this.conversationMenu(title);
    await menu.getByRole('menuitem', { name: action, exact: true }).click();
    if (choice !== undefined)
      await menu
        .getByRole('menu', { name: action })
        .getByRole('menuitem', { name: choice, exact: true })
        .click();
  }

  /** The focused element's role and text (where keyboard focus is). */
  async focused(): Promise<{ role: string | null; text: string }> {
    return this.page.evaluate(() => {
      const active = (globalThis as unknown as { document: { activeElement: FocusedLike | null } })
        .document.activeElement;
      return { role: active?.getAttribute('role') ?? null, text: active?.textContent ?? '' };
    });
  }

  /** Whether the element has keyboard focus. */
  async isFocused(element: Locator): Promise<boolean> {
    return element.evaluate(
      (node) =>
        node ===
        (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement,
    );
  }

  /** Opens a conversation by its title in the sidebar (fetching it again from main). */
  async openConversation(title: string): Promise<void> {
    await this.sidebar
      .locator('.chat-conversation-open')
      .filter({ hasText: title })
      .first()
      .click();
  }

  /** Waits until the last reply is no longer streaming and returns its status. */
  async finishedReplyStatus(): Promise<string | null> {
    const reply = this.lastReply();
    await reply.waitFor();
    await this.page.waitForFunction(() => {
      const doc = (globalThis as unknown as { document: ParentNodeLike }).document;
      const all = doc.querySelectorAll('article.chat-message[data-role="assistant"]');
      const last = all[all.length - 1];
      return last !== undefined && last.getAttribute('data-status') !== 'streaming';
    });
    return reply.getAttribute('data-status');
  }
}

/** The little of the focused element the page-side checks read. */
interface FocusedLike {
  getAttribute(name: string): string | null;
  textContent: string | null;
}

/** The little of the DOM the page-side check uses (tests type-check without the DOM library). */
interface ParentNodeLike {
  querySelectorAll(selector: string): ArrayLike<{ getAttribute(name: string): string | null }>;
}
