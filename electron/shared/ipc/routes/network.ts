/**
 * The network part of the IPC contract (see ../contract.ts): which proxy the app's requests to
 * relays go through, and a test of where a given address would go.
 *
 * The proxy is a setting like the others (kept in settings.json), changed only through
 * `setProxy`, which checks it, saves it and applies it to the session `net.fetch` uses at once.
 */
import { z } from 'zod';
import {
  bypassRuleProblem,
  MAX_BYPASS_RULES,
  PROXY_SCHEMES,
  proxyHostProblem,
} from '../../proxy-rules';
import { route, type RouteSpec } from '../define';
import { boundedText as text } from '../schemas';
import { worded, wordedIssue } from '../../messages/worded';

export const PROXY_MODES = ['system', 'none', 'manual'] as const;
export type ProxyMode = (typeof PROXY_MODES)[number];

const manualProxySchema = z.strictObject({
  mode: z.literal('manual'),
  scheme: z.enum(PROXY_SCHEMES, {
    error: worded('form.network.scheme', 'Choose HTTP, HTTPS or SOCKS5.'),
  }),
  host: text(300).superRefine((host, ctx) => {
    const problem = proxyHostProblem(host);
    if (problem !== undefined)
      ctx.addIssue(wordedIssue(problem.id, problem.english, problem.values));
  }),
  port: z
    .number({
      error: worded('form.network.portMissing', 'Give the proxy’s port, a number from 1 to 65535.'),
    })
    .int({ error: worded('form.network.portWhole', 'The port is a whole number from 1 to 65535.') })
    .min(1, { error: worded('form.network.portRange', 'The port is a number from 1 to 65535.') })
    .max(65535, {
      error: worded('form.network.portRange', 'The port is a number from 1 to 65535.'),
    }),
  /**
   * The user name the proxy asks for, if it asks (Basic or Digest authentication). Its password
   * is not here: it is kept in the OS keychain, like the API keys, and never reaches the page.
   */
  username: text(200).optional(),
  /** Addresses reached without the proxy, in Chromium's bypass syntax, one rule each. */
  bypass: z
    .array(text(300))
    .max(MAX_BYPASS_RULES, {
      error: worded('form.network.bypassAtMost', `At most ${MAX_BYPASS_RULES} bypass entries.`, {
        max: MAX_BYPASS_RULES,
      }),
    })
    .superRefine((rules, ctx) => {
      rules.forEach((rule, index) => {
        const problem = bypassRuleProblem(rule);
        if (problem !== undefined)
          ctx.addIssue({
            ...wordedIssue(problem.id, problem.english, problem.values),
            path: [index],
          });
      });
    }),
});

/**
 * How requests to relays reach the network: the system's proxy settings (the default), no proxy,
 * or one proxy given here. The demo relay on this computer is always reached directly.
 */
export const proxySettingsSchema = z.discriminatedUnion(
  'mode',
  [
    z.strictObject({ mode: z.literal('system') }),
    z.strictObject({ mode: z.literal('none') }),
    manualProxySchema,
  ],
  {
    error: worded(
      'form.network.mode',
      'Choose the system’s proxy, no proxy, or a proxy of your own.',
    ),
  },
);
export type ProxySettings = z.infer<typeof proxySettingsSchema>;

export const DEFAULT_PROXY_SETTINGS: ProxySettings = { mode: 'system' };

export const proxyTestResultSchema = z.object({
  /** The address tested, as given. */
  url: z.string(),
  /** Chromium's answer for it (`session.resolveProxy`), such as `PROXY proxy:8080; DIRECT`. */
  answer: z.string(),
  /** True when the first choice is to connect directly. */
  direct: z.boolean(),
  /** The proxies in the answer, in order: kind and `host:port`. */
  proxies: z.array(z.object({ kind: z.string(), hostPort: z.string() })),
});

export const NETWORK_ROUTES = {
  /** Checks, saves and applies the proxy; answers with the proxy now in use. */
  setProxy: route(
    'network:set-proxy',
    z.strictObject({ proxy: proxySettingsSchema }),
    proxySettingsSchema,
  ),
  /** Whether a proxy password is kept in the keychain: the page learns no more than that. */
  proxyPasswordStatus: route(
    'network:proxy-password-status',
    z.null().optional(),
    z.object({ set: z.boolean() }),
  ),
  /** Keeps the proxy's password in the keychain (null removes it); answers whether one is kept. */
  setProxyPassword: route(
    'network:set-proxy-password',
    z.strictObject({ password: z.string().min(1).max(500).nullable() }),
    z.object({ set: z.boolean() }),
  ),
  /** Which proxy, if any, a request to `url` would go through now. */
  testProxy: route(
    'network:test-proxy',
    z.strictObject({
      url: text(2000)
        .trim()
        .min(1, { error: worded('form.network.testAddress', 'Give an address to test.') }),
    }),
    proxyTestResultSchema,
  ),
} as const satisfies Record<string, RouteSpec>;
