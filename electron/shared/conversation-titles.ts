/**
 * The two titles main writes itself, stored as written (English) and shown in the person's
 * language by the page: the title of a conversation not yet named (replaced by the first
 * message's words), and the mark a branch's title carries after its original's.
 */
export const DEFAULT_TITLE = 'New conversation';
export const BRANCH_SUFFIX = ' (branch)';

/** What a stored title is: main's default, a branch's (with its original's title), or a name. */
export type TitleParts =
  { kind: 'untitled' } | { kind: 'branch'; of: TitleParts } | { kind: 'named'; title: string };

/**
 * A stored title read apart. Only exactly the default, or a title with no words (an import's, an
 * older release's), counts as untitled, and the branch mark only on a conversation that is a
 * branch (`forked`), so a title a person wrote stays theirs. The stored title is never changed.
 */
export function titleParts(title: string, forked: boolean): TitleParts {
  if (title === DEFAULT_TITLE || title.trim() === '') return { kind: 'untitled' };
  if (forked && title.endsWith(BRANCH_SUFFIX))
    return { kind: 'branch', of: titleParts(title.slice(0, -BRANCH_SUFFIX.length), true) };
  return { kind: 'named', title };
}
