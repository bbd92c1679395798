/**
 * The relay's current fault settings. Each `take*` call decides whether a fault hits this request
 * and, for `failOnce`, clears all faults in the same synchronous step, so two concurrent requests
 * cannot both take a one-time fault.
 */
import { checkFaults, type DemoRelayFaults } from './options';

export type StreamFault = { kind: 'cut' | 'end' | 'error'; afterChunks: number };

export class FaultSwitch {
  private faults: DemoRelayFaults | undefined;

  constructor(faults: DemoRelayFaults | undefined) {
    this.faults = checkFaults(faults);
  }

  set(faults: DemoRelayFaults | undefined): void {
    this.faults = checkFaults(faults);
  }

  /** Whether the faults concern a request for `model` (all do, unless `models` names some). */
  private concerns(model: string | undefined): boolean {
    const models = this.faults?.models;
    return models === undefined || (model !== undefined && models.includes(model));
  }

  takeStatus(model?: string): { status: number; body: 'json' | 'html' | 'empty' } | undefined {
    if (!this.concerns(model)) return undefined;
    const status = this.faults?.status;
    if (status === undefined) return undefined;
    const body = this.faults?.statusBody ?? 'json';
    this.applied();
    return { status, body };
  }

  takeStall(model?: string): boolean {
    return this.concerns(model) && this.faults?.stallAfterHeaders === true && this.applied();
  }

  takeInternalError(model?: string): boolean {
    return this.concerns(model) && this.faults?.internalError === true && this.applied();
  }

  /** Only streamed answers take these; plain JSON answers leave them set. */
  takeStreamFault(model?: string): StreamFault | undefined {
    const faults = this.faults;
    if (!faults || !this.concerns(model)) return undefined;
    const fault: StreamFault | undefined =
      faults.cutAfterChunks !== undefined
        ? { kind: 'cut', afterChunks: faults.cutAfterChunks }
        : faults.endAfterChunks !== undefined
          ? { kind: 'end', afterChunks: faults.endAfterChunks }
          : faults.errorAfterChunks !== undefined
            ? { kind: 'error', afterChunks: faults.errorAfterChunks }
            : undefined;
    if (fault) this.applied();
    return fault;
  }

  private applied(): true {
    if (this.faults?.failOnce) this.faults = undefined;
    return true;
  }
}
