/**
 * Checks every spec can make of a run: the page stayed healthy, and a key never reached it.
 */
import { expect } from 'vitest';
import { eventMisfit } from '../../fakes/contract-events';
import type { AppUnderTest, BridgeMessage } from './harness';
import type { PageWindow } from './page-types';

/** No uncaught page error and no CSP violation happened. */
export function expectHealthyPage(app: AppUnderTest): void {
  expect(app.pageErrors.map((error) => error.message)).toEqual([]);
  expect(app.cspViolations).toEqual([]);
}

/** Every event main sent the page is an event of the contract, with a payload its schema takes. */
export function expectEventsFitContract(messages: readonly BridgeMessage[]): void {
  const misfits = messages.flatMap((message) =>
    message.direction === 'event' ? (eventMisfit(message.channel, message.payload) ?? []) : [],
  );
  expect(misfits).toEqual([]);
}

/**
 * Everything of the page a key could hide in: the markup (attributes included) and the live
 * value of every field, which the markup does not show.
 */
export async function pageText(app: AppUnderTest): Promise<string> {
  return app.page.evaluate(() => {
    const page = globalThis as unknown as PageWindow;
    const values = Array.from(page.document.querySelectorAll('input, textarea, select')).map(
      (field) => field.value ?? '',
    );
    return `${page.document.documentElement.outerHTML}\n${values.join('\n')}`;
  });
}

/**
 * The secret part of a key: everything but the last four characters, which the app may show
 * ("Key saved (…abcd)"). Any run of 6 of its characters counts as a leak.
 */
export function keyFragments(key: string): string[] {
  const secret = key.slice(0, -4);
  const fragments: string[] = [];
  for (let start = 0; start + 6 <= secret.length; start += 1) {
    fragments.push(secret.slice(start, start + 6));
  }
  return fragments;
}

export async function expectKeyNotInPage(app: AppUnderTest, key: string): Promise<void> {
  const text = await pageText(app);
  for (const fragment of keyFragments(key)) expect(text).not.toContain(fragment);
}

/** What main sent the page: every answer and every event. */
export function mainToPage(messages: readonly BridgeMessage[]): unknown[] {
  return messages.flatMap((message) =>
    message.direction === 'send'
      ? []
      : [message.direction === 'invoke' ? message.result : message.payload],
  );
}

/**
 * The key went from the page to main only as the `apiKey` of the calls that save or test a
 * key, and never came back in an answer or an event.
 */
export function expectKeyNeverSentToPage(messages: readonly BridgeMessage[], key: string): void {
  const back = JSON.stringify(mainToPage(messages));
  for (const fragment of keyFragments(key)) expect(back).not.toContain(fragment);
  for (const message of messages) {
    if (message.direction === 'event') continue;
    const sent = JSON.stringify(message.payload ?? null);
    if (!keyFragments(key).some((fragment) => sent.includes(fragment))) continue;
    expect(['connections:create', 'connections:update', 'connections:test']).toContain(
      message.channel,
    );
    const withoutKey = JSON.stringify(dropApiKey(message.payload));
    for (const fragment of keyFragments(key)) expect(withoutKey).not.toContain(fragment);
  }
}

function dropApiKey(payload: unknown): unknown {
  if (payload === null || typeof payload !== 'object') return payload;
  const { apiKey: _apiKey, ...rest } = payload as Record<string, unknown>;
  if ('changes' in rest) rest.changes = dropApiKey(rest.changes);
  return rest;
}
