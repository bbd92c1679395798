import { describe, expect, it } from 'vitest';
import { createFrameCoalescer } from '../../../renderer/src/features/chat/frame-coalescer';

/** A scheduler whose "frames" the test runs by hand. */
function manualFrames() {
  let queued: (() => void)[] = [];
  return {
    schedule: (callback: () => void) => {
      queued.push(callback);
    },
    frame() {
      const run = queued;
      queued = [];
      for (const callback of run) callback();
    },
    get waiting() {
      return queued.length;
    },
  };
}

describe('frame coalescer', () => {
  it('applies the first text of a quiet frame at once, then at most once per frame', () => {
    const frames = manualFrames();
    const applied: string[] = [];
    const coalescer = createFrameCoalescer(
      (batch) => applied.push([...batch].map(([id, text]) => `${id}:${text}`).join('|')),
      frames.schedule,
    );
    coalescer.push('r', 'a');
    expect(applied).toEqual(['r:a']);
    coalescer.push('r', 'b');
    coalescer.push('s', 'x');
    coalescer.push('r', 'c');
    expect(applied).toEqual(['r:a']);
    frames.frame();
    expect(applied).toEqual(['r:a', 'r:bc|s:x']);
    // Text in the frame right after an apply still waits for the next frame.
    coalescer.push('r', 'd');
    expect(applied).toHaveLength(2);
    frames.frame();
    expect(applied).toEqual(['r:a', 'r:bc|s:x', 'r:d']);
    // A frame with nothing to apply ends the cool-down: the next text goes at once.
    frames.frame();
    expect(frames.waiting).toBe(0);
    coalescer.push('r', 'e');
    expect(applied.at(-1)).toBe('r:e');
  });

  it('applies every reply of one message together, and a message in a busy frame at the next', () => {
    const frames = manualFrames();
    const applied: string[] = [];
    const coalescer = createFrameCoalescer(
      (batch) => applied.push([...batch].map(([id, text]) => `${id}:${text}`).join('|')),
      frames.schedule,
    );
    coalescer.pushAll([
      ['a', '1'],
      ['b', '1'],
      ['c', ''],
      ['d', '1'],
    ]);
    expect(applied).toEqual(['a:1|b:1|d:1']);
    coalescer.pushAll([
      ['a', '2'],
      ['d', '2'],
    ]);
    expect(applied).toHaveLength(1);
    frames.frame();
    expect(applied).toEqual(['a:1|b:1|d:1', 'a:2|d:2']);
    // Nothing but empty text: nothing to apply, no frame asked for.
    frames.frame();
    coalescer.pushAll([['a', '']]);
    expect(applied).toHaveLength(2);
    expect(frames.waiting).toBe(0);
  });

  it('never applies twice in one frame however fast text arrives', () => {
    const frames = manualFrames();
    let applies = 0;
    let text = '';
    const coalescer = createFrameCoalescer((batch) => {
      applies += 1;
      text += batch.get('r') ?? '';
    }, frames.schedule);
    for (let frame = 0; frame < 100; frame++) {
      for (let i = 0; i < 50; i++) coalescer.push('r', 'x');
      frames.frame();
    }
    expect(applies).toBeLessThanOrEqual(101);
    expect(text).toHaveLength(5000);
  });

  it('flushes what is queued now, and discards a reply', () => {
    const frames = manualFrames();
    const applied: string[] = [];
    const coalescer = createFrameCoalescer(
      (batch) => applied.push([...batch.values()].join('')),
      frames.schedule,
    );
    coalescer.push('r', 'a');
    coalescer.push('r', 'b');
    coalescer.flush();
    expect(applied).toEqual(['a', 'b']);
    coalescer.push('r', 'c');
    coalescer.discard('r');
    frames.frame();
    expect(applied).toEqual(['a', 'b']);
  });

  it('tells main at the frame after each apply, and only then: it sends the next text on that', () => {
    const frames = manualFrames();
    const log: string[] = [];
    const coalescer = createFrameCoalescer(
      (batch) => log.push(`apply ${[...batch.values()].join('')}`),
      frames.schedule,
      () => log.push('frame'),
    );
    // Nothing applied yet: no frame to tell of.
    frames.frame();
    expect(log).toEqual([]);
    coalescer.push('r', 'a');
    expect(log).toEqual(['apply a']);
    frames.frame();
    expect(log).toEqual(['apply a', 'frame']);
    // Text that arrives just after the frame (main answering it) is shown at once.
    coalescer.push('r', 'b');
    expect(log).toEqual(['apply a', 'frame', 'apply b']);
    // Text that waited for the frame is applied there, then main is told.
    coalescer.push('r', 'c');
    frames.frame();
    expect(log).toEqual(['apply a', 'frame', 'apply b', 'apply c', 'frame']);
    frames.frame();
    expect(log.at(-1)).toBe('frame');
    // Quiet: no more frames are asked for, so main hears nothing until the next text.
    frames.frame();
    expect(frames.waiting).toBe(0);
    expect(log.filter((l) => l === 'frame')).toHaveLength(3);
  });

  it('tells main only once the frame after an apply is drawn, so its answer finds the page idle', () => {
    const frames = manualFrames();
    // Tasks queued from a frame's callback, which the page runs once that frame is drawn.
    const drawn = manualFrames();
    const log: string[] = [];
    const coalescer = createFrameCoalescer(
      (batch) => log.push(`apply ${[...batch.values()].join('')}`),
      frames.schedule,
      () => log.push('frame'),
      drawn.schedule,
    );
    coalescer.push('r', 'a');
    expect(log).toEqual(['apply a']);
    frames.frame();
    // The frame that shows it has run its callback and is still being drawn: main waits.
    expect(log).toEqual(['apply a']);
    drawn.frame();
    expect(log).toEqual(['apply a', 'frame']);
    // Main's answer, arriving after that, is applied at once.
    coalescer.push('r', 'b');
    expect(log).toEqual(['apply a', 'frame', 'apply b']);
    // Text that waited for a frame is applied in its callback; main hears once it is drawn.
    coalescer.push('r', 'c');
    frames.frame();
    expect(log).toEqual(['apply a', 'frame', 'apply b', 'apply c']);
    drawn.frame();
    expect(log.at(-1)).toBe('frame');
  });
});
