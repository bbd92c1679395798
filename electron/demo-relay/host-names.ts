/**
 * Which `Host` headers the demo relay answers: the names of this machine with the relay's own
 * port, and nothing else.
 *
 * A web page can point a name it controls at 127.0.0.1 (DNS rebinding) and then talk to a
 * local server as if it were its own site; the browser still sends that name in `Host`. So a
 * name that is not this machine's is refused, whatever address it resolved to. Bound to one
 * LAN address (`--host 192.168.1.5`), the relay also answers that address; bound to every
 * address (`--host 0.0.0.0`), any IP address literal, which no DNS answer can stand behind.
 */
import { isIP } from 'node:net';

const LOOPBACK_NAMES = new Set(['127.0.0.1', 'localhost', '[::1]']);
const WILDCARDS = new Set(['', '0.0.0.0', '::']);

/** `name` and `port` of a Host header (`name:port`, `[v6]:port`); undefined when malformed. */
function splitHost(header: string): { name: string; port: string } | undefined {
  const match = /^(\[[0-9a-f:.]+\]|[^:[\]]+):(\d{1,5})$/i.exec(header.trim());
  return match ? { name: (match[1] as string).toLowerCase(), port: match[2] as string } : undefined;
}

function bracketed(host: string): string {
  return host.includes(':') ? `[${host.toLowerCase()}]` : host.toLowerCase();
}

/** The test the relay puts every request's Host header to, once it knows its port. */
export function hostChecker(
  bindHost: string,
  port: number,
): (header: string | undefined) => boolean {
  const names = new Set(LOOPBACK_NAMES);
  const anyAddress = WILDCARDS.has(bindHost);
  if (!anyAddress) names.add(bracketed(bindHost));
  return (header) => {
    if (header === undefined) return false;
    const parts = splitHost(header);
    if (parts === undefined || Number(parts.port) !== port) return false;
    if (names.has(parts.name)) return true;
    return anyAddress && isIP(parts.name.replace(/^\[|\]$/g, '')) !== 0;
  };
}
