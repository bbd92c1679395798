import type { ConfirmOptions } from '../../app-context';

/** What the person agrees to when they send their key to a relay over plain http. */
export function unencryptedQuestion(origin: string): ConfirmOptions {
  return {
    title: 'Send your key unencrypted',
    message: `Send your API key to ${origin} without encryption?`,
    detail: `${origin} uses plain http. Your API key, and every prompt and reply, would cross the network readable by anyone on the way (a shared Wi-Fi, a proxy, your provider). Choose this only for a relay you reach over a network you trust; an https address is always safer.`,
    confirmLabel: 'Send unencrypted',
  };
}
