/**
 * A settings change as IPC gives it may name a field with the value undefined (zod's optional
 * fields allow it): that means "leave it", so it must not blank the saved value when merged.
 */
import { describe, expect, it } from 'vitest';
import { setFields } from '../../../electron/main/services/changes';

describe('setFields', () => {
  it('keeps the fields that are set, falsy ones included', () => {
    expect(
      setFields<{ a: boolean; b: string; c: number | null }>({ a: false, b: '', c: null }),
    ).toEqual({
      a: false,
      b: '',
      c: null,
    });
  });

  it('leaves out a field given as undefined, so a merge keeps the current value', () => {
    const current = { channel: 'beta', autoCheck: true };
    const set = setFields<typeof current>({ channel: undefined, autoCheck: false });
    expect(Object.keys(set)).toEqual(['autoCheck']);
    expect({ ...current, ...set }).toEqual({ channel: 'beta', autoCheck: false });
  });
});
