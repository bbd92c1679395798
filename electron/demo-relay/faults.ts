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

  takeStatus(): { status: number; body: 'json' | 'html' | 'empty' } | undefined {
    const status = this.faults?.status;
    if (status === undefined) return undefined;
    const body = this.faults?.statusBody ?? 'json';
    this.applied();
    return { status, body };
  }

  takeStall(): boolean {
    return this.faults?.stallAfterHeaders === true && this.applied();
  }

  takeInternalError(): boolean {
    return this.faults?.internalError === true && this.applied();
  }

  /** Only streamed answers take these; plain JSON answers leave them set. */
  takeStreamFault(): StreamFault | undefined {
    const faults = this.faults;
    if (!faults) return undefined;
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
