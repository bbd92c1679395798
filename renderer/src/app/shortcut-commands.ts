/** What each shortcut command does in the shell: the one place that reaches into the features. */
import { focusNewestToast } from '../lib/toasts';
import { SCREEN_OF_COMMAND, type ScreenId } from './screens';
import { focusWhenShown, useShortcutCommands } from './shortcuts';

/**
 * The chat's actions and store, fetched when a command first needs them: they are the chat
 * screen's code, and the start-up script (kept under 300 kB) need not carry them for a shortcut.
 */
async function chat() {
  const [actions, { useChatStore }] = await Promise.all([
    import('../features/chat/chat-actions'),
    import('../features/chat/chat-store'),
  ]);
  return { ...actions, useChatStore };
}

/** Resolves once the chat screen, just shown, has its list of conversations (or failed to). */
async function chatListSettled(): Promise<void> {
  const { useChatStore } = await chat();
  return new Promise((resolve) => {
    // A frame first: the chat screen asks for its list when it mounts.
    requestAnimationFrame(() => {
      const settled = () => {
        const status = useChatStore.getState().listStatus;
        return status === 'ready' || status === 'failed';
      };
      if (settled()) return resolve();
      const stop = useChatStore.subscribe(() => {
        if (!settled()) return;
        stop();
        resolve();
      });
    });
  });
}

async function startNewChat(switching: boolean) {
  // After the chat screen has reopened what it reopens at its start, not before.
  if (switching) await chatListSettled();
  const { showNewChat } = await chat();
  showNewChat();
  await focusWhenShown('.chat-composer textarea');
}

/** Shows a conversation made elsewhere (a quick ask continued in the app) in Chat. */
export async function openConversationInChat(id: string, switching: boolean): Promise<void> {
  if (switching) await chatListSettled();
  const { loadConversations, openConversation } = await chat();
  await loadConversations();
  await openConversation(id);
  await focusWhenShown('.chat-composer textarea');
}

/**
 * Opens a chat just started from a prompt (on the Prompts screen) in Chat, and sends the starter
 * message the person chose, if any.
 */
export async function openPromptChat(id: string, starter: string | undefined): Promise<void> {
  await openConversationInChat(id, true);
  if (starter !== undefined) await (await chat()).sendMessage(id, starter, true);
}

export function useAppShortcuts({
  screen,
  onScreen,
  sheetOpen,
  onSheet,
  connected,
}: {
  screen: ScreenId;
  onScreen(id: ScreenId): void;
  sheetOpen: boolean;
  onSheet(open: boolean): void;
  /** Whether a connection exists: until then there are no screens to go to. */
  connected: boolean;
}) {
  useShortcutCommands((command) => {
    if (command === 'showShortcuts') return onSheet(!sheetOpen);
    if (!connected) return;
    if (sheetOpen) onSheet(false);
    const target = SCREEN_OF_COMMAND[command];
    if (target) return onScreen(target);
    switch (command) {
      case 'newChat':
        onScreen('chat');
        void startNewChat(screen !== 'chat');
        break;
      case 'newChatFromPrompt':
        // The library is the picker: its search, then "Start chat" on an assistant.
        onScreen('prompts');
        void focusWhenShown('.prompt-search');
        break;
      case 'searchConversations':
        onScreen('chat');
        void focusWhenShown('.chat-search');
        break;
      case 'stopGenerating':
        void chat().then(({ stopStreaming }) => stopStreaming());
        break;
      case 'focusNotice':
        focusNewestToast();
        break;
      case 'toggleConversations':
        onScreen('chat');
        void chat().then(({ useChatStore }) => useChatStore.getState().listToggled());
        break;
    }
  });
}
