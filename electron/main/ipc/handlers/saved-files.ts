import type { AppContext } from '../../app-context';

/** Notes the file a save wrote (its `path`, absent when cancelled) so the page may show it. */
export function saved<T extends object>(context: AppContext, result: T): T {
  const path = (result as { path?: unknown }).path;
  if (typeof path === 'string') context.savedFiles.add(path);
  return result;
}
