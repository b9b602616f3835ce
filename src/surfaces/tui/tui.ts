import { errorMapping } from '../../infra/index.js';
import { humanError } from '../cli/output.js';
import { chooseRepo, fuzzyRank, openRepo, pageSize } from './nav.js';
import type { OpRunner } from './op-runner.js';
import { ask, PromptCancelled, type Prompts } from './prompts.js';
import { listRepoRows, projectsOf } from './repo-rows.js';
import { runWizard } from './wizard.js';

type Say = (line: string) => void;

/** One menu item: its label and what it runs (registry operations, in this process). */
interface Item {
  section: string;
  label: string;
  run: (p: Prompts, ops: OpRunner, say: Say) => Promise<void>;
}

/** Runs one operation and prints what its command prints. */
async function show(ops: OpRunner, say: Say, id: string, input: Record<string, unknown> = {}): Promise<void> {
  const r = await ops.run(id, input);
  say(r.text);
}

async function pickProject(p: Prompts, ops: OpRunner): Promise<string> {
  const names = [...projectsOf(await listRepoRows(ops)).keys()];
  if (names.length === 1) return names[0]!;
  return await ask((ctx) =>
    p.search(
      {
        message: 'Project',
        pageSize: pageSize(process.stdout.rows),
        source: (term) => fuzzyRank(p, term, names, [(n) => n]).map((n) => ({ value: n, name: n })),
      },
      ctx,
    ),
  );
}

const query = (p: Prompts, message: string) =>
  ask((ctx) => p.input({ message, validate: (v) => v.trim() !== '' || 'type something to look for' }, ctx));

/** The menu: the sections and items of the earlier product's hub, each over a registry operation. */
export const MENU: Item[] = [
  {
    section: 'Workspace',
    label: 'List the catalog',
    run: (_p, ops, say) => show(ops, say, 'workspace.list'),
  },
  {
    section: 'Workspace',
    label: 'Sync a project (clone or update its repositories)',
    run: async (p, ops, say) => show(ops, say, 'project.sync', { project: await pickProject(p, ops) }),
  },
  {
    section: 'Workspace',
    label: 'Open a repository (project, then repository)',
    run: async (p, ops, say) => {
      const project = await pickProject(p, ops);
      const row = await chooseRepo(p, await listRepoRows(ops, { project }), project);
      await openRepo(ops, row, process.env, say);
    },
  },
  {
    section: 'Workspace',
    label: 'Search file contents (workspace grep)',
    run: async (p, ops, say) => show(ops, say, 'workspace.grep', { query: await query(p, 'Text to find') }),
  },
  {
    section: 'Configuration',
    label: 'Validate the manifest',
    run: (_p, ops, say) => show(ops, say, 'config.validate'),
  },
  {
    section: 'Configuration',
    label: 'Show the application config',
    run: (_p, ops, say) => show(ops, say, 'appconfig.info'),
  },
  {
    section: 'Configuration',
    label: 'Validate the application config',
    run: (_p, ops, say) => show(ops, say, 'appconfig.validate'),
  },
  {
    section: 'Configuration',
    label: 'Config wizard (hub.config.yaml)',
    run: async (p, ops, say) => {
      await runWizard(p, ops, say);
    },
  },
  {
    section: 'Tools',
    label: 'Search the catalog (names, descriptions, tags)',
    run: async (p, ops, say) => show(ops, say, 'search', { query: await query(p, 'Words to look for') }),
  },
  {
    section: 'Tools',
    label: 'Check for a newer version',
    run: (_p, ops, say) => show(ops, say, 'version.check'),
  },
];

/**
 * `hub tui`: the menu until Quit (or Esc on the menu). An item's failure prints as the CLI prints it and the menu
 * comes back; Esc inside an item goes back to the menu; Ctrl-C quits (exit 130). Returns the exit code.
 */
export async function runTui(p: Prompts, ops: OpRunner, say: Say): Promise<number> {
  const { Separator } = await import('@inquirer/select');
  const choices: Array<InstanceType<typeof Separator> | { value: number; name: string }> = [];
  let section = '';
  for (const [i, item] of MENU.entries()) {
    if (item.section !== section) {
      section = item.section;
      choices.push(new Separator(`-- ${section} --`));
    }
    choices.push({ value: i, name: item.label });
  }
  choices.push(new Separator(' '), { value: -1, name: 'Quit' });
  let last = 0;
  for (;;) {
    let chosen: number;
    try {
      chosen = await ask((ctx) =>
        p.select({ message: 'hub', choices, default: last, pageSize: choices.length, loop: false }, ctx),
      );
    } catch (err) {
      if (err instanceof PromptCancelled && err.key === 'escape') return 0;
      throw err;
    }
    if (chosen < 0) return 0;
    last = chosen;
    try {
      await MENU[chosen]!.run(p, ops, say);
    } catch (err) {
      if (err instanceof PromptCancelled) {
        if (err.key === 'interrupt') throw err;
        continue;
      }
      const m = errorMapping(err);
      for (const line of humanError(m.body.error.message, m.body.error.details)) say(line);
    }
  }
}
