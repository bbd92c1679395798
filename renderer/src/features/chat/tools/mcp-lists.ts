/**
 * What the composer asks of main about the MCP servers of a conversation: their prompts (the `/`
 * list), a prompt's messages, their resources (attached like files). The page sends a server's
 * id and a prompt's name or a resource's URI as listed, never a path.
 */
import type {
  McpPromptList,
  McpPromptMessages,
  McpResourceList,
} from '../../../../../electron/shared/ipc/routes/tools';
import { t } from '../../../i18n/i18n';
import { relayBridge, requireBridge } from '../../../lib/relay-bridge';
import { runAction } from '../../../lib/run-action';

export type { McpPromptList, McpResourceList };
export type McpPrompt = McpPromptList['prompts'][number];
export type McpResource = McpResourceList['resources'][number];

/** A server's prompts, or its problem (it would not start): never a wait without end. */
export function readMcpPrompts(id: string) {
  return runAction(() => requireBridge().listMcpPrompts({ id }));
}

export function readMcpResources(id: string) {
  return runAction(() => requireBridge().listMcpResources({ id }));
}

export function getMcpPrompt(id: string, prompt: string, values: Record<string, string>) {
  return runAction(() => requireBridge().getMcpPrompt({ id, prompt, arguments: values }));
}

/** Calls `changed` when a server says its prompts or resources changed. */
export function watchMcpLists(
  changed: (id: string, list: 'prompts' | 'resources') => void,
): (() => void) | undefined {
  return relayBridge()?.onMcpListChanged(({ id, list }) => changed(id, list));
}

/**
 * A prompt's messages as the text of the message box: each message's text (an embedded text
 * resource's too); what the box cannot hold said in words in its place. When the prompt also
 * holds the assistant's words, each message starts with who says it.
 */
export function promptText(messages: McpPromptMessages['messages']): string {
  const parts = messages.map(({ content }) => {
    switch (content.type) {
      case 'text':
        return content.text;
      case 'image':
        return t('chat.mcpPrompts.part.image', { type: content.mimeType });
      case 'audio':
        return t('chat.mcpPrompts.part.audio', { type: content.mimeType });
      case 'resource':
        return content.text ?? t('chat.mcpPrompts.part.resource', { uri: content.uri });
      case 'resource_link':
        return t('chat.mcpPrompts.part.link', { name: content.name, uri: content.uri });
    }
  });
  if (messages.every((m) => m.role === 'user')) return parts.join('\n\n');
  return messages
    .map(
      (m, i) =>
        `${t(m.role === 'user' ? 'chat.mcpPrompts.role.user' : 'chat.mcpPrompts.role.assistant')}\n${parts[i]}`,
    )
    .join('\n\n');
}
