/**
 * Applies the proxy setting to the network stack the app's requests go through, and answers
 * "which proxy would this address use". The stack itself is given: Electron's session in the app
 * (`platform/network.ts`), a recording stand-in in tests.
 */
import type { ProxySettings } from '../../../shared/ipc/routes/network';
import { AppError } from '../app-error';
import { displayAddress } from '../relay/base-url';
import {
  proxyConfigFor,
  proxyTestUrlProblem,
  readResolvedProxy,
  type ResolvedProxy,
  type SessionProxyConfig,
} from './proxy';
import { said } from '../words';

export interface ProxyStack {
  /** `session.setProxy` on every session the app's requests use. */
  setProxy(config: SessionProxyConfig): Promise<void>;
  /** `session.resolveProxy`: Chromium's answer, such as `PROXY host:8080; DIRECT`. */
  resolveProxy(url: string): Promise<string>;
}

/** Where the proxy setting is kept (the settings service). */
export interface ProxySettingsStore {
  get(): Promise<{ proxy: ProxySettings }>;
  update(changes: { proxy: ProxySettings }): Promise<{ proxy: ProxySettings }>;
}

export class NetworkService {
  readonly #stack: ProxyStack | undefined;
  #applied: SessionProxyConfig | undefined;

  constructor(stack: ProxyStack | undefined) {
    this.#stack = stack;
  }

  /** What was last given to the stack, if anything. */
  get applied(): SessionProxyConfig | undefined {
    return this.#applied;
  }

  async apply(settings: ProxySettings): Promise<void> {
    const config = proxyConfigFor(settings);
    if (this.#stack === undefined) {
      this.#applied = config;
      return;
    }
    try {
      await this.#stack.setProxy(config);
    } catch (error) {
      throw new AppError(
        'invalid_request',
        said('network.notApplied', {
          detail: error instanceof Error ? error.message : String(error),
        }),
      );
    }
    this.#applied = config;
  }

  /**
   * Applies the setting, then saves it: a proxy the network stack refuses is not saved, and if
   * saving fails the one before is applied again.
   */
  async save(proxy: ProxySettings, settings: ProxySettingsStore): Promise<ProxySettings> {
    const before = (await settings.get()).proxy;
    await this.apply(proxy);
    try {
      return (await settings.update({ proxy })).proxy;
    } catch (error) {
      await this.apply(before).catch(() => undefined);
      throw error;
    }
  }

  async test(url: string): Promise<ResolvedProxy & { url: string; answer: string }> {
    const problem = proxyTestUrlProblem(url);
    if (problem !== undefined) throw new AppError('invalid_request', problem);
    if (this.#stack === undefined) {
      throw new AppError('invalid_request', said('network.testUnavailable'));
    }
    // Asked without a user name, password or fragment: only where it goes matters.
    const asked = new URL(url);
    asked.username = '';
    asked.password = '';
    asked.hash = '';
    let answer: string;
    try {
      answer = await this.#stack.resolveProxy(asked.href);
    } catch (error) {
      throw new AppError(
        'invalid_request',
        said('network.notResolved', {
          address: displayAddress(url),
          detail: error instanceof Error ? error.message : String(error),
        }),
      );
    }
    return { url: displayAddress(url), answer, ...readResolvedProxy(answer) };
  }
}
