/**
 * A reply's tool calls: a card for each (the tool and its server, the arguments, the result,
 * how long it took), collapsed by default; a call that waits for the person is an approval card
 * instead, which takes the focus. The tools left out for the token budget and a turn ended at
 * the step limit are said above and below. Arguments and results are shown as text only.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { formatDuration, formatList } from '../../../i18n/format';
import { useT, type MessageKey } from '../../../i18n/i18n';
import { answerToolCall, type ToolAnswer } from './tool-actions';
import { useToolCallsStore, type ReplyTools, type ToolCallRecord } from './tool-calls-store';
import './tools.css';

const STATE: Record<ToolCallRecord['state'], MessageKey> = {
  waiting: 'chat.tools.state.waiting',
  running: 'chat.tools.state.running',
  done: 'chat.tools.state.done',
  failed: 'chat.tools.state.failed',
  denied: 'chat.tools.state.denied',
};

/** JSON arguments indented; anything else as the model wrote it. */
export function shownArguments(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

export function ReplyToolCalls({
  replyId,
  stored,
  streaming,
}: {
  replyId: string;
  stored: ReplyTools | undefined;
  streaming: boolean;
}) {
  const t = useT();
  const live = useToolCallsStore((s) => s.live[replyId]);
  const tools = live ?? stored;
  if (!tools) return null;
  return (
    <div className="chat-tools">
      {tools.leftOut.length > 0 && (
        <p className="chat-tools-note" role="note">
          {t('chat.tools.leftOut', {
            count: tools.leftOut.length,
            budget: tools.budget,
            names: formatList(tools.leftOut.map((l) => `${l.tool} (${l.serverName})`)),
          })}
        </p>
      )}
      {tools.steps.map((step, index) => (
        <div key={index} className="chat-tools-step">
          {step.text !== '' && <p className="chat-tools-step-text">{step.text}</p>}
          {step.calls.map((call) =>
            call.state === 'waiting' && streaming ? (
              <ApprovalCard key={call.callId} replyId={replyId} call={call} />
            ) : (
              <CallCard key={call.callId} call={call} />
            ),
          )}
        </div>
      ))}
      {tools.stoppedAtLimit && (
        <p className="chat-tools-note" role="note">
          {t('chat.tools.stepLimit', { count: tools.maxSteps })}
        </p>
      )}
    </div>
  );
}

/** The time a running call has taken, read again each second. */
function useElapsed(callId: string, running: boolean): number {
  const since = useToolCallsStore((s) => s.runningSince[callId]);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [running]);
  return since === undefined ? 0 : Math.max(0, now - since);
}

function CallCard({ call }: { call: ToolCallRecord }) {
  const t = useT();
  const running = call.state === 'running';
  const elapsed = useElapsed(call.callId, running);
  const name = call.tool ?? call.functionName;
  return (
    <details className="chat-tool-call" data-state={call.state}>
      <summary>
        <span className="chat-tool-call-state">{t(STATE[call.state])}</span>{' '}
        <span className="chat-tool-call-name">{name}</span>
        {call.serverName !== null && (
          <span className="chat-tool-call-server">
            {' '}
            {t('chat.tools.onServer', { server: call.serverName })}
          </span>
        )}{' '}
        <span className="chat-tool-call-time">
          {running
            ? t('chat.tools.elapsed', { time: formatDuration(elapsed) })
            : call.state === 'done' || call.state === 'failed'
              ? formatDuration(call.durationMs)
              : ''}
        </span>
      </summary>
      <div className="chat-tool-call-body">
        <p className="chat-tool-call-label">{t('chat.tools.arguments')}</p>
        <pre className="chat-tool-call-text">{shownArguments(call.arguments)}</pre>
        {!running && call.state !== 'waiting' && (
          <>
            <p className="chat-tool-call-label">
              {t(call.toolError ? 'chat.tools.error' : 'chat.tools.result')}
            </p>
            <pre className="chat-tool-call-text">{call.result}</pre>
          </>
        )}
      </div>
    </details>
  );
}

const ANSWERS: Array<[ToolAnswer, MessageKey]> = [
  ['once', 'chat.tools.allowOnce'],
  ['conversation', 'chat.tools.allowConversation'],
  ['always', 'chat.tools.allowAlways'],
  ['deny', 'chat.tools.deny'],
];

function ApprovalCard({ replyId, call }: { replyId: string; call: ToolCallRecord }) {
  const t = useT();
  const titleId = useId();
  const ref = useRef<HTMLElement>(null);
  const [sending, setSending] = useState(false);
  const [failed, setFailed] = useState<string>();
  useEffect(() => {
    ref.current?.focus();
  }, []);
  const answer = (choice: ToolAnswer) => {
    setSending(true);
    void answerToolCall(replyId, call.callId, choice).then((outcome) => {
      setSending(false);
      if (!outcome.ok) setFailed(outcome.failure.message);
    });
  };
  return (
    <section
      ref={ref}
      className="chat-tool-approval"
      role="group"
      aria-labelledby={titleId}
      tabIndex={-1}
    >
      <p id={titleId} className="chat-tool-approval-title">
        {t('chat.tools.approve', {
          tool: call.tool ?? call.functionName,
          server: call.serverName ?? '',
        })}
      </p>
      {call.why === 'destructive' && (
        <p className="chat-tools-note">{t('chat.tools.destructive')}</p>
      )}
      <p className="chat-tool-call-label">{t('chat.tools.arguments')}</p>
      <pre className="chat-tool-call-text">{shownArguments(call.arguments)}</pre>
      <div className="chat-tool-approval-actions">
        {ANSWERS.map(([choice, label]) => (
          <button
            key={choice}
            type="button"
            className={choice === 'once' ? 'button button-primary' : 'button'}
            disabled={sending}
            onClick={() => answer(choice)}
          >
            {t(label)}
          </button>
        ))}
      </div>
      {failed && (
        <p className="chat-tools-note" role="alert">
          {failed}
        </p>
      )}
    </section>
  );
}
