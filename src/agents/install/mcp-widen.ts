import { isDeepStrictEqual } from 'node:util';
import { type McpTarget, mcpEntry } from '../vendors.js';
import type { McpServerCommand } from './mcp-install.js';
import { isRecord, toPlain } from './mcp-merge.js';

/** The args of an entry hub wrote, in any vendor's shape (`args`, or OpenCode's `command` array). */
function argsOf(entry: unknown): string[] | undefined {
  if (!isRecord(entry)) return undefined;
  const list = Array.isArray(entry.args)
    ? entry.args
    : Array.isArray(entry.command)
      ? entry.command.slice(1)
      : [];
  return list.every((a) => typeof a === 'string') ? (list as string[]) : undefined;
}

/** `hub mcp serve` args split into the served selection (`--tools`, `--dynamic`) and the rest. */
function splitServe(args: readonly string[]): { tools?: string; dynamic: boolean; rest: string[] } {
  const rest: string[] = [];
  let tools: string | undefined;
  let dynamic = false;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--tools' && i + 1 < args.length) tools = args[++i];
    else if (args[i] === '--dynamic') dynamic = true;
    else rest.push(args[i]!);
  }
  return { ...(tools !== undefined ? { tools } : {}), dynamic, rest };
}

const withServe = (rest: string[], tools: string | undefined, dynamic: boolean) => [
  ...rest,
  ...(tools !== undefined ? ['--tools', tools] : []),
  ...(dynamic ? ['--dynamic'] : []),
];

/**
 * When `existing` is the entry hub itself writes for this same server (command, root and env alike) but serving
 * other tools, the server that serves both selections: the union of their `--tools` words (no `--tools` or
 * `full` means every tool), `--dynamic` when either has it. Undefined when `existing` is anything else (then it
 * stays a conflict). Installing a second agent thus widens the one `hub` entry instead of refusing.
 */
export function widenServer(
  target: McpTarget,
  existing: unknown,
  server: McpServerCommand,
): McpServerCommand | undefined {
  const had = argsOf(toPlain(existing));
  if (!had) return undefined;
  const old = splitServe(had);
  const add = splitServe(server.args);
  if (!isDeepStrictEqual(old.rest, add.rest)) return undefined;
  const rebuilt = mcpEntry(target, { ...server, args: had });
  if (!isDeepStrictEqual(toPlain(existing), toPlain(rebuilt))) return undefined;
  const every = (t?: string) => t === undefined || t.split(',').includes('full');
  const tools =
    every(old.tools) || every(add.tools)
      ? old.tools === undefined || add.tools === undefined
        ? undefined
        : 'full'
      : [...new Set([...old.tools!.split(','), ...add.tools!.split(',')])].join(',');
  return { ...server, args: withServe(add.rest, tools, old.dynamic || add.dynamic) };
}
