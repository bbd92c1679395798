/**
 * A component's own words: `useNamespace('embeddings')` suspends the component until that
 * namespace is loaded in the active language, then gives `t`. A component shown by more than one
 * screen (the embeddings map and heatmap, which the chat's knowledge X-ray shows too) loads what
 * it needs itself, whichever screen's chunk brought it.
 */
import { use } from 'react';
import { loadNamespace, useT, type Namespace } from './i18n';

const requested = new Map<Namespace, { ready: boolean; loading: Promise<void> }>();

function request(namespace: Namespace) {
  let found = requested.get(namespace);
  if (!found) {
    const entry = { ready: false, loading: Promise.resolve() };
    // A catalogue that cannot be fetched shows its keys rather than nothing at all.
    entry.loading = loadNamespace(namespace).then(
      () => void (entry.ready = true),
      () => void (entry.ready = true),
    );
    requested.set(namespace, entry);
    found = entry;
  }
  return found;
}

export function useNamespace(namespace: Namespace): ReturnType<typeof useT> {
  const entry = request(namespace);
  if (!entry.ready) use(entry.loading);
  return useT();
}
