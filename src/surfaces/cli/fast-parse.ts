import { type ParseArgsConfig, parseArgs } from 'node:util';
import type { CommandEntry } from '../../ops/index.js';
import { GLOBAL_VALUE_OPTIONS } from './command-word.js';
import { type GlobalOptions, optionValue } from './option-value.js';

/** A command line parsed without commander. */
export interface FastParse {
  entry: CommandEntry;
  input: Record<string, unknown>;
  globals: GlobalOptions;
}

type ParseOptions = NonNullable<ParseArgsConfig['options']>;

const GLOBALS: ParseOptions = {
  'config-path': { type: 'string', short: 'c' },
  definition: { type: 'string' },
  appconfig: { type: 'string' },
  json: { type: 'boolean' },
};

/** Words commander owns: help and version output, negations, the end of options. */
const COMMANDER_ONLY = /^(-h|--help|-V|--version|--no-.*|--)$/;

/** The leaf command named by the words at the start of `argv` (after global options), and where its rest starts. */
function leafAt(
  entries: CommandEntry[],
  argv: string[],
): { entry: CommandEntry; start: number; rest: number } | undefined {
  let i = 0;
  while (i < argv.length && argv[i]!.startsWith('-')) {
    const a = argv[i]!;
    if (a === '--json') i++;
    else if (GLOBAL_VALUE_OPTIONS.has(a)) i += 2;
    else return undefined;
  }
  let words = '';
  let entry: CommandEntry | undefined;
  let rest = i;
  for (let j = i; j < argv.length && !argv[j]!.startsWith('-'); j++) {
    const next = words ? `${words} ${argv[j]}` : argv[j]!;
    if (!entries.some((e) => e.command === next || e.command.startsWith(`${next} `))) break;
    words = next;
    const exact = entries.find((e) => e.command === words);
    if (exact) {
      entry = exact;
      rest = j + 1;
    }
  }
  return entry && entry.command === words ? { entry, start: i, rest } : undefined;
}

/**
 * Parses a plain invocation of one command with `util.parseArgs`, so the common call never loads commander
 * (~10 ms of start-up). Anything that is not plain (help, version, a negated or repeatable option, an unknown
 * flag, a missing or surplus argument, a value outside its choices) returns undefined, and commander parses
 * it: every message and edge case stays commander's. A test holds both parsers to the same result.
 */
export function fastParse(entries: CommandEntry[], argv: string[]): FastParse | undefined {
  if (argv.some((a) => COMMANDER_ONLY.test(a))) return undefined;
  const leaf = leafAt(entries, argv);
  if (!leaf) return undefined;
  const { entry } = leaf;
  const options: ParseOptions = { ...GLOBALS };
  for (const spec of entry.options) {
    // Repeatable options take several words in commander; a --no-<flag> word bails above.
    if (spec.kind === 'list') {
      if (spec.required && !entry.stdinJson) return undefined;
      if (argv.includes(`--${spec.flag}`) || (spec.short && argv.includes(`-${spec.short}`)))
        return undefined;
      continue;
    }
    if (spec.flag in options) return undefined;
    options[spec.flag] = {
      type: spec.kind === 'boolean' ? 'boolean' : 'string',
      ...(spec.short ? { short: spec.short } : {}),
    };
  }
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: [...argv.slice(0, leaf.start), ...argv.slice(leaf.rest)],
      options,
      strict: true,
      allowPositionals: true,
    });
  } catch {
    return undefined;
  }
  const { values, positionals } = parsed;
  const variadic = entry.args[entry.args.length - 1]?.variadic === true;
  if (positionals.length > entry.args.length && !variadic) return undefined;
  const input: Record<string, unknown> = {};
  for (const [i, arg] of entry.args.entries()) {
    if (arg.variadic) {
      if (positionals.length > i) input[arg.name] = positionals.slice(i);
      else if (arg.required) return undefined;
    } else if (positionals[i] !== undefined) input[arg.name] = positionals[i];
    else if (arg.required) return undefined;
  }
  for (const spec of entry.options) {
    if (spec.kind === 'list') continue;
    const v = values[spec.flag];
    if (v === undefined) {
      if (spec.required && !entry.stdinJson) return undefined;
      continue;
    }
    if (Array.isArray(v)) return undefined;
    if (spec.choices && !spec.choices.includes(String(v))) return undefined;
    input[spec.field] = optionValue(spec, v);
  }
  const globals: GlobalOptions = {};
  if (values['config-path'] !== undefined) globals.configPath = String(values['config-path']);
  if (values.definition !== undefined) globals.definition = String(values.definition);
  if (values.appconfig !== undefined) globals.appconfig = String(values.appconfig);
  if (values.json) globals.json = true;
  return { entry, input, globals };
}
