/** Small schemas every part of the contract uses. */
import { z } from 'zod';

/** An id of a record main made (a connection, a conversation, a run, an image). */
export const idSchema = z.string().min(1).max(200);

/** Text of at most `max` characters: every string that crosses IPC has a bound. */
export const boundedText = (max: number) => z.string().max(max);
