/** Small schemas every part of the contract uses. */
import { z } from 'zod';
import { withoutBidiControls } from '../bidi';

/** An id of a record main made (a connection, a conversation, a run, an image). */
export const idSchema = z.string().min(1).max(200);

/** Text of at most `max` characters: every string that crosses IPC has a bound. */
export const boundedText = (max: number) => z.string().max(max);

/**
 * A file main saved for the person in this session, by the id main gave it with the save's
 * answer: what the page names to show it in the file manager (never its path).
 */
export const savedIdSchema = z.string().regex(/^[A-Za-z0-9_-]{16,64}$/);

/**
 * A name the page shows (a connection, a conversation, a file): without the characters that turn
 * text around (`shared/bidi.ts`), whatever was saved, imported or linked.
 */
export const shownText = z.string().transform(withoutBidiControls);
