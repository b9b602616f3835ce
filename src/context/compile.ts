import {
  type Catalog,
  componentGraph,
  componentView,
  findComponent,
  parseDepth,
  scopeMiss,
} from '../catalog/index.js';
import { NotFoundError, ValidationError } from '../infra/index.js';
import { effectiveProfile } from '../profile/index.js';
import { CARD_COMMANDS, type DetectCommands } from './card.js';
import { type EdgeIndex, ownerOf } from './card-edges.js';
import type { ExtraSection } from './pack.js';

export const COMPILE_DEFAULT_DEPTH = 0;
export const COMPILE_MAX_DEPTH = 5;

export interface CompileInput {
  project: string;
  repo: string;
  component?: string;
  depth?: number | string;
  task_id?: string;
  graph_id?: string;
}

/** What compile reads besides the catalog, for a component's commands and neighbours. */
export interface CompilePorts {
  /** Real checkout directory of the repository, when it is on disk inside the workspace. */
  dir?: string;
  /** The workspace graph's edges (inferred included); without it there is no `component_neighbors`. */
  edges?: () => EdgeIndex;
  /** The command reader (`loadDetect()`); without it there is no `component_commands`. */
  detect?: DetectCommands;
}

export interface CompiledSections {
  sections: ExtraSection[];
  depth: number;
  /** The component's id when one was named. */
  component: string | null;
}

/**
 * The sections `context compile` adds to a repository-scoped pack. With a component: `component`,
 * `component_graph` (depth default 0, capped at 5), `effective_profile`, `component_commands` (its manifest
 * commands, then the build, test and lint commands of its folder, each with its source; cut at CARD_COMMANDS,
 * then `component_commands_total`) and `component_neighbors` (its edges in the workspace graph). An unknown
 * component, or a three-segment id that disagrees with project/repo, is an error: compile never falls back to
 * the repository.
 */
export function compileSections(
  catalog: Catalog,
  input: CompileInput,
  ports: CompilePorts = {},
): CompiledSections {
  const repoId = `${input.project}/${input.repo}`;
  const repo = catalog.repoById.get(repoId);
  if (!repo) {
    const miss = scopeMiss(catalog, input.project, input.repo, {
      project: 'unknown_project',
      repo: 'unknown_repository',
    });
    throw new NotFoundError(miss.message, miss.details);
  }
  if (Boolean(input.task_id) !== Boolean(input.graph_id)) {
    throw new ValidationError('task_id and graph_id go together: pass both or neither', {
      field: input.task_id ? 'graph_id' : 'task_id',
      rule: 'together',
    });
  }
  const depth = parseDepth(input.depth, COMPILE_DEFAULT_DEPTH, COMPILE_MAX_DEPTH);
  const sections: ExtraSection[] = [{ key: 'scope', value: { project: input.project, repo: input.repo } }];
  if (input.task_id && input.graph_id)
    sections.push({ key: 'task', value: { graph_id: input.graph_id, task_id: input.task_id } });
  if (input.component === undefined) return { sections, depth, component: null };
  const c = findComponent(catalog, input.component, { project: input.project, repo: input.repo });
  const profile = effectiveProfile(catalog, { project: c.project, repo: c.repo, component: c.name });
  sections.push(
    {
      key: 'component',
      value: { ...componentView(c), directory: c.path === '.' ? repo.root : `${repo.root}/${c.path}` },
    },
    {
      key: 'component_graph',
      value: componentGraph(catalog, { component: c.id, depth }),
      droppable: true,
    },
    { key: 'effective_profile', value: profile },
  );
  if (ports.detect) {
    // Commands of the folder the component owns: not those of a deeper catalogued component, nor the root's.
    const siblings = (catalog.componentsByRepo.get(repoId) ?? []).map((x) => x.path);
    const commands = ports
      .detect({
        root: ports.dir,
        dirs: [c.path],
        manifest: c.raw.commands ? [{ path: c.path, commands: c.raw.commands }] : [],
      })
      .filter((x) => ownerOf(siblings, x.dir ?? '.') === c.path);
    sections.push({ key: 'component_commands', value: commands.slice(0, CARD_COMMANDS) });
    if (commands.length > CARD_COMMANDS)
      sections.push({ key: 'component_commands_total', value: commands.length });
  }
  if (ports.edges)
    sections.push({
      key: 'component_neighbors',
      value: ports.edges().ofComponent(catalog, c),
      droppable: true,
    });
  return { sections, depth, component: c.id };
}
