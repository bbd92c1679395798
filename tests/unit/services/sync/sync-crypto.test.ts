import { describe, expect, it } from 'vitest';
import {
  checkMatches,
  deriveKeys,
  keyCheck,
  newRecoveryPhrase,
  newSalt,
  objectName,
  openObject,
  phraseProblem,
  sealObject,
  SealedObjectError,
} from '../../../../electron/main/services/sync/sync-crypto';
import { checkPhrase } from '../../../../electron/main/services/sync/sync-setup';

const COST = { N: 2 ** 10, r: 8, p: 1 };

describe('the recovery phrase and the keys', () => {
  it('is 12 words of the BIP-39 list, and a typo is found by word or by checksum', () => {
    const phrase = newRecoveryPhrase();
    expect(phrase.split(' ')).toHaveLength(12);
    expect(phraseProblem(phrase)).toBeUndefined();
    expect(phraseProblem(`  ${phrase.toUpperCase()}  `)).toBeUndefined();
    const words = phrase.split(' ');
    expect(phraseProblem([...words.slice(0, 11), 'zzzz'].join(' '))).toEqual({
      problem: 'unknown_word',
      word: 'zzzz',
      position: 12,
    });
    expect(phraseProblem(words.slice(0, 11).join(' '))).toEqual({ problem: 'length', count: 11 });
    // Two words swapped: the 4-bit checksum catches it, or (one time in 16, or when the two are
    // the same word) the phrase is another valid one.
    expect([undefined, 'checksum']).toContain(
      phraseProblem([words[1], words[0], ...words.slice(2)].join(' '))?.problem,
    );
    expect(() => checkPhrase('abandon '.repeat(12))).toThrow(/do not fit together/);
  });

  it('tells the right phrase from a wrong one by the check value', async () => {
    const salt = newSalt();
    const right = await deriveKeys(
      'abandon ability able about above absent absorb abstract absurd abuse access accident',
      salt,
      COST,
    );
    const again = await deriveKeys(
      'ABANDON ability able about above absent absorb abstract absurd abuse access accident',
      salt,
      COST,
    );
    const wrong = await deriveKeys(newRecoveryPhrase(), salt, COST);
    const check = keyCheck(right);
    expect(checkMatches(again, check)).toBe(true);
    expect(checkMatches(wrong, check)).toBe(false);
  });
});

describe('sealed objects', () => {
  it('open only with the key, under the name and kind they were sealed for', async () => {
    const keys = await deriveKeys(newRecoveryPhrase(), newSalt(), COST);
    const other = await deriveKeys(newRecoveryPhrase(), newSalt(), COST);
    const name = objectName(keys, 'log', 'device:1');
    expect(name).toMatch(/^o\/[0-9a-f]{32}$/);
    expect(objectName(keys, 'log', 'device:1')).toBe(name);
    expect(objectName(other, 'log', 'device:1')).not.toBe(name);
    const plain = Buffer.from('{"the":"changes"}');
    const sealed = sealObject(keys, 'log', name, plain);
    expect(sealed.includes(Buffer.from('changes'))).toBe(false);
    expect(openObject(keys, 'log', name, sealed)).toEqual(plain);
    const refused = (fn: () => unknown) => {
      try {
        fn();
      } catch (error) {
        return error instanceof SealedObjectError ? error.reason : 'other';
      }
      return 'opened';
    };
    expect(refused(() => openObject(other, 'log', name, sealed))).toBe('damaged');
    expect(
      refused(() => openObject(keys, 'log', objectName(keys, 'log', 'device:2'), sealed)),
    ).toBe('damaged');
    expect(refused(() => openObject(keys, 'head', name, sealed))).toBe('foreign');
    const flipped = Buffer.from(sealed);
    flipped[30] = flipped[30]! ^ 1;
    expect(refused(() => openObject(keys, 'log', name, flipped))).toBe('damaged');
    expect(refused(() => openObject(keys, 'log', name, Buffer.from('PK\u0003\u0004 a zip')))).toBe(
      'foreign',
    );
  });
});
