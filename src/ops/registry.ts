import type * as z from 'zod';
import type { OpContext } from './context.js';

/** How an operation behaves; MCP hints, HTTP method choice and CLI confirmations come from this. */
export interface OpAttributes {
  readOnly: boolean;
  idempotent: boolean;
  destructive: boolean;
}

export interface CliBinding<O> {
  /** Space-separated command path, e.g. `component resolve`. */
  command: string;
  /** Input fields taken as positional arguments, in order. */
  args?: string[];
  /**
   * Other command paths for the same operation (`detect` for `component detect`): same flags, same output, listed
   * in help as commands of their own that say what they stand for.
   */
  aliases?: string[];
  /** Short flags, e.g. `{ name: 'n' }`. */
  short?: Record<string, string>;
  /** Human rendering of the result; `--json` always prints the result itself. */
  human?: (result: O) => string;
  /** Exit code for a result that is a finding rather than an error (validate: 1 when problems). */
  exitCode?: (result: O) => number;
  /** Read a JSON object from standard input (when piped) and merge it under the flags. */
  stdinJson?: boolean;
  /** Extra help text shown under the command's options. */
  help?: string;
  /**
   * The result is an OpStream: the command prints each item as it comes until Ctrl-C (never run by the daemon,
   * whose socket would outlive the reader).
   */
  stream?: boolean;
}

export interface McpBinding {
  tool: string;
  /**
   * When an agent should pick this tool, one sentence starting "Use when"; the tool's description is the summary
   * and then this. Both speak the caller's terms: arguments by their JSON names in backticks, never CLI flags.
   */
  when: string;
}

export interface HttpBinding {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  route: string;
  /** Where input is read from; path parameters (`{id}`) are always merged in. */
  input: 'query' | 'body' | 'none';
  /** Status for NotFoundError when the spec names another (400 in some component routes). */
  notFoundStatus?: number;
  /** Input the route fixes (GET component detect never writes: `{apply: false}`); another value is a 400. */
  fixed?: Record<string, unknown>;
  /**
   * `sse`: the result is an OpStream sent as Server-Sent Events (text/event-stream); the `Last-Event-ID` header
   * becomes the `after` input.
   */
  stream?: 'sse';
}

export type Gate = 'active' | 'none';

/**
 * One operation: declared once, served by the CLI, the MCP server and the HTTP server.
 * Write `handler` before the bindings: TypeScript infers the result type from the first one it meets.
 */
export interface Operation<I extends z.ZodObject = z.ZodObject, O = unknown> {
  id: string;
  /**
   * What it does, in one line for every surface: arguments by their JSON names in backticks (the CLI shows them as
   * its flags), never a CLI flag.
   */
  summary: string;
  description?: string;
  input: I;
  gate: Gate;
  attributes: OpAttributes;
  cli?: CliBinding<NoInfer<O>>;
  mcp?: McpBinding;
  http?: HttpBinding[];
  handler: (ctx: OpContext, input: z.output<I>) => Promise<O> | O;
}

export const READ_ONLY: OpAttributes = { readOnly: true, idempotent: true, destructive: false };
export const WRITES: OpAttributes = { readOnly: false, idempotent: false, destructive: false };
export const WRITES_IDEMPOTENT: OpAttributes = { readOnly: false, idempotent: true, destructive: false };

/** Declares an operation with its types inferred from the input schema. */
export function defineOp<I extends z.ZodObject, O>(op: Operation<I, O>): Operation<I, O> {
  return op;
}

// biome-ignore lint/suspicious/noExplicitAny: the registry holds operations of every result type.
export type AnyOperation = Operation<z.ZodObject, any>;
