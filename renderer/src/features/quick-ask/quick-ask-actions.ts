/**
 * What the quick ask window asks of main. The question goes once, with the clipboard text if the
 * person kept it; the reply arrives as `quickAskDelta` events and ends with the call's answer.
 */
import { failureOf } from '../../lib/errors';
import { requireBridge } from '../../lib/relay-bridge';
import { useQuickAskStore } from './quick-ask-store';

export async function loadQuickAsk(): Promise<void> {
  try {
    useQuickAskStore.getState().infoLoaded(await requireBridge().getQuickAsk());
  } catch (error) {
    useQuickAskStore.getState().infoFailed(failureOf(error));
  }
}

function newRequestId(): string {
  return `quick-${crypto.randomUUID()}`;
}

/** Asks; resolves when the reply has ended (the store has it). */
export async function askQuestion(prompt: string): Promise<void> {
  const store = useQuickAskStore.getState();
  const model = store.info?.model;
  if (!model || prompt.trim() === '' || store.exchange?.status === 'streaming') return;
  const requestId = newRequestId();
  const includeContext = store.includeContext && store.info?.context !== undefined;
  store.questionAsked({ requestId, prompt, model });
  try {
    const answer = await requireBridge().askQuick({ requestId, prompt, includeContext });
    useQuickAskStore.getState().replyEnded(answer);
  } catch (error) {
    useQuickAskStore.getState().askFailed(requestId, failureOf(error));
  }
}

export async function stopReply(): Promise<void> {
  const exchange = useQuickAskStore.getState().exchange;
  if (exchange?.status !== 'streaming') return;
  try {
    await requireBridge().stopQuickAsk({ requestId: exchange.requestId });
  } catch (error) {
    useQuickAskStore.getState().actionFailed(failureOf(error));
  }
}

/** "Open in Relay Desktop": main saves it if needed, shows it there and hides this window. */
export async function openInApp(): Promise<void> {
  const exchange = useQuickAskStore.getState().exchange;
  if (!exchange || exchange.status === 'streaming') return;
  try {
    await requireBridge().continueQuickAsk({ requestId: exchange.requestId });
  } catch (error) {
    useQuickAskStore.getState().actionFailed(failureOf(error));
  }
}

export async function hideWindow(): Promise<void> {
  try {
    await requireBridge().hideQuickAsk();
  } catch (error) {
    useQuickAskStore.getState().actionFailed(failureOf(error));
  }
}

export async function copyReply(): Promise<void> {
  const text = useQuickAskStore.getState().exchange?.text;
  if (!text) return;
  try {
    await requireBridge().copyText({ text });
  } catch (error) {
    useQuickAskStore.getState().actionFailed(failureOf(error));
  }
}

/**
 * Follows main: reply text as it streams, the window being shown again (read the model and the
 * clipboard again, then `onShown`), connections changing. Returns the unsubscribe.
 */
export function watchQuickAsk(onShown: () => void): () => void {
  const bridge = requireBridge();
  const stops = [
    bridge.onQuickAskDelta(({ requestId, text }) =>
      useQuickAskStore.getState().deltaReceived(requestId, text),
    ),
    bridge.onQuickAskShown(() => {
      void loadQuickAsk().then(onShown);
    }),
    bridge.onConnectionsChanged(() => void loadQuickAsk()),
  ];
  return () => stops.forEach((stop) => stop());
}
