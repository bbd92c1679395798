/**
 * The objects in the storage, as JSON inside their sealed envelope (sync-crypto.ts), checked with
 * zod when read: an object that opens but does not fit is refused by name like a damaged one.
 *
 * - head (`h/`): a device's latest log number, the oldest log it still keeps, its snapshot, how
 *   far it has applied every other device's log, its clock, and the files it waits for. One per
 *   device; a new head is written beside the old one, which is deleted after.
 * - log (`o/`): one batch of a device's own changes, numbered 1, 2, 3… per device.
 * - snapshot (`s/`): a device's whole synced state in parts, with the log numbers it covers,
 *   which a new device starts from and which lets its writer delete its old logs.
 * - blob (`b/`): the bytes of a file, by SHA-256.
 * - `keyring` (not sealed): the salt and scrypt cost of the recovery phrase, and the check
 *   value that tells a wrong phrase from the right one. It holds no secret.
 */
import { z } from 'zod';
import { isStamp } from './hlc';

export const KEYRING_NAME = 'keyring';
export const KEYRING_FORMAT = 'relay-desktop-sync';

const stamp = z.string().refine(isStamp);
const deviceId = z.string().regex(/^[0-9a-f]{16}$/);
const counts = z.record(deviceId, z.number().int().nonnegative());

/** An entity as it travels: kind, id, and each field's value and stamp. */
export const wireEntitySchema = z.tuple([
  z.string().min(1).max(40),
  z.string().min(1).max(600),
  z.record(z.string().max(60), z.tuple([z.unknown(), stamp])),
]);
export type WireEntity = [string, string, Record<string, [unknown, string]>];

export const logSchema = z.object({
  v: z.literal(1),
  d: deviceId,
  s: z.number().int().positive(),
  e: z.array(wireEntitySchema),
});
export type LogObject = z.infer<typeof logSchema>;

export const snapshotPartSchema = z.object({
  v: z.literal(1),
  d: deviceId,
  id: z.string().regex(/^[0-9a-f]{16}$/),
  p: z.number().int().nonnegative(),
  e: z.array(wireEntitySchema),
});

export const snapshotInfoSchema = z.object({
  id: z.string().regex(/^[0-9a-f]{16}$/),
  /** The parts, numbered from 0. */
  parts: z.number().int().positive(),
  /** How far it covers each device's log (its writer's included). */
  covers: counts,
  bytes: z.number().int().nonnegative(),
});
export type SnapshotInfo = z.infer<typeof snapshotInfoSchema>;

/** Files a head says its device waits for, at most. */
export const WANTS_IN_HEAD = 200;

export const headSchema = z.object({
  v: z.literal(1),
  d: deviceId,
  label: z.string().max(200),
  seq: z.number().int().nonnegative(),
  /** The oldest log still in the storage; those before it are only in the snapshot. */
  from: z.number().int().positive(),
  snap: snapshotInfoSchema.nullable(),
  seen: counts,
  hlc: stamp,
  at: z.string(),
  /**
   * Files this device waits for and did not find in the storage (by SHA-256): a device that has
   * their bytes uploads them again. Absent when it waits for none (and from older versions).
   */
  want: z
    .array(z.string().regex(/^[0-9a-f]{64}$/))
    .max(WANTS_IN_HEAD)
    .optional(),
});
export type HeadObject = z.infer<typeof headSchema>;

export const keyringSchema = z.object({
  format: z.literal(KEYRING_FORMAT),
  version: z.number().int().positive(),
  kdf: z.object({
    name: z.literal('scrypt'),
    N: z
      .number()
      .int()
      .min(1024)
      .max(2 ** 22),
    r: z.number().int().min(1).max(32),
    p: z.number().int().min(1).max(16),
  }),
  salt: z.string().min(16).max(200),
  check: z.string().min(16).max(200),
  createdAt: z.string(),
});
export type Keyring = z.infer<typeof keyringSchema>;
