/** The chat part of the bridge's types, read from the contract through the bridge. */
import type { Answer, RelayBridge } from '../../lib/relay-bridge';

export type ConversationSummary = Answer<'createConversation'>;
export type ConversationDetail = Answer<'getConversation'>;
export type ChatMessage = ConversationDetail['messages'][number];
export type SearchHit = Answer<'searchMessages'>[number];
export type ReplyError = NonNullable<ChatMessage['error']>;
export type ChatUsage = NonNullable<ChatMessage['usage']>;
export type ReplyFinished = Parameters<Parameters<RelayBridge['onChatReplyFinished']>[0]>[0];
export type AttachmentInfo = Answer<'attachFiles'>['attached'][number];
export type AttachmentRefusal = Answer<'attachFiles'>['refused'][number];
