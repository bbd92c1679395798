/**
 * Tool calls as a reply carries them: assembled from the stream's `delta.tool_calls` pieces (or
 * read from a whole completion's `message.tool_calls`) into whole calls, each checked.
 *
 * The convention streams each call as pieces keyed by `index`: the first piece of a call brings
 * its `id` and `function.name`, the following ones bring `function.arguments` text, cut anywhere
 * (inside a number, a string, an escape, a multi-byte character). Several calls in one reply have
 * several indexes, and a relay may interleave their pieces (parallel calls).
 *
 * Liberal where real relays differ, strict where a call could run wrongly: a repeated id or name
 * is taken as the same call, a missing `index` continues the call its `id` names (or the last
 * one), a new `id` at an index already in use starts another call (relays that number every call
 * 0), and an object where the arguments' text belongs is taken as that object. But a call whose
 * name changes, whose arguments never become a JSON object, that never got a name, or that a cut
 * stream left unfinished ends as a failed call with a message saying why, and is never run;
 * the other calls of the reply are not affected.
 */
import { said, type Said } from '../words';
import { RelayError } from './relay-error';

/** A call ready to run: its arguments parsed to the object the model wrote. */
export interface ToolCall {
  /** The call's place in the reply (the relay's `index`, or the order calls came in). */
  index: number;
  /** The id a `tool` message answering this call names. */
  id: string;
  /** The function the model called, as the request named it. */
  name: string;
  /** The arguments as the model wrote them (JSON text), to send back in the history as is. */
  arguments: string;
  /** The arguments, parsed. */
  input: Record<string, unknown>;
}

/** A call that cannot run, and why. */
export interface FailedToolCall {
  index: number;
  /** Its id when the relay gave one (a `tool` message may still answer it, with the error). */
  id: string | undefined;
  name: string | undefined;
  /** Whatever arguments text arrived. */
  arguments: string;
  /** Why it cannot run: a `bad_response` error with the reason's key and values. */
  error: RelayError;
}

export type ToolCallOutcome =
  ({ status: 'ready' } & ToolCall) | ({ status: 'failed' } & FailedToolCall);

/** What the reader tells its caller about the calls while the reply streams. */
export type ToolCallUpdate =
  /** A call has its name (and id): a card can show it. */
  | { type: 'started'; index: number; id: string; name: string }
  /** More of a started call's arguments text. */
  | { type: 'arguments'; index: number; delta: string }
  /** The reply is over and this call is whole: it may run. */
  | { type: 'ready'; call: ToolCall }
  /** This call will not run; `failure.error` says why. */
  | { type: 'failed'; failure: FailedToolCall };

/** More tool calls than this in one reply are refused past it. */
export const MAX_TOOL_CALLS = 128;
/** A call's arguments longer than this are refused (the call fails; the reply goes on). */
export const MAX_TOOL_ARGUMENT_CHARS = 1_000_000;

interface Slot {
  index: number;
  id: string | undefined;
  name: string | undefined;
  arguments: string;
  /** Set once the call cannot run; its later pieces are swallowed. */
  failure: Said | undefined;
  /** Told to the caller (a name arrived). */
  started: boolean;
  /** The first piece carried neither id nor name: pieces of a call never begun. */
  headless: boolean;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** What a value is, for the message that says the arguments were not an object. */
function kindOf(value: unknown): 'null' | 'list' | 'text' | 'number' | 'boolean' | 'other' {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'list';
  if (typeof value === 'string') return 'text';
  if (typeof value === 'number') return 'number';
  return typeof value === 'boolean' ? 'boolean' : 'other';
}

/** Assembles one reply's tool calls from their pieces, in any order and cut anywhere. */
export class ToolCallAssembler {
  readonly #onUpdate: ((update: ToolCallUpdate) => void) | undefined;
  /** Every call, in the order its first piece came. */
  readonly #slots: Slot[] = [];
  /** The call now open at each index the relay used. */
  readonly #byIndex = new Map<number, Slot>();
  /** Calls by id, for pieces that name their call by id only. */
  readonly #byId = new Map<string, Slot>();
  /** Index values that were not usable numbers, each reported once. */
  readonly #badIndexes = new Map<string, Slot>();
  /** Every index a call has or the relay used: a call opened by the app takes the next free one. */
  readonly #claimed = new Set<number>();
  #finished = false;
  #tooMany = false;

  constructor(onUpdate?: (update: ToolCallUpdate) => void) {
    this.#onUpdate = onUpdate;
  }

  /** Takes a `delta.tool_calls` (or `message.tool_calls`) value: a list of pieces. */
  add(pieces: unknown): void {
    if (this.#finished) return;
    const list = Array.isArray(pieces) ? pieces : [pieces];
    for (const piece of list) if (isRecord(piece)) this.#take(piece);
  }

  /** Every call of the reply, each ready or failed; `cutShort` fails the ones still open. */
  finish(cutShort = false): ToolCallOutcome[] {
    if (this.#finished) return [];
    this.#finished = true;
    const outcomes: ToolCallOutcome[] = [];
    // In the model's order (the relay's indexes), whatever order their first pieces came in.
    for (const slot of [...this.#slots].sort((a, b) => a.index - b.index)) {
      const outcome = this.#outcome(slot, cutShort);
      outcomes.push(outcome);
      if (outcome.status === 'ready') {
        const { status: _status, ...call } = outcome;
        this.#onUpdate?.({ type: 'ready', call });
      } else {
        const { status: _status, ...failure } = outcome;
        this.#onUpdate?.({ type: 'failed', failure });
      }
    }
    if (this.#tooMany) {
      // The calls past the limit, said once: none of them runs.
      const failure: FailedToolCall = {
        index: this.#nextIndex(),
        id: undefined,
        name: undefined,
        arguments: '',
        error: new RelayError(
          'bad_response',
          said('relay.tools.tooMany', { max: MAX_TOOL_CALLS }),
          {
            code: 'bad_tool_call',
          },
        ),
      };
      outcomes.push({ status: 'failed', ...failure });
      this.#onUpdate?.({ type: 'failed', failure });
    }
    return outcomes;
  }

  #take(piece: Record<string, unknown>): void {
    const fn = isRecord(piece.function) ? piece.function : undefined;
    const id = typeof piece.id === 'string' && piece.id !== '' ? piece.id : undefined;
    const name = typeof fn?.name === 'string' && fn.name !== '' ? fn.name : undefined;
    const slot = this.#slotFor(piece.index, id, name);
    if (slot === undefined || slot.failure !== undefined) return;

    if (id !== undefined && slot.id === undefined) {
      slot.id = id;
      this.#byId.set(id, slot);
    }
    if (name !== undefined) {
      if (slot.name === undefined) slot.name = name;
      else if (slot.name !== name) {
        slot.failure = said('relay.tools.nameChanged', {
          index: slot.index,
          first: slot.name,
          second: name,
        });
        return;
      }
    }
    const text = argumentsText(fn?.arguments);
    if (text !== '') {
      if (slot.arguments.length + text.length > MAX_TOOL_ARGUMENT_CHARS) {
        slot.failure = said('relay.tools.argumentsTooLong', {
          name: slot.name ?? `#${slot.index}`,
          max: MAX_TOOL_ARGUMENT_CHARS,
        });
        return;
      }
      slot.arguments += text;
    }
    if (!slot.started && slot.name !== undefined) {
      slot.started = true;
      this.#onUpdate?.({
        type: 'started',
        index: slot.index,
        id: slot.id ?? syntheticId(slot.index),
        name: slot.name,
      });
      // Arguments that came before the name are told now, in one piece.
      if (slot.arguments !== '')
        this.#onUpdate?.({ type: 'arguments', index: slot.index, delta: slot.arguments });
    } else if (slot.started && text !== '') {
      this.#onUpdate?.({ type: 'arguments', index: slot.index, delta: text });
    }
  }

  /** The call a piece belongs to, opening one when it starts a new call. */
  #slotFor(rawIndex: unknown, id: string | undefined, name: string | undefined): Slot | undefined {
    if (rawIndex === undefined || rawIndex === null) {
      // No index (some relays leave it out): the call its id names, else the last one.
      const known = id === undefined ? this.#slots.at(-1) : this.#byId.get(id);
      if (known !== undefined) return known;
      return this.#open(this.#nextIndex(), id, name);
    }
    if (typeof rawIndex !== 'number' || !Number.isInteger(rawIndex) || rawIndex < 0) {
      const key = JSON.stringify(rawIndex) ?? String(rawIndex);
      let slot = this.#badIndexes.get(key);
      if (slot === undefined) {
        // A call of its own, failed, that claims no index a later piece could name.
        slot = this.#open(this.#nextIndex(), id, name, null);
        if (slot !== undefined) {
          slot.id = id;
          slot.name = name;
          slot.failure = said('relay.tools.badIndex', { index: key.slice(0, 40) });
          this.#badIndexes.set(key, slot);
        }
      }
      return slot;
    }
    const open = this.#byIndex.get(rawIndex);
    if (open === undefined) return this.#open(rawIndex, id, name);
    // A new id at an index in use: another call (relays that number every call 0).
    if (id !== undefined && open.id !== undefined && id !== open.id) {
      return this.#byId.get(id) ?? this.#open(this.#nextIndex(), id, name, rawIndex);
    }
    return open;
  }

  #open(
    index: number,
    id: string | undefined,
    name: string | undefined,
    /** The relay's index this call answers to from now on; null for none. */
    relayIndex: number | null = index,
  ): Slot | undefined {
    if (this.#slots.length >= MAX_TOOL_CALLS) {
      this.#tooMany = true;
      return undefined;
    }
    const slot: Slot = {
      index,
      id: undefined,
      name: undefined,
      arguments: '',
      failure: undefined,
      started: false,
      headless: id === undefined && name === undefined,
    };
    this.#slots.push(slot);
    this.#claimed.add(index);
    if (relayIndex !== null) {
      this.#byIndex.set(relayIndex, slot);
      this.#claimed.add(relayIndex);
    }
    return slot;
  }

  #nextIndex(): number {
    let next = 0;
    for (const index of this.#claimed) next = Math.max(next, index + 1);
    return next;
  }

  #outcome(slot: Slot, cutShort: boolean): ToolCallOutcome {
    const base = { index: slot.index, id: slot.id, name: slot.name, arguments: slot.arguments };
    const fail = (reason: Said): ToolCallOutcome => ({
      status: 'failed',
      ...base,
      error: new RelayError('bad_response', reason, { code: 'bad_tool_call' }),
    });
    if (slot.failure !== undefined) return fail(slot.failure);
    if (slot.name === undefined) {
      return fail(
        slot.headless
          ? said('relay.tools.unknownIndex', { index: slot.index })
          : said('relay.tools.noName', { index: slot.index }),
      );
    }
    if (cutShort) return fail(said('relay.tools.interrupted', { name: slot.name }));
    const text = slot.arguments.trim();
    let input: unknown = {};
    if (text !== '') {
      try {
        input = JSON.parse(text);
      } catch {
        return fail(said('relay.tools.argumentsNotJson', { name: slot.name, index: slot.index }));
      }
    }
    if (!isRecord(input)) {
      return fail(said('relay.tools.argumentsNotObject', { name: slot.name, kind: kindOf(input) }));
    }
    return {
      status: 'ready',
      index: slot.index,
      id: slot.id ?? syntheticId(slot.index),
      name: slot.name,
      arguments: slot.arguments,
      input,
    };
  }
}

/** The arguments a piece carries: its text, or an object some relays send in its place. */
function argumentsText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (isRecord(value)) return JSON.stringify(value);
  return '';
}

/** An id for a call whose relay gave none, so a `tool` message can still answer it. */
function syntheticId(index: number): string {
  return `call_${index}`;
}

/** Reads a whole completion's `message.tool_calls`: the same checks as a stream's pieces. */
export function readToolCalls(
  toolCalls: unknown,
  onUpdate?: (update: ToolCallUpdate) => void,
): ToolCallOutcome[] | undefined {
  if (!Array.isArray(toolCalls) || toolCalls.length === 0) return undefined;
  const assembler = new ToolCallAssembler(onUpdate);
  // A whole call per entry: its place in the list is its index, whatever the entry says.
  toolCalls.forEach((call, index) => {
    if (isRecord(call)) assembler.add([{ ...call, index }]);
  });
  return assembler.finish();
}
