/**
 * A proxy sees every request it carries, so main asks the person, in a dialog of its own that the
 * page cannot answer, before the app's requests go through one they did not have: set from the
 * page (`network:set-proxy`), or brought back by a restored backup.
 */
import type { ProxySettings } from '../../../shared/ipc/routes/network';
import { proxyHostForRules } from '../../../shared/proxy-rules';
import type { ConfirmOptions } from '../../app-context';
import { nativeText } from '../words';

/** Whether two proxy settings send requests the same way. */
export function sameProxy(a: ProxySettings, b: ProxySettings): boolean {
  if (a.mode !== 'manual' || b.mode !== 'manual') return a.mode === b.mode;
  return (
    a.scheme === b.scheme &&
    a.host.trim().toLowerCase() === b.host.trim().toLowerCase() &&
    a.port === b.port &&
    JSON.stringify(a.bypass.map((r) => r.trim())) === JSON.stringify(b.bypass.map((r) => r.trim()))
  );
}

/**
 * Whether going from `current` to `next` needs the person's yes: a proxy of one's own (manual)
 * that is not the one in use. The system's proxy, or none, hands requests to nobody new.
 */
export function proxyNeedsConsent(current: ProxySettings, next: ProxySettings): boolean {
  return next.mode === 'manual' && !sameProxy(current, next);
}

/** The question, naming the proxy; `from` a restore, it says the rest is restored either way. */
export function proxyQuestion(
  proxy: Extract<ProxySettings, { mode: 'manual' }>,
  from: 'settings' | 'restore',
): ConfirmOptions {
  const address = `${proxy.scheme}://${proxyHostForRules(proxy.host)}:${proxy.port}`;
  return from === 'settings'
    ? {
        title: nativeText('dialog.proxy.title'),
        message: nativeText('dialog.proxy.message', { address }),
        detail: nativeText('dialog.proxy.detail'),
        confirmLabel: nativeText('dialog.proxy.confirm'),
      }
    : {
        title: nativeText('dialog.proxy.title'),
        message: nativeText('dialog.proxyRestore.message', { address }),
        detail: nativeText('dialog.proxyRestore.detail'),
        confirmLabel: nativeText('dialog.proxyRestore.confirm'),
      };
}
