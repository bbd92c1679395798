/**
 * Why a server would not start or a call did not go through, as the person reads it. Kept apart
 * from the session code so the service can say it without loading the SDK (which loads only when
 * a server first starts).
 */
import type { McpDiagnosis } from '../../../shared/ipc/routes/tools';
import { said, type Said } from '../words';

export interface ProcessExit {
  code: number | null;
  signal: string | null;
}

/** A start or a call that did not go through, with why, as the person reads it. */
export class McpFailure extends Error {
  override readonly name = 'McpFailure';
  readonly diagnosis: McpDiagnosis;
  readonly said: Said;

  constructor(diagnosis: McpDiagnosis, words: Said) {
    super(words.english);
    this.diagnosis = diagnosis;
    this.said = words;
  }
}

/** How a process ended, as a value of a message: its code, or the signal that ended it. */
export function exitWords(exit: ProcessExit): Said {
  if (exit.signal !== null) return said('tools.exit.signal', { signal: exit.signal });
  if (exit.code !== null) return said('tools.exit.code', { code: exit.code });
  return said('tools.exit.unknown');
}
