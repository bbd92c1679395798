import { replyErrorSchema, type ReplyError } from '../../../shared/ipc/routes/chat';
import { errorInfo, faultInfo } from '../app-error';

/**
 * What a failed reply keeps, in chat and in quick ask: the relay's error (its kind, status, field,
 * retry delay, and the words' key and values), or the app's refusal as a bad request. The text
 * received is kept as the reply's content, not twice.
 */
export function replyErrorOf(error: unknown): ReplyError {
  const info = errorInfo(error);
  if (info === undefined) return faultInfo(error, 'app.fault.reply') as ReplyError;
  const { partialText: _partialText, kind, ...rest } = info;
  const replyKind = replyErrorSchema.shape.kind.safeParse(kind);
  return { kind: replyKind.success ? replyKind.data : 'bad_request', ...rest };
}
