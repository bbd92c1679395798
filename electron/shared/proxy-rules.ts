/**
 * What a proxy setting may hold: the proxy's host and the bypass list, read as Chromium reads
 * them (`net/proxy_resolution/proxy_bypass_rules.h`), with a sentence for each mistake.
 *
 * Plain functions, so the contract's schema (`ipc/routes/network.ts`) checks a setting the same
 * way whether it arrives from the Network settings, from a file or from a test.
 */
import type { ErrorMessageKey, PlainValue, Said } from './messages/keys';

/**
 * A mistake in a proxy setting: its English sentence, with its key in main's `errors` catalogue
 * and its values, so the form shows it in the person's language.
 */
type ProxyProblem = Said & { values?: Record<string, PlainValue> };

function problem(
  id: ErrorMessageKey,
  english: string,
  values?: Record<string, PlainValue>,
): ProxyProblem {
  return values ? { id, values, english } : { id, english };
}

export const PROXY_SCHEMES = ['http', 'https', 'socks5'] as const;
export type ProxyScheme = (typeof PROXY_SCHEMES)[number];

/** The port a proxy of each kind usually listens on, offered as the form's default. */
export const DEFAULT_PROXY_PORTS: Record<ProxyScheme, number> = {
  http: 8080,
  https: 443,
  socks5: 1080,
};

export const MAX_BYPASS_RULES = 100;

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/i;

function isIpv4(text: string): boolean {
  return IPV4.test(text);
}

/** An IPv6 literal without brackets: hex groups, at most one `::`, an IPv4 tail allowed. */
function isIpv6(text: string): boolean {
  if (!text.includes(':') || /[^0-9a-f:.]/i.test(text)) return false;
  const halves = text.split('::');
  if (halves.length > 2) return false;
  const groups = halves.flatMap((half) => (half === '' ? [] : half.split(':')));
  let count = 0;
  for (const [index, group] of groups.entries()) {
    if (group.includes('.')) {
      if (index !== groups.length - 1 || !isIpv4(group)) return false;
      count += 2;
    } else if (/^[0-9a-f]{1,4}$/i.test(group)) {
      count += 1;
    } else {
      return false;
    }
  }
  return halves.length === 2 ? count < 8 : count === 8;
}

function isHostName(text: string): boolean {
  if (text.length > 253) return false;
  const labels = (text.endsWith('.') ? text.slice(0, -1) : text).split('.');
  return labels.every((label) => LABEL.test(label));
}

/**
 * Why `host` cannot be a proxy's host, or undefined when it can: a host name, an IPv4 address or
 * an IPv6 address (with or without brackets). The scheme and the port have fields of their own.
 */
export function proxyHostProblem(host: string): ProxyProblem | undefined {
  const value = host.trim();
  if (value === '')
    return problem('proxy.host.missing', 'Give the proxy’s host name or IP address.');
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) {
    return problem(
      'proxy.host.scheme',
      'Give the host only, without http:// or socks5://: choose the kind of proxy above.',
    );
  }
  if (/[\s/?#@]/.test(value)) {
    return problem(
      'proxy.host.notAName',
      `“${value}” is not a host name: give a name such as proxy.example.com or an IP address.`,
      { value },
    );
  }
  const bracketed = /^\[(.*)\]$/.exec(value);
  if (bracketed) {
    return isIpv6(bracketed[1] ?? '')
      ? undefined
      : problem('proxy.host.notIpv6', `“${value}” is not an IPv6 address.`, { value });
  }
  if (isIpv6(value)) return undefined;
  if (/:\d*$/.test(value))
    return problem('proxy.host.port', 'Put the port in the Port field, not after the host.');
  if (/^[\d.]+$/.test(value)) {
    return isIpv4(value)
      ? undefined
      : problem('proxy.host.notIpv4', `“${value}” is not an IPv4 address.`, { value });
  }
  return isHostName(value)
    ? undefined
    : problem(
        'proxy.host.notAName',
        `“${value}” is not a host name: give a name such as proxy.example.com or an IP address.`,
        { value },
      );
}

/** The host as Chromium's proxy rules take it: an IPv6 address in brackets. */
export function proxyHostForRules(host: string): string {
  const value = host.trim();
  return isIpv6(value) ? `[${value}]` : value;
}

/** A host pattern of a bypass rule: a name whose labels may hold `*`, or `.suffix`. */
function isHostPattern(text: string): boolean {
  if (text === '*') return true;
  const pattern = text.startsWith('.') ? text.slice(1) : text;
  if (pattern === '' || pattern.length > 253) return false;
  return pattern
    .split('.')
    .every((label) => label !== '' && /^[a-z0-9_*-]{1,63}$/i.test(label) && !/^-|-$/.test(label));
}

/**
 * Why one entry of the bypass list would not be understood, or undefined when it would. The
 * forms Chromium accepts: `<local>` (names without a dot), `[scheme://]host[:port]` where the host
 * may use `*` or start with `.` (a whole domain), an IP address, or an address range
 * (`192.168.0.0/16`, `fd00::/8`).
 */
export function bypassRuleProblem(rule: string): ProxyProblem | undefined {
  const value = rule.trim();
  if (value === '') return problem('proxy.bypass.empty', 'An entry of the bypass list is empty.');
  if (value.length > 300)
    return problem(
      'proxy.bypass.tooLong',
      'An entry of the bypass list is longer than 300 characters.',
      { max: 300 },
    );
  if (value === '<local>') return undefined;
  if (value.toLowerCase() === '<-loopback>') {
    return problem(
      'proxy.bypass.loopback',
      '<-loopback> would send this computer’s own addresses through the proxy; the app always reaches them directly (the demo relay runs there).',
    );
  }
  if (/[\s,;]/.test(value))
    return problem(
      'proxy.bypass.separator',
      `“${value}” holds a space, comma or semicolon: one entry per line.`,
      { value },
    );
  const range = /^([^/]+)\/(\d{1,3})$/.exec(value);
  if (range) {
    const address = (range[1] ?? '').replace(/^\[(.*)\]$/, '$1');
    const prefix = Number(range[2]);
    if (isIpv4(address)) {
      return prefix <= 32
        ? undefined
        : problem('proxy.bypass.ipv4Range', `“${value}”: an IPv4 range ends in /0 to /32.`, {
            value,
          });
    }
    if (isIpv6(address)) {
      return prefix <= 128
        ? undefined
        : problem('proxy.bypass.ipv6Range', `“${value}”: an IPv6 range ends in /0 to /128.`, {
            value,
          });
    }
    return problem(
      'proxy.bypass.notRange',
      `“${value}” is not an address range such as 192.168.0.0/16.`,
      { value },
    );
  }
  let rest = value;
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(rest);
  if (scheme) {
    if (!['http', 'https', 'ws', 'wss'].includes((scheme[1] ?? '').toLowerCase())) {
      return problem(
        'proxy.bypass.scheme',
        `“${value}”: a bypass entry may name http, https, ws or wss before ://.`,
        { value },
      );
    }
    rest = rest.slice(scheme[0].length);
  }
  if (rest.startsWith('[')) {
    const end = rest.indexOf(']');
    const address = end < 0 ? '' : rest.slice(1, end);
    const after = end < 0 ? '' : rest.slice(end + 1);
    if (!isIpv6(address) || !(after === '' || /^:\d{1,5}$/.test(after))) {
      return problem(
        'proxy.bypass.ipv6',
        `“${value}” is not an IPv6 address in brackets, with or without a port.`,
        { value },
      );
    }
    return portProblem(value, after.slice(1));
  }
  const portAt = rest.lastIndexOf(':');
  let port = '';
  if (portAt >= 0) {
    port = rest.slice(portAt + 1);
    rest = rest.slice(0, portAt);
    if (!/^\d{1,5}$/.test(port))
      return problem(
        'proxy.bypass.notPort',
        `“${value}”: what follows the last : must be a port.`,
        {
          value,
        },
      );
  }
  if (isIpv4(rest) || isHostPattern(rest))
    return port === '' ? undefined : portProblem(value, port);
  return problem(
    'proxy.bypass.notHost',
    `“${value}” is not a host, a domain (.example.com), an address or a range.`,
    { value },
  );
}

function portProblem(rule: string, port: string): ProxyProblem | undefined {
  if (port === '') return undefined;
  const number = Number(port);
  return number >= 1 && number <= 65535
    ? undefined
    : problem('proxy.bypass.portRange', `“${rule}”: a port is a number from 1 to 65535.`, {
        value: rule,
      });
}
