/** Which window each event of the contract goes to, now that the app has two. */
import { describe, expect, it } from 'vitest';
import { eventWindows } from '../../../electron/main/ipc/event-targets';
import { EVENTS } from '../../../electron/shared/ipc/contract';

describe('event targets', () => {
  it("sends quick ask's stream to the quick window alone", () => {
    expect(eventWindows(EVENTS.quickAskDelta.channel)).toEqual(['quick']);
    expect(eventWindows(EVENTS.quickAskShown.channel)).toEqual(['quick']);
  });

  it('sends connection changes, retry countdowns and settings changes to both windows', () => {
    expect(eventWindows(EVENTS.connectionsChanged.channel)).toEqual(['main', 'quick']);
    expect(eventWindows(EVENTS.retryScheduled.channel)).toEqual(['main', 'quick']);
    // The quick window follows the language and the theme chosen in the main one.
    expect(eventWindows(EVENTS.settingsChanged.channel)).toEqual(['main', 'quick']);
  });

  it('sends every other event of the contract to the main window only', () => {
    const shared = new Set([
      EVENTS.quickAskDelta.channel,
      EVENTS.quickAskShown.channel,
      EVENTS.connectionsChanged.channel,
      EVENTS.retryScheduled.channel,
      EVENTS.settingsChanged.channel,
    ]);
    for (const { channel } of Object.values(EVENTS)) {
      if (!shared.has(channel)) expect(eventWindows(channel), channel).toEqual(['main']);
    }
  });
});
