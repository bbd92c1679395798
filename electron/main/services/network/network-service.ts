/**
 * Applies the proxy setting to the network stack the app's requests go through, and answers
 * "which proxy would this address use". The stack itself is given: Electron's session in the app
 * (`platform/network.ts`), a recording stand-in in tests.
 */
import type { ProxySettings } from '../../../shared/ipc/routes/network';
import type { ConfirmOptions } from '../../app-context';
import { AppError } from '../app-error';
import { displayAddress } from '../relay/base-url';
import {
  proxyConfigFor,
  proxyTestUrlProblem,
  readResolvedProxy,
  type ResolvedProxy,
  type SessionProxyConfig,
} from './proxy';
import { proxyNeedsConsent, proxyQuestion } from './proxy-question';
import { said } from '../words';

export interface ProxyStack {
  /** `session.setProxy` on every session the app's requests use. */
  setProxy(config: SessionProxyConfig): Promise<void>;
  /** `session.resolveProxy`: Chromium's answer, such as `PROXY host:8080; DIRECT`. */
  resolveProxy(url: string): Promise<string>;
  /**
   * Hands the stack the answer to a proxy's request for credentials (HTTP 407): Electron's
   * `login` event with `authInfo.isProxy`. Undefined from the answer cancels the request.
   */
  onProxyLogin?(answer: (challenge: ProxyChallenge) => Promise<ProxyCredentials | undefined>): void;
}

/** A proxy asking who is there: Electron's `AuthInfo` with `isProxy` true. */
export interface ProxyChallenge {
  host: string;
  port: number;
}

export interface ProxyCredentials {
  username: string;
  password: string;
}

/** The keychain account the proxy's password is kept under (never settings.json). */
export const PROXY_PASSWORD_ACCOUNT = 'proxy:password';

/** Where the proxy's password is kept: the OS keychain (the secret store of the API keys). */
export interface ProxySecrets {
  get(account: string): Promise<string | undefined>;
  set(account: string, secret: string): Promise<void>;
  delete(account: string): Promise<boolean>;
}

/** Where the proxy setting is kept (the settings service). */
export interface ProxySettingsStore {
  get(): Promise<{ proxy: ProxySettings }>;
  update(changes: { proxy: ProxySettings }): Promise<{ proxy: ProxySettings }>;
}

/** What the person's own proxy choices (`choose`) need: the saved setting and main's dialog. */
export interface ProxyChoices {
  settings: ProxySettingsStore;
  /** Asks the person in main's own dialog; false where no one can be asked. */
  confirm(question: ConfirmOptions): Promise<boolean>;
}

export class NetworkService {
  readonly #stack: ProxyStack | undefined;
  readonly #secrets: ProxySecrets | undefined;
  readonly #choices: ProxyChoices | undefined;
  #applied: SessionProxyConfig | undefined;
  #proxy: ProxySettings | undefined;

  constructor(stack: ProxyStack | undefined, secrets?: ProxySecrets, choices?: ProxyChoices) {
    this.#stack = stack;
    this.#secrets = secrets;
    this.#choices = choices;
    stack?.onProxyLogin?.((challenge) => this.credentialsFor(challenge));
  }

  /**
   * The person's choice of proxy (from the page): a proxy of their own that is not the one in use
   * is applied and saved only once they said yes in main's own dialog, which the page cannot
   * answer for them; declined, nothing changes.
   */
  async choose(proxy: ProxySettings): Promise<ProxySettings> {
    const choices = this.#choices;
    if (choices === undefined) throw new Error('The network service has no settings to save to.');
    const current = (await choices.settings.get()).proxy;
    if (proxy.mode === 'manual' && proxyNeedsConsent(current, proxy)) {
      if (!(await choices.confirm(proxyQuestion(proxy, 'settings'))))
        throw new AppError('invalid_request', said('network.notConfirmed'));
    }
    return this.save(proxy, choices.settings);
  }

  /**
   * The user name and password for a proxy asking for them: only the proxy of the setting (its
   * host and port), only with a user name set, the password read from the keychain each time.
   * Any other proxy that asks (the system's, one in a PAC file) gets nothing.
   */
  async credentialsFor(challenge: ProxyChallenge): Promise<ProxyCredentials | undefined> {
    const proxy = this.#proxy;
    if (proxy?.mode !== 'manual' || !proxy.username) return undefined;
    const host = (h: string) =>
      h
        .trim()
        .toLowerCase()
        .replace(/^\[|\]$/g, '');
    if (host(challenge.host) !== host(proxy.host) || challenge.port !== proxy.port)
      return undefined;
    const password = await this.#secrets?.get(PROXY_PASSWORD_ACCOUNT).catch(() => undefined);
    return { username: proxy.username, password: password ?? '' };
  }

  /** Whether a proxy password is kept in the keychain. */
  async passwordSet(): Promise<boolean> {
    const password = await this.#secrets?.get(PROXY_PASSWORD_ACCOUNT);
    return password !== undefined && password !== '';
  }

  /** Keeps the proxy's password in the keychain, or removes it (null). */
  async setPassword(password: string | null): Promise<boolean> {
    if (this.#secrets === undefined)
      throw new AppError('invalid_request', said('network.notApplied', { detail: 'no keychain' }));
    if (password === null) await this.#secrets.delete(PROXY_PASSWORD_ACCOUNT);
    else await this.#secrets.set(PROXY_PASSWORD_ACCOUNT, password);
    return this.passwordSet();
  }

  /** What was last given to the stack, if anything. */
  get applied(): SessionProxyConfig | undefined {
    return this.#applied;
  }

  async apply(settings: ProxySettings): Promise<void> {
    const config = proxyConfigFor(settings);
    this.#proxy = settings;
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
