import { describe, expect, it } from 'vitest';
import {
  ConnectionHealthTracker,
  healthOfFailure,
} from '../../../electron/main/services/connections/connection-health';
import { emitEvents } from '../../../electron/shared/ipc/contract';
import { checkedEvents } from '../../fakes/contract-events';

function tracker() {
  const sent: Array<{ channel: string; payload: unknown }> = [];
  const emit = emitEvents(checkedEvents((channel, payload) => sent.push({ channel, payload })));
  return {
    health: new ConnectionHealthTracker(emit, () => new Date('2026-01-02T03:04:05Z')),
    sent,
  };
}

describe('connection health', () => {
  it('sorts failures into warnings (the relay answered) and errors (it could not be used)', () => {
    expect(['insufficient_balance', 'rate_limited', 'server_error'].map(healthOfFailure)).toEqual([
      'warning',
      'warning',
      'warning',
    ]);
    expect(
      ['network', 'timeout', 'unauthorized', 'bad_response', 'internal'].map(healthOfFailure),
    ).toEqual(['error', 'error', 'error', 'error', 'error']);
    // A request the relay refused for its content says the relay works; a stopped one says nothing.
    expect(healthOfFailure('bad_request')).toBe('ok');
    expect(healthOfFailure('aborted')).toBeUndefined();
  });

  it('keeps the last outcome per connection and tells the page only of changes', () => {
    const { health, sent } = tracker();
    health.record('a', { ok: true });
    health.record('a', { ok: true });
    health.record('a', { ok: false, kind: 'network', message: 'fetch failed' });
    health.record('a', { ok: false, kind: 'aborted', message: 'stopped' });
    health.record('b', { ok: false, kind: 'insufficient_balance', message: 'Top up.' });
    expect(sent.map((e) => [e.channel, (e.payload as { state: string }).state])).toEqual([
      ['connections:health-changed', 'ok'],
      ['connections:health-changed', 'error'],
      ['connections:health-changed', 'warning'],
    ]);
    expect(health.list()).toEqual([
      {
        connectionId: 'a',
        state: 'error',
        kind: 'network',
        message: 'fetch failed',
        at: '2026-01-02T03:04:05.000Z',
      },
      {
        connectionId: 'b',
        state: 'warning',
        kind: 'insufficient_balance',
        message: 'Top up.',
        at: '2026-01-02T03:04:05.000Z',
      },
    ]);
    health.forget('a');
    expect(health.list().map((h) => h.connectionId)).toEqual(['b']);
  });
});
