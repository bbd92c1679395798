/**
 * Where the person was when the app last closed (the screen, the open conversation), kept in the
 * page's own storage so that the next start opens there. Only ids and names: never content. A
 * storage that cannot be read or written (full, disabled) just means starting at the default.
 */
export function recall(key: string): string | undefined {
  try {
    return localStorage.getItem(key) ?? undefined;
  } catch {
    return undefined;
  }
}

export function remember(key: string, value: string | undefined): void {
  try {
    if (value === undefined) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // Not kept: the next start opens at the default.
  }
}
