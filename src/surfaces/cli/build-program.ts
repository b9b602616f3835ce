import { Command, Option } from 'commander';
import type { CommandEntry, OptionSpec } from '../../ops/index.js';
import { commandWord } from './command-word.js';
import { optionValue } from './option-value.js';

/** Descriptions of command groups (the leaves describe themselves from the registry). */
export const GROUP_SUMMARIES: Record<string, string> = {
  component: 'Component catalog: list, show, resolve paths, graph, detect and init components.',
  config:
    'The manifest (.hub.yml): validate, show, example; Config Studio (tree, preview, patch); the graph as configuration.',
  appconfig: 'The application config (hub.config.yaml): info, validate, patch, preview (secrets redacted).',
  workspace:
    'Workspace-wide views: readiness summary, health, paged list, repositories, content grep, terrain.',
  'workspace repo': 'Repositories of the workspace.',
  session: 'Work sessions: what changed since last time, the active objective, the session boundary.',
  context:
    'Context for agents: packs, compile, switch, snapshots; objectives, handoffs, approvals, events, pause/resume.',
  'context objective': 'Objectives: what agents are working towards.',
  'context handoff': 'Handoffs between agents, claimed with a TTL.',
  'context approval': 'Approval requests that wait for a human decision.',
  state: 'The coordination state store.',
  branch: 'Branch allocations: a branch per agent and task, created in the checkout (advisory).',
  lease: 'Leases: an agent holds a task in a repository for a TTL (advisory; not handoff claims).',
  agent:
    'Agents: templates (list, preview, create for eight vendors), dispatch plans and profiles; the registry and heartbeats.',
  worktree:
    'Git worktrees per agent and task: create, list, adopt, destroy, gc (dirty work kept unless --force).',
  repo: 'Managed repositories: resolve a reference, open in the editor, materialize an indexed one.',
  import: 'Import other manifest formats.',
  claim: 'Advisory file claims: declare, check (conflicts with a witness path), list, release, heartbeat.',
  'claim guard':
    'A git pre-commit hook that warns about (or stops) commits touching paths other agents claim.',
  aos: 'The agent operating view: status, doctor and recover over every subsystem, and heartbeats.',
  semantic:
    'Concepts: which paths of a repository implement what (declare, query, owners, conflicts, ingest, seed).',
  run: 'The run ledger: open, close, list, show, replay and export agent runs (secrets masked).',
  route: 'Request classes: route an ask to a class of work by its words; add, list and show classes.',
  lane: "Lanes: promote or demote request classes' tiers from their runs' outcomes.",
  policy: 'Named policies: ordered rules that decide allow, deny or require_approval for an input.',
  merge:
    'Merge queue: enqueue, integrate in a temporary worktree (validated), retry, promote, rollup, status.',
  task: 'Task graphs: create, expand from an outline, ready, start, complete, block, cancel, requeue, bind-acl.',
  schedule: 'The scheduler: the next ready node for an agent (started for it), status, and its policy.',
  'schedule policy': 'The scheduling policy: weights, merge-queue threshold and penalty, fairness window.',
  skills: 'Bundled Agent Skills: list them, install them where a coding-agent vendor reads skills.',
  mcp: "MCP tool server for coding agents: serve it, list its tools, install its entry in a vendor's config.",
  'agent profile':
    'Agent profiles: the effective agent_profile (skills, MCP, rules, vendors, tier) of a repository.',
  prompt:
    'The prompts hub generates for agents (session start, repo hand-off, task dispatch, context switch).',
  graph:
    'The workspace graph: projects and repositories with manual, inferred (package files) and structure edges; neighbours.',
  'config graph':
    'The workspace graph as configuration: propose relationships from inferred edges, export as JSON, Mermaid or DOT.',
  'agent overlay':
    'Overlays of agent templates: the team (.hub-agents/) or personal (.hub/.agent-templates/) copy.',
  project:
    'Projects of the workspace: their repositories on disk (sync, sources, prune, CI) and derived working sets.',
  'project repo':
    "A project's repositories: CI (show, detect, set) and prune of folders the manifest no longer manages.",
  'project repo ci':
    "A repository's CI: show the recorded target, detect CI files, record one (comments kept).",
  'project source': "A project's sources[]: discover repositories and sync them into the manifest.",
  catalog: 'Edit the catalog: add projects and repos (--ensure: succeed when a matching entry exists).',
  'project derived':
    'Derived working sets: projects taking repos or single components from other projects (create, include, refresh, exclude).',
  campaign:
    'Campaigns: one change across many repositories (new, list, status, set, expand, lessons, context, board sync).',
  'campaign lesson': 'Lessons of a campaign: what one repository taught the next ones (add, list).',
  org: "Org indexes: a host's repositories observed without cloning (index, search); repo materialize clones one.",
  atlas:
    "A repository's semantic layer kept in its .atlas/ folder: init, generate (symbols and tests with tree-sitter), validate, status, refresh, query; no manifest needed.",
};

export interface LeafAction {
  entry: CommandEntry;
  input: Record<string, unknown>;
  command: Command;
}

function addOption(cmd: Command, spec: OptionSpec, short: string | undefined, fromStdin: boolean): void {
  const flags = `${short ? `-${short}, ` : ''}--${spec.flag}`;
  let opt: Option;
  if (spec.kind === 'boolean') {
    // A field that defaults to true takes both words: `--<flag>` (the field's name, as the spec and the other
    // surfaces spell it) and `--no-<flag>`. Absent, neither sets it and the schema's default applies. Its CLI help
    // says what turning it off does, so it sits on `--no-<flag>`.
    if (spec.defaultValue === true) {
      cmd.addOption(new Option(flags, `Sets ${spec.field} to true (the default; see --no-${spec.flag}).`));
      cmd.addOption(new Option(`--no-${spec.flag}`, spec.description));
      return;
    }
    opt = new Option(flags, spec.description);
  } else if (spec.kind === 'list') {
    opt = new Option(`${flags} <value...>`, `${spec.description} (repeatable)`);
  } else {
    const placeholder = spec.kind === 'number' ? '<n>' : spec.kind === 'json' ? '<json>' : '<value>';
    opt = new Option(`${flags} ${placeholder}`, spec.description);
    if (spec.choices) opt.choices(spec.choices);
  }
  // With stdin JSON a required field may arrive on stdin; the schema checks it after the merge.
  if (spec.required && !fromStdin) opt.makeOptionMandatory(true);
  cmd.addOption(opt);
}

/**
 * The commands worth building for this argv: those of the named top-level command when there is one, else all
 * (root help, unknown commands and their suggestions need every name). Building ~60 commands costs start-up.
 */
export function commandsFor(entries: CommandEntry[], argv: string[]): CommandEntry[] {
  const word = commandWord(argv);
  const chosen = word ? entries.filter((e) => e.command.split(' ', 1)[0] === word) : [];
  if (chosen.length === 0) return entries;
  // A leaf that is also a group (`graph`, above `graph neighbors`) would take the options both declare out of
  // its subcommand's command line (commander reads a parent's options anywhere): when argv names a deeper leaf,
  // the shallower one is built as a group only.
  const words = argv.slice(argv.indexOf(word!));
  const stop = words.findIndex((w) => w.startsWith('-'));
  const named = ` ${(stop < 0 ? words : words.slice(0, stop)).join(' ')} `;
  const leaf = chosen
    .filter((e) => named.startsWith(` ${e.command} `))
    .reduce<CommandEntry | undefined>(
      (a, e) => (!a || e.command.length > a.command.length ? e : a),
      undefined,
    );
  return leaf ? chosen.filter((e) => e === leaf || !leaf.command.startsWith(`${e.command} `)) : chosen;
}

function camel(flag: string): string {
  return flag.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

/**
 * Builds the whole command tree from the registry's command table (plain data, so no operation module loads
 * to parse or explain a command); `run` receives the parsed input of the chosen leaf.
 */
export function buildProgram(
  entries: CommandEntry[],
  version: string,
  run: (leaf: LeafAction) => Promise<void>,
): Command {
  const program = new Command('hub')
    .description('hub: one manifest for a workspace of many Git repositories, for people and coding agents.')
    .version(version, '-V, --version', 'Print the hub version.')
    .option('-c, --config-path <file>', 'Manifest to use (default: .hub.yml here or in a parent directory).')
    .addOption(new Option('--definition <file>', 'Same as --config-path.'))
    .option('--appconfig <file>', 'Application config file (default: hub.config.yaml lookup chain).')
    .option('--json', 'Print the result as JSON on stdout (errors as {"error": {...}}).')
    .showHelpAfterError('(run with --help for usage)')
    // Set before any subcommand exists: commander copies these settings into each new command.
    .exitOverride()
    .configureOutput({ writeOut: (s) => process.stdout.write(s), writeErr: (s) => process.stderr.write(s) })
    .addHelpText(
      'after',
      '\nEnvironment: HUB_AGENT_MODE=true never prompts; HUB_DEBUG=1 prints stack traces; NO_COLOR is honoured;\nHUB_DAEMON=off never hands a command to a running `hub daemon`.\nExit codes: 0 success, 1 error or failed check, 2 usage error.',
    );
  const groups = new Map<string, Command>([['', program]]);
  const groupFor = (path: string[]): Command => {
    const key = path.join(' ');
    const found = groups.get(key);
    if (found) return found;
    const parent = groupFor(path.slice(0, -1));
    const cmd = parent.command(path[path.length - 1]!).description(GROUP_SUMMARIES[key] ?? '');
    groups.set(key, cmd);
    return cmd;
  };
  for (const entry of entries) {
    const words = entry.command.split(' ');
    // A command may be both a leaf and a group (`version` and `version check`): reuse it either way round.
    const key = words.join(' ');
    const cmd = (
      groups.get(key) ?? groupFor(words.slice(0, -1)).command(words[words.length - 1]!)
    ).description(entry.summary);
    groups.set(key, cmd);
    if (entry.description) cmd.addHelpText('after', `\n${entry.description}`);
    if (entry.help) cmd.addHelpText('after', `\n${entry.help}`);
    for (const a of entry.args) {
      const word = `${a.name}${a.variadic ? '...' : ''}`;
      cmd.argument(a.required ? `<${word}>` : `[${word}]`, a.description);
    }
    const specs = entry.options;
    for (const spec of specs) addOption(cmd, spec, spec.short, entry.stdinJson);
    cmd.option('--json', 'Print the result as JSON.');
    cmd.action(async (...args: unknown[]) => {
      const command = args[args.length - 1] as Command;
      const opts = command.opts();
      const input: Record<string, unknown> = {};
      entry.args.forEach((a, i) => {
        // commander gives a variadic argument that got no words as [], which is the same as leaving it out.
        if (
          args[i] !== undefined &&
          !(a.variadic && Array.isArray(args[i]) && (args[i] as unknown[]).length === 0)
        )
          input[a.name] = args[i];
      });
      for (const spec of specs) {
        const v = opts[camel(spec.flag)];
        if (v !== undefined) input[spec.field] = optionValue(spec, v);
      }
      await run({ entry, input, command });
    });
  }
  return program;
}
