/**
 * The `events` package (Node's EventEmitter for browsers) as the browser-side harness scripts use
 * it; the Node side takes Node's own types.
 */
declare module 'events' {
  export class EventEmitter {
    on(event: string | symbol, listener: (...args: any[]) => void): this;
    removeListener(event: string | symbol, listener: (...args: any[]) => void): this;
    emit(event: string | symbol, ...args: unknown[]): boolean;
  }
}
