/**
 * Files the person dropped on the page reach main as grants, never as paths the page names.
 *
 * The preload (and only the preload: the page never sees `ipcRenderer`) reads the paths of the
 * `File` objects of a drop with Electron's `webUtils.getPathForFile`, which answers only for a
 * file the person really dropped or picked, and hands them to main on the channel below. Main
 * answers with one grant per path: a random id it made, bound to the window that asked and to one
 * use (attaching to a message, or adding to a knowledge base), good for a minute and for one call.
 * The page then names the grants (`chat:attach-dropped`, `knowledge:add-dropped`): a path the
 * person never chose cannot be named, and a grant cannot be made up.
 *
 * The channel is not a route of the page's bridge (`contract.ts` does not list it).
 */
import { z } from 'zod';
import { route, type RouteSpec } from './define';
import { boundedText as text } from './schemas';

/** What a grant may be used for, named when it is asked for. */
export const GRANT_PURPOSES = ['attach', 'knowledge'] as const;
export type GrantPurpose = (typeof GRANT_PURPOSES)[number];

/** The most files one drop hands over. */
export const MAX_GRANTS_AT_ONCE = 100;

/** A grant as main makes it: 32 characters of base64url from 24 random bytes. */
export const grantIdSchema = z.string().regex(/^[A-Za-z0-9_-]{32}$/, {
  error: 'a grant is an id main gave for a dropped file',
});

export const PRELOAD_ROUTES = {
  grantDroppedFiles: route(
    'files:grant-dropped',
    z.strictObject({
      purpose: z.enum(GRANT_PURPOSES),
      paths: z.array(text(4096).min(1)).min(1).max(MAX_GRANTS_AT_ONCE),
    }),
    z.object({ grants: z.array(grantIdSchema) }),
  ),
} as const satisfies Record<string, RouteSpec>;

export type PreloadRoutes = typeof PRELOAD_ROUTES;
