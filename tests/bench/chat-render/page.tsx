/**
 * The chat-render benchmark's page: mounts the real reply view (`ReplyBody` over the stream
 * store and its per-frame coalescing) or the naive one (the whole message through react-markdown
 * on every delta), and exposes `window.__bench` for the benchmark to drive.
 */
import { I18nProvider } from '@lingui/react';
import { useState } from 'react';
import { flushSync } from 'react-dom';
import { createRoot, type Root } from 'react-dom/client';
import { MarkdownBlockView } from '../../../renderer/src/features/chat/markdown/markdown-block';
import {
  forgetRenderedMath,
  loadKatex,
} from '../../../renderer/src/features/chat/markdown/rehype-katex-cached';
import { StreamingMarkdown } from '../../../renderer/src/features/chat/markdown/streaming-markdown';
import { ReplyBody } from '../../../renderer/src/features/chat/streaming-reply';
import {
  flushStreamDeltas,
  streamDeltasReceived,
  useStreamStore,
} from '../../../renderer/src/features/chat/stream-store';
import '../../../renderer/src/features/chat/chat.css';
import { i18n, loadNamespace } from '../../../renderer/src/i18n/i18n';
import { buildCorpus, toDeltas } from './corpus';

const REPLY = 'bench-reply';
const container = document.getElementById('root')!;
let root: Root | undefined;
let corpus = '';
let deltas: string[] = [];
let setNaive: ((text: string) => void) | undefined;
const longTasks: { start: number; duration: number }[] = [];

new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    longTasks.push({ start: entry.startTime, duration: entry.duration });
  }
}).observe({ type: 'longtask', buffered: false });

/** As in the app: the reply's words (a code block's Copy) come from the chat catalogue. */
function inApp(node: React.ReactNode) {
  return <I18nProvider i18n={i18n}>{node}</I18nProvider>;
}

function remount(node: React.ReactNode) {
  root?.unmount();
  container.replaceChildren();
  root = createRoot(container);
  flushSync(() => root!.render(inApp(node)));
}

/** Resolves on the next task, so that each delta arrives as a task of its own, as over IPC. */
const channel = new MessageChannel();
const waiting: (() => void)[] = [];
channel.port1.onmessage = () => waiting.shift()?.();
const nextTask = () =>
  new Promise<void>((resolve) => {
    waiting.push(resolve);
    channel.port2.postMessage(null);
  });
const nextFrame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));

/** Waits until the DOM has not changed for `quietMs` (code highlighting arrives asynchronously). */
function settled(quietMs = 150): Promise<void> {
  return new Promise((resolve) => {
    let timer = setTimeout(done, quietMs);
    const observer = new MutationObserver(() => {
      clearTimeout(timer);
      timer = setTimeout(done, quietMs);
    });
    observer.observe(container, { subtree: true, childList: true, characterData: true });
    function done() {
      observer.disconnect();
      resolve();
    }
  });
}

function Naive() {
  const [text, setText] = useState('');
  setNaive = setText;
  return (
    <div className="markdown">
      <MarkdownBlockView markdown={text} complete={false} />
    </div>
  );
}

const bench = {
  async setup(length: number) {
    corpus = buildCorpus(length);
    deltas = toDeltas(corpus, 3);
    // KaTeX is a chunk of its own, fetched when a first formula is seen; both contenders are
    // measured with it there, as in a session that has shown a formula before.
    await Promise.all([loadKatex(), loadNamespace('chat')]);
    return { characters: corpus.length, deltas: deltas.length };
  },
  mountReal() {
    // Each run renders its formulas from scratch, as a new reply would.
    forgetRenderedMath();
    useStreamStore.getState().streamEnded(REPLY);
    useStreamStore.getState().streamStarted(REPLY);
    remount(<ReplyBody replyId={REPLY} content="" />);
  },
  /** Delivers deltas [from, to) one task each, then waits for the frame that shows them. */
  async streamReal(from: number, to: number) {
    // Long tasks are reported late: keep only those that started in this phase.
    const started = performance.now();
    for (let i = from; i < to; i++) {
      await nextTask();
      streamDeltasReceived([{ replyId: REPLY, text: deltas[i]! }]);
    }
    await nextFrame();
    await nextTask();
    await new Promise((resolve) => setTimeout(resolve, 0));
    return longTasks.filter((task) => task.start >= started).map((task) => task.duration);
  },
  async finishReal() {
    flushStreamDeltas();
    const text = useStreamStore.getState().texts[REPLY] ?? '';
    useStreamStore.getState().streamEnded(REPLY);
    // The stored reply replaces the stream: the view is the same component, now not streaming.
    flushSync(() => root!.render(inApp(<ReplyBody replyId={REPLY} content={text} />)));
    await settled();
    return { html: container.innerHTML, matches: text === corpus };
  },
  async oneShot() {
    remount(<StreamingMarkdown text={corpus} streaming={false} />);
    await settled();
    return container.innerHTML;
  },
  mountNaive() {
    remount(<Naive />);
  },
  /** Renders the naive view at each given delta, one task each, each rendered within its task. */
  async naiveAt(indices: number[]) {
    for (const index of indices) {
      await nextTask();
      const text = corpus.slice(0, (index + 1) * 3);
      flushSync(() => setNaive!(text));
    }
    await nextTask();
  },
  /**
   * `html` without the elements that group complete blocks (the naive view has none): the same
   * markup, block for block.
   */
  ungrouped(html: string): string {
    const template = document.createElement('template');
    template.innerHTML = html;
    for (const group of template.content.querySelectorAll('.md-group'))
      group.replaceWith(...group.childNodes);
    return template.innerHTML;
  },
  async naiveFinal() {
    remount(
      <div className="markdown">
        <MarkdownBlockView markdown={corpus} complete />
      </div>,
    );
    await settled();
    return container.innerHTML;
  },
};
(window as unknown as { __bench: typeof bench }).__bench = bench;
