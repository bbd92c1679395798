/**
 * The app's services over the user data folder, as one unit that a restore closes and opens
 * again on the restored data.
 *
 * Calls go through `use`: while the services are being reopened, a call waits for the new ones
 * instead of reaching a closed database; one that was running when they closed (a stream) is
 * stopped by the services' own close and waited for, briefly.
 */
import { AppError } from './services/app-error';
import { said } from './services/words';

/** How long a reopen waits for calls still running after the services closed. */
const SETTLE_MS = 10_000;

export class AppSession<S extends { close(): Promise<void> }> {
  readonly #open: () => Promise<S>;
  #current: S | undefined;
  #ready: Promise<S | undefined>;
  readonly #running = new Set<Promise<unknown>>();

  private constructor(open: () => Promise<S>, first: S) {
    this.#open = open;
    this.#current = first;
    this.#ready = Promise.resolve(first);
  }

  static async start<S extends { close(): Promise<void> }>(
    open: () => Promise<S>,
  ): Promise<AppSession<S>> {
    return new AppSession(open, await open());
  }

  /** The services now; throws while they are being reopened. */
  get current(): S {
    if (this.#current === undefined) throw new AppError('internal', said('app.reopening'));
    return this.#current;
  }

  /** Runs `work` with the services, waiting for them while they are being reopened. */
  async use<T>(work: (services: S) => T | Promise<T>): Promise<T> {
    const services = this.#current ?? (await this.#ready);
    if (services === undefined) throw new AppError('internal', said('app.notReopened'));
    const run = Promise.resolve().then(() => work(services));
    this.#running.add(run);
    void run.then(
      () => this.#running.delete(run),
      () => this.#running.delete(run),
    );
    return run;
  }

  /**
   * Closes the services, runs `swap` (which changes the files under them), and opens them again
   * on what is then in place. When `swap` fails, the services open again on the old data and
   * the error is thrown; when opening fails, they stay closed and that error is thrown.
   */
  async reopen(swap: () => Promise<void>): Promise<void> {
    let settle!: (services: S | undefined) => void;
    this.#ready = new Promise((resolve) => (settle = resolve));
    const old = this.#current;
    this.#current = undefined;
    try {
      await old?.close();
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled([...this.#running]),
        new Promise((resolve) => (timer = setTimeout(resolve, SETTLE_MS))),
      ]);
      clearTimeout(timer);
      let swapError: unknown;
      try {
        await swap();
      } catch (error) {
        swapError = error ?? new Error('The data could not be swapped.');
      }
      this.#current = await this.#open();
      if (swapError !== undefined) throw swapError;
    } finally {
      settle(this.#current);
    }
  }

  async close(): Promise<void> {
    await this.#current?.close();
  }
}
