/**
 * Function calling on the demo relay: the `tools`, `tool_choice` and `parallel_tool_calls` fields
 * of a chat request, checked as the convention's relays check them, each mistake a 400 whose
 * `param` names the field (`tools[1].function.parameters`).
 *
 * A tool's `parameters` must be a JSON Schema of an object that compiles (ajv); the demo model
 * fills arguments from it and checks them against it before it calls (`models/tool-use.ts`).
 */
import { Ajv, type ValidateFunction } from 'ajv';
import { invalidRequest, type RelayHttpError } from './errors';

/** A tool as the demo model reads it. */
export interface DemoTool {
  name: string;
  description: string;
  /** The JSON Schema of its arguments (`{ type: 'object' }` when the request gave none). */
  parameters: Record<string, unknown>;
  /** Checks a set of arguments against `parameters`. */
  accepts: ValidateFunction;
}

export type DemoToolChoice = 'none' | 'auto' | 'required' | { name: string };

export interface ToolFields {
  tools: DemoTool[];
  choice: DemoToolChoice;
  parallel: boolean;
}

export const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;
export const TOOLS_MAX = 128;
const TOOL_FIELDS = ['type', 'function'];
const FUNCTION_FIELDS = ['name', 'description', 'parameters', 'strict'];

/** Schemas compiled so far, by their text: a client offers the same tools on every request. */
const compiled = new Map<string, ValidateFunction>();
/** Past this many schemas the compiler (which keeps every schema it compiled) starts afresh. */
const COMPILED_MAX = 256;
let ajv: Ajv | undefined;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function refuseUnknown(object: Record<string, unknown>, allowed: string[], prefix: string): void {
  for (const key of Object.keys(object))
    if (!allowed.includes(key))
      throw invalidRequest(
        `${prefix}${key}`,
        `Unrecognized request argument supplied: ${prefix}${key}. Accepted here: ${allowed.join(', ')}.`,
        'unknown_parameter',
      );
}

/** Reads the request's tool fields; none at all is `{ tools: [] }` (the model answers in text). */
export function validateToolFields(body: Record<string, unknown>): ToolFields {
  const has = (field: string) => Object.prototype.hasOwnProperty.call(body, field);
  const tools = has('tools') ? readTools(body.tools) : [];

  let parallel = true;
  if (has('parallel_tool_calls')) {
    if (typeof body.parallel_tool_calls !== 'boolean')
      throw invalidRequest(
        'parallel_tool_calls',
        'parallel_tool_calls must be a boolean.',
        'invalid_type',
      );
    if (!has('tools'))
      throw invalidRequest(
        'parallel_tool_calls',
        'parallel_tool_calls is only allowed when tools are specified.',
      );
    parallel = body.parallel_tool_calls;
  }

  let choice: DemoToolChoice = 'auto';
  if (has('tool_choice')) {
    const value = body.tool_choice;
    if (value === 'none' || value === 'auto' || value === 'required') choice = value;
    else if (isObject(value)) {
      refuseUnknown(value, ['type', 'function'], 'tool_choice.');
      if (value.type !== 'function')
        throw invalidRequest('tool_choice.type', 'tool_choice.type must be "function".');
      const fn = value.function;
      if (!isObject(fn) || typeof fn.name !== 'string')
        throw invalidRequest(
          'tool_choice.function.name',
          'tool_choice.function.name must name one of the tools.',
        );
      refuseUnknown(fn, ['name'], 'tool_choice.function.');
      const name = fn.name;
      if (!tools.some((tool) => tool.name === name))
        throw invalidRequest(
          'tool_choice.function.name',
          `tool_choice names ${JSON.stringify(name)}, which is not among the tools.`,
        );
      choice = { name };
    } else
      throw invalidRequest(
        'tool_choice',
        'tool_choice must be "none", "auto", "required" or {"type": "function", "function": {"name": …}}.',
      );
    if (!has('tools') && choice !== 'none')
      throw invalidRequest('tool_choice', 'tool_choice is only allowed when tools are specified.');
  }
  return { tools, choice, parallel };
}

function readTools(value: unknown): DemoTool[] {
  if (!Array.isArray(value))
    throw invalidRequest('tools', 'tools must be an array of tools.', 'invalid_type');
  if (value.length === 0)
    throw invalidRequest(
      'tools',
      'tools must hold at least one tool (leave the field out instead).',
    );
  if (value.length > TOOLS_MAX)
    throw invalidRequest('tools', `tools may hold at most ${TOOLS_MAX} tools.`);
  const names = new Set<string>();
  return value.map((tool: unknown, index) => {
    const at = `tools[${index}]`;
    if (!isObject(tool))
      throw invalidRequest(at, `${at} must be an object with type and function.`, 'invalid_type');
    refuseUnknown(tool, TOOL_FIELDS, `${at}.`);
    if (tool.type !== 'function')
      throw invalidRequest(`${at}.type`, `${at}.type must be "function".`);
    const fn = tool.function;
    if (!isObject(fn))
      throw invalidRequest(`${at}.function`, `${at}.function must be an object.`, 'invalid_type');
    refuseUnknown(fn, FUNCTION_FIELDS, `${at}.function.`);
    const name = fn.name;
    if (typeof name !== 'string' || !TOOL_NAME.test(name))
      throw invalidRequest(
        `${at}.function.name`,
        `${at}.function.name must be 1 to 64 letters, digits, underscores or hyphens.`,
      );
    if (names.has(name))
      throw invalidRequest(`${at}.function.name`, `Two tools are named ${JSON.stringify(name)}.`);
    names.add(name);
    if (fn.description !== undefined && typeof fn.description !== 'string')
      throw invalidRequest(
        `${at}.function.description`,
        `${at}.function.description must be a string.`,
        'invalid_type',
      );
    if (fn.strict !== undefined && typeof fn.strict !== 'boolean')
      throw invalidRequest(
        `${at}.function.strict`,
        `${at}.function.strict must be a boolean.`,
        'invalid_type',
      );
    const parameters =
      fn.parameters === undefined ? { type: 'object', properties: {} } : fn.parameters;
    return {
      name,
      description: typeof fn.description === 'string' ? fn.description : '',
      parameters: checkSchema(parameters, `${at}.function.parameters`),
      accepts: compile(parameters as Record<string, unknown>, `${at}.function.parameters`),
    };
  });
}

/** A tool's parameters: a JSON Schema object whose root describes an object. */
function checkSchema(value: unknown, param: string): Record<string, unknown> {
  if (!isObject(value))
    throw invalidRequest(param, `${param} must be a JSON Schema object.`, 'invalid_type');
  if (value.type !== undefined && value.type !== 'object')
    throw invalidRequest(
      param,
      `Invalid schema for ${param}: the arguments must be described as type "object", got ${JSON.stringify(value.type)}.`,
      'invalid_function_parameters',
    );
  return value;
}

function compile(schema: Record<string, unknown>, param: string): ValidateFunction {
  // The dialect named by `$schema` (draft-07, 2020-12) reads the same for the keywords tools use.
  const { $schema: _dialect, $id: _id, ...rest } = schema;
  const text = JSON.stringify(rest);
  const known = compiled.get(text);
  if (known !== undefined) return known;
  if (ajv === undefined || compiled.size >= COMPILED_MAX) {
    ajv = new Ajv({ strict: false, validateFormats: false });
    compiled.clear();
  }
  try {
    const check = ajv.compile(rest);
    compiled.set(text, check);
    return check;
  } catch (error) {
    throw invalidRequest(
      param,
      `Invalid schema for ${param}: ${(error as Error).message}`,
      'invalid_function_parameters',
    ) satisfies RelayHttpError;
  }
}
