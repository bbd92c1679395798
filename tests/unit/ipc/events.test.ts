import { describe, expect, it } from 'vitest';
import { emitEvents, EVENTS, type Emit } from '../../../electron/shared/ipc/contract';
import { eventMisfit } from '../../fakes/contract-events';

describe('typed events', () => {
  it('sends each event, named as in EVENTS, on its channel with the payload as given', () => {
    const sent: Array<[string, unknown]> = [];
    const emit = emitEvents((channel, payload) => sent.push([channel, payload]));
    emit('connectionsChanged', null);
    emit('chatDelta', { deltas: [{ replyId: 'r1', conversationId: 'c1', text: 'Hel' }] });
    emit('shellCommand', { id: 'newChat' });
    expect(sent).toEqual([
      ['connections:changed', null],
      ['chat:delta', { deltas: [{ replyId: 'r1', conversationId: 'c1', text: 'Hel' }] }],
      ['shell:command', { id: 'newChat' }],
    ]);
  });

  it('takes only names of the contract and payloads their schema allows (checked by tsc)', () => {
    const sent: string[] = [];
    const emit: Emit = emitEvents((channel) => sent.push(channel));
    // @ts-expect-error a channel string is not an event name
    expect(() => emit('chat:delta', { deltas: [] })).toThrow();
    // @ts-expect-error the payload of chatDelta is a list of deltas, not one
    emit('chatDelta', { replyId: 'r', conversationId: 'c', text: '' });
    expect(sent).toEqual(['chat:delta']);
  });

  it('has a distinct channel for every event', () => {
    const channels = Object.values(EVENTS).map((spec) => spec.channel);
    expect(new Set(channels).size).toBe(channels.length);
  });

  it('tells an event that breaks the contract from one that fits it', () => {
    expect(
      eventMisfit('chat:delta', { deltas: [{ replyId: 'r', conversationId: 'c', text: 'x' }] }),
    ).toBe(undefined);
    expect(eventMisfit('chat:delta', { deltas: [{ replyId: 'r', text: 'x' }] })).toMatch(
      /^chat:delta: /,
    );
    expect(eventMisfit('chat:nothing', null)).toBe('chat:nothing: not an event of the contract');
  });
});
