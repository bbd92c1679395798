/**
 * The chat view's store when the person switches a version in the middle of a long path: it keeps
 * the messages it holds up to the switch point, takes the first page of the new path from there,
 * and pages the rest in as the list reaches its end; the newest page (a send, "Jump to latest")
 * puts the path's end back in the view.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { useChatStore } from '../../../renderer/src/features/chat/chat-store';
import type { ChatMessage } from '../../../renderer/src/features/chat/chat-types';
import { conversationSummary } from '../../fakes/conversation-summary';
import { appendNewerPage, FIRST_ITEM_BASE } from '../../../renderer/src/features/chat/paging';

const CONVERSATION = 'c1';
const summary = conversationSummary({ id: CONVERSATION, title: 'Long' });

/** Messages `from` to `to` (exclusive) of a path, ids `${text}${n}`, the first under `parent`. */
function path(from: number, to: number, text = 'm', parent?: string | null): ChatMessage[] {
  return Array.from({ length: to - from }, (_, i) => ({
    id: `${text}${from + i}`,
    conversationId: CONVERSATION,
    parentId:
      i > 0 ? `${text}${from + i - 1}` : (parent ?? (from === 0 ? null : `${text}${from - 1}`)),
    seq: from + i,
    role: (from + i) % 2 === 0 ? ('user' as const) : ('assistant' as const),
    content: `message ${from + i}`,
    status: 'complete' as const,
    createdAt: '2026-01-01T00:00:00.000Z',
  }));
}

const ids = (messages: { id: string }[]) => messages.map((m) => m.id);
const chat = () => useChatStore.getState();

beforeEach(() => {
  chat().conversationClosed();
  chat().conversationOpened(CONVERSATION);
  // Opened at the newest page of a 1,000-message path, scrolled up to 450.
  chat().conversationLoaded(CONVERSATION, path(950, 1000), summary, true);
  chat().olderLoaded(CONVERSATION, path(450, 950), true);
});

describe('a version switched in the middle of a long path', () => {
  it('keeps what is held up to the switch point and takes the first page of the new path', () => {
    const before = chat().firstItemIndex;
    // Message 510 switched to its other version (written later: seq 2000+), whose path goes on.
    chat().pathSwitched(CONVERSATION, path(2000, 2050, 'v', 'm509'), summary, true);
    const state = chat();
    expect(ids(state.messages)).toEqual([...ids(path(450, 510)), ...ids(path(2000, 2050, 'v'))]);
    // The rows above the switch point keep their place.
    expect(state.firstItemIndex).toBe(before);
    expect(state).toMatchObject({ hasOlder: true, hasNewer: true });
  });

  it('pages the rest in at the end, once each, until the path ends', () => {
    chat().pathSwitched(CONVERSATION, path(2000, 2050, 'v', 'm509'), summary, true);
    chat().newerLoaded(CONVERSATION, path(2050, 2100, 'v'), true);
    // The same page twice (a retry that raced): nothing twice.
    chat().newerLoaded(CONVERSATION, path(2050, 2100, 'v'), true);
    chat().newerLoaded(CONVERSATION, path(2100, 2120, 'v'), false);
    const state = chat();
    expect(ids(state.messages)).toEqual([...ids(path(450, 510)), ...ids(path(2000, 2120, 'v'))]);
    expect(state.hasNewer).toBe(false);
    expect(state.newerStatus).toBe('ready');
  });

  it('holds a compare at the path end back until the end is loaded', () => {
    const compare = { userMessageId: 'v2119', replies: path(3000, 3002, 'r', 'v2119') };
    chat().pathSwitched(CONVERSATION, path(2000, 2050, 'v', 'm509'), summary, true, compare);
    expect(chat().compare).toBeUndefined();
    chat().newerLoaded(CONVERSATION, path(2050, 2120, 'v'), false, compare);
    expect(chat().compare).toEqual(compare);
  });

  it('a path ending in a reply still streaming shows that reply at once, after what is held', () => {
    const live = { ...path(2119, 2120, 'v')[0]!, status: 'streaming' as const, content: 'so far' };
    chat().pathSwitched(
      CONVERSATION,
      path(2000, 2050, 'v', 'm509'),
      summary,
      true,
      undefined,
      live,
    );
    expect(chat().pathEnd).toEqual(live);
    expect(chat().streaming[live.id]).toBe(true);
    // The pages in between come as the list reaches its end; the reply stays shown meanwhile.
    chat().newerLoaded(CONVERSATION, path(2050, 2100, 'v'), true);
    expect(chat().pathEnd?.id).toBe(live.id);
    // It finished before its page came: shown finished.
    chat().replyFinished({
      replyId: live.id,
      conversationId: CONVERSATION,
      content: 'the whole reply',
      status: 'complete',
    });
    expect(chat().pathEnd).toMatchObject({ content: 'the whole reply', status: 'complete' });
    // Its page reached: it is a message of the list like the others, not shown twice.
    chat().newerLoaded(CONVERSATION, path(2100, 2120, 'v'), false);
    expect(chat().pathEnd).toBeUndefined();
    expect(ids(chat().messages).at(-1)).toBe(live.id);
  });

  it('a reply streaming at the end is forgotten by a switch elsewhere and by the newest page', () => {
    const live = { ...path(2119, 2120, 'v')[0]!, status: 'streaming' as const };
    chat().pathSwitched(
      CONVERSATION,
      path(2000, 2050, 'v', 'm509'),
      summary,
      true,
      undefined,
      live,
    );
    chat().pathSwitched(CONVERSATION, path(3000, 3005, 'w', 'm509'), summary, false);
    expect(chat().pathEnd).toBeUndefined();
    chat().pathSwitched(
      CONVERSATION,
      path(2000, 2050, 'v', 'm509'),
      summary,
      true,
      undefined,
      live,
    );
    chat().conversationLoaded(CONVERSATION, path(2070, 2120, 'v'), summary, true);
    expect(chat().pathEnd).toBeUndefined();
  });

  it('a switch whose new path is short ends there: nothing newer', () => {
    chat().pathSwitched(CONVERSATION, path(2000, 2010, 'v', 'm509'), summary, false);
    expect(ids(chat().messages).at(-1)).toBe('v2009');
    expect(chat().hasNewer).toBe(false);
  });

  it('the newest page after a send or "Jump to latest" puts the path end back, nothing newer', () => {
    chat().pathSwitched(CONVERSATION, path(2000, 2050, 'v', 'm509'), summary, true);
    // The newest page of the new path does not join what is held: it replaces it.
    chat().conversationLoaded(CONVERSATION, path(2450, 2500, 'v'), summary, true);
    const state = chat();
    expect(ids(state.messages)).toEqual(ids(path(2450, 2500, 'v')));
    expect(state).toMatchObject({ hasOlder: true, hasNewer: false });
  });

  it('a page for a conversation no longer open, or a failure, changes nothing held', () => {
    chat().pathSwitched(CONVERSATION, path(2000, 2050, 'v', 'm509'), summary, true);
    chat().newerLoaded('other', path(2050, 2100, 'v'), false);
    expect(chat().messages).toHaveLength(110);
    chat().newerFailed(CONVERSATION, { kind: 'network', message: 'The relay is unreachable.' });
    expect(chat()).toMatchObject({ newerStatus: 'failed', hasNewer: true });
    expect(chat().messages).toHaveLength(110);
  });

  it('closing the conversation forgets the paging', () => {
    chat().pathSwitched(CONVERSATION, path(2000, 2050, 'v', 'm509'), summary, true);
    chat().conversationClosed();
    expect(chat()).toMatchObject({
      hasNewer: false,
      newerStatus: 'idle',
      firstItemIndex: FIRST_ITEM_BASE,
    });
  });
});

describe('a newer page appended', () => {
  it('adds only what comes after the last message held', () => {
    expect(ids(appendNewerPage(path(0, 10), path(8, 14)))).toEqual(ids(path(0, 14)));
    expect(ids(appendNewerPage([], path(0, 3)))).toEqual(ids(path(0, 3)));
  });
});
