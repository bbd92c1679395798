/**
 * `relay-desktop://connect?name=…&baseUrl=…` links: how a relay's console offers "Open in Relay
 * Desktop". A link only prefills the connection form; the person checks it, pastes the key and
 * saves. Every field is checked as if typed into the form; a key in a link is never taken (a link
 * passes through browsers, histories and chat messages: no place for a secret).
 */
import type { ConnectLink } from '../../../shared/ipc/routes/desktop';
import { newConnectionProblems } from '../connections/connection-input';
import { displayAddress } from '../relay/base-url';

export const LINK_SCHEME = 'relay-desktop';
export const MAX_LINK_CHARS = 4096;

/** Parameters that carry a secret: never used, and the person is told so. */
const SECRET_PARAMETER =
  /^(api[-_]?key|key|token|access[-_]?token|secret|password|passwd|auth|authorization|bearer)$/i;
const FIELDS = ['name', 'baseUrl', 'consoleUrl'] as const;

/** The first argument that is one of our links (Windows and Linux pass it on the command line). */
export function findLinkInArgv(argv: readonly string[]): string | undefined {
  return argv.find((arg) => arg.toLowerCase().startsWith(`${LINK_SCHEME}:`));
}

function refused(message: string): ConnectLink {
  return { ok: false, message };
}

/** What a link asks for, checked as if typed; or why it cannot be used. */
export function readConnectLink(link: string): ConnectLink {
  if (link.length > MAX_LINK_CHARS) {
    return refused(`The link is longer than ${MAX_LINK_CHARS} characters, so it was not read.`);
  }
  let url: URL;
  try {
    url = new URL(link.trim());
  } catch {
    return refused('The link is not a valid address, so it was not read.');
  }
  if (url.protocol !== `${LINK_SCHEME}:`) {
    return refused(`Only ${LINK_SCHEME}:// links are read here.`);
  }
  // `relay-desktop://connect?…` (host "connect") or `relay-desktop:connect?…` (path "connect").
  const action = (url.host || url.pathname).replace(/^\/+|\/+$/g, '').toLowerCase();
  if (action !== 'connect') {
    return refused(
      `Relay Desktop links can only add a connection (${LINK_SCHEME}://connect?name=…&baseUrl=…); this one asks for “${displayAddress(action || '(nothing)')}”.`,
    );
  }

  const notes: string[] = [];
  const values: Partial<Record<(typeof FIELDS)[number], string>> = {};
  const ignored = new Set<string>();
  let secret = false;
  for (const [name, value] of url.searchParams) {
    if (SECRET_PARAMETER.test(name)) {
      secret = true;
      continue;
    }
    const field = FIELDS.find((f) => f.toLowerCase() === name.toLowerCase());
    if (field === undefined) {
      ignored.add(name);
      continue;
    }
    if (values[field] !== undefined) return refused(`The link gives ${field} twice.`);
    values[field] = value;
  }
  if (secret) {
    notes.push(
      'The link held an API key, which was not used: a link is no place for a key. Paste the key yourself. If that key is real, anyone who saw the link has it: replace it in your relay’s console.',
    );
  }
  if (ignored.size > 0) {
    const names = [...ignored].slice(0, 5).map((n) => displayAddress(n).slice(0, 40));
    notes.push(`The link also held ${names.join(', ')}, which Relay Desktop does not use.`);
  }
  if (values.baseUrl === undefined || values.baseUrl.trim() === '') {
    return refused('The link gives no relay address (baseUrl), so there is nothing to connect to.');
  }
  if (values.name === undefined || values.name.trim() === '') {
    return refused('The link gives no name for the connection (name).');
  }
  const fields = {
    name: values.name.trim(),
    baseUrl: values.baseUrl.trim(),
    ...(values.consoleUrl?.trim() ? { consoleUrl: values.consoleUrl.trim() } : {}),
  };
  const problems = newConnectionProblems(fields);
  if (problems.length > 0) {
    return refused(`The link cannot be used: ${problems.map((p) => p.message).join(' ')}`);
  }
  return { ok: true, draft: fields, notes };
}
