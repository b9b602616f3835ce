import { readFileSync } from 'node:fs';
import type * as z from 'zod';
import { BUILD_ID } from './build-info.js';
import { loadOperationsByModule, type OperationModule } from './operation-modules.js';
import type { AnyOperation } from './registry.js';
import {
  describeField,
  isRequired,
  isStringList,
  type OptionSpec,
  optionsFromSchema,
} from './schema-options.js';

/** A positional argument of a command. */
export interface CommandArgument {
  name: string;
  required: boolean;
  description: string;
  /** The last argument takes every remaining word (a list of strings). */
  variadic?: boolean;
}

/** Everything the CLI needs to parse and explain one command without loading its operation. */
export interface CommandEntry {
  id: string;
  module: OperationModule;
  command: string;
  summary: string;
  description?: string;
  help?: string;
  args: CommandArgument[];
  options: Array<OptionSpec & { short?: string }>;
  stdinJson: boolean;
  /** The command streams until Ctrl-C (an OpStream result): run in the caller's process, never the daemon. */
  stream?: boolean;
  /** Set on an alias's entry: the operation's own command path, which this one stands for. */
  alias_of?: string;
}

/** The CLI's command table as plain JSON; the build writes it beside the bundle (dist/commands.json). */
export interface CommandIndex {
  build: string;
  commands: CommandEntry[];
}

/**
 * Renders an operation's caller-neutral text in CLI terms: an argument named in backticks (`dry_run`) becomes its
 * flag (--dry-run), a positional one its <name>, and "`x`: false" of a flag that is on by default becomes --no-x.
 * Other backticked words stay as they are.
 */
function cliTerms(positional: string[], options: OptionSpec[]): (text: string) => string {
  const names = new Map<string, string>(positional.map((name) => [name, `<${name}>`]));
  const negated = new Map<string, string>();
  for (const o of options)
    if (o.kind === 'boolean' && o.defaultValue === true) negated.set(o.field, `--no-${o.flag}`);
    else names.set(o.field, `--${o.flag}`);
  return (text) =>
    text
      .replace(/`([a-z][a-z0-9_]*)`: false\b/g, (m, name: string) => negated.get(name) ?? m)
      .replace(/`([a-z][a-z0-9_]*)`/g, (m, name: string) => names.get(name) ?? m);
}

/** Describes one operation's command; undefined when it has no CLI binding. */
export function describeCommand(op: AnyOperation, module: OperationModule): CommandEntry | undefined {
  if (!op.cli) return undefined;
  const shape = op.input.shape as Record<string, z.ZodType>;
  const positional = op.cli.args ?? [];
  const options = optionsFromSchema(shape, positional);
  const cli = cliTerms(positional, options);
  return {
    id: op.id,
    module,
    command: op.cli.command,
    summary: cli(op.summary),
    ...(op.description ? { description: cli(op.description) } : {}),
    ...(op.cli.help ? { help: op.cli.help } : {}),
    args: positional.map((name, i) => ({
      name,
      required: isRequired(shape[name]!),
      description: cli(describeField(shape[name]!)),
      ...(i === positional.length - 1 && isStringList(shape[name]!) ? { variadic: true } : {}),
    })),
    options: options.map((spec) => {
      const short = op.cli?.short?.[spec.field];
      const described = { ...spec, description: cli(spec.description) };
      return short ? { ...described, short } : described;
    }),
    stdinJson: Boolean(op.cli.stdinJson),
    ...(op.cli.stream ? { stream: true } : {}),
  };
}

/** An operation's command and then one entry per alias, each naming the command it stands for. */
export function describeCommandWithAliases(op: AnyOperation, module: OperationModule): CommandEntry[] {
  const entry = describeCommand(op, module);
  if (!entry) return [];
  const aliases = (op.cli?.aliases ?? []).map((command) => ({
    ...entry,
    command,
    alias_of: entry.command,
    help: [`Same as \`hub ${entry.command}\`: the same operation, flags and output.`, entry.help]
      .filter(Boolean)
      .join('\n'),
  }));
  return [entry, ...aliases];
}

/** The command table of the whole registry (loads every operation module). */
export async function describeCommands(): Promise<CommandIndex> {
  const commands = (await loadOperationsByModule()).flatMap(({ module, op }) =>
    describeCommandWithAliases(op, module),
  );
  return { build: BUILD_ID, commands };
}

/**
 * The command table the build wrote at the first of `files` that belongs to this very build, else described
 * afresh from the registry (correct but slow: that loads every operation module, as running from source does).
 */
export async function loadCommandTable(files: URL[]): Promise<CommandEntry[]> {
  for (const file of files) {
    let index: CommandIndex;
    try {
      index = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      continue;
    }
    if (index.build === BUILD_ID) return index.commands;
  }
  return (await describeCommands()).commands;
}
