import { randomBytes } from 'node:crypto';
import type { AppContext } from '../../app-context';

/**
 * Notes the file a save wrote (its `path`, absent when cancelled) under a new id, which the
 * answer carries as `savedId`: the page names that id to show the file, never the path.
 */
export function saved<T extends object>(
  context: Pick<AppContext, 'savedFiles'>,
  result: T,
): T & { savedId?: string } {
  const path = (result as { path?: unknown }).path;
  if (typeof path !== 'string') return result;
  const savedId = randomBytes(18).toString('base64url');
  context.savedFiles.set(savedId, path);
  return { ...result, savedId };
}
