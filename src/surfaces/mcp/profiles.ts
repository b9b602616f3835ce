import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { UsageError } from '../../infra/index.js';
import type { AnyOperation } from '../../ops/index.js';
import { mcpOperations, toolOf } from './tools-from-registry.js';

/**
 * The tools of one agent work session, in the order it needs them: orient (begin, pack, resume), find code
 * (resolve, show, graph, search), record progress (objective upsert), coordinate (handoffs, approvals), and the
 * version check that works without a manifest. Listing, editing and admin tools stay in `full`. Names of
 * operations that do not exist yet (hub_context_pack) are skipped until they land.
 */
export const CORE_TOOLS: readonly string[] = [
  'hub_session_begin',
  'hub_context_pack',
  'hub_context_resume',
  'hub_component_resolve',
  'hub_component_show',
  'hub_component_graph',
  'hub_repo_search',
  'hub_objective_upsert',
  'hub_handoff_list',
  'hub_handoff_claim',
  'hub_handoff_complete',
  'hub_approval_request',
  'hub_version_check',
];

export const PROFILES = ['core', 'full'] as const;

export interface ToolSelection {
  /** The profile as given (`full`, `core`, or the comma list). */
  profile: string;
  ops: AnyOperation[];
}

/**
 * Picks the served operations: `full` (default), `core`, or a comma list mixing profiles and tool names
 * (`core,hub_events`; the `hub_` prefix may be left out). An unknown name is a usage error listing the known ones.
 */
export function selectTools(ops: readonly AnyOperation[], spec = 'full'): ToolSelection {
  const all = mcpOperations(ops);
  const byName = new Map(all.map((op) => [op.mcp!.tool, op]));
  const wanted = new Set<string>();
  const entries = spec
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (entries.length === 0) throw new UsageError('--tools: empty list; use core, full or tool names');
  for (const entry of entries) {
    if (entry === 'full') {
      for (const name of byName.keys()) wanted.add(name);
    } else if (entry === 'core') {
      for (const name of CORE_TOOLS) if (byName.has(name)) wanted.add(name);
    } else {
      const name = entry.startsWith('hub_') ? entry : `hub_${entry}`;
      if (!byName.has(name))
        throw new UsageError(
          `--tools: unknown tool '${entry}'; use core, full or names of: ${[...byName.keys()].join(', ')}`,
          { field: 'tools', value: entry, rule: 'known_tool' },
        );
      wanted.add(name);
    }
  }
  return { profile: entries.join(','), ops: all.filter((op) => wanted.has(op.mcp!.tool)) };
}

/** The tools/list result a client receives for these operations. */
export function toolList(ops: readonly AnyOperation[]): { tools: Tool[] } {
  return { tools: ops.map(toolOf) };
}

/** Tokens (o200k BPE, gpt-tokenizer) of the serialized tools/list result: what the list costs a model's context. */
export async function toolListTokens(ops: readonly AnyOperation[]): Promise<number> {
  // The same counter the context packs use (special-token text counted as plain text).
  const { loadTokenCounter } = await import('../../context/index.js');
  return (await loadTokenCounter()).count(JSON.stringify(toolList(ops)));
}

export interface ProfileSizes {
  profile: string;
  tools: number;
  tokens: number;
  full: { tools: number; tokens: number; names: string[] };
  core: { tools: number; tokens: number; names: string[] };
}

/** Tool counts and token sizes of the chosen profile, the full list and the core list. */
export async function profileSizes(ops: readonly AnyOperation[], spec = 'full'): Promise<ProfileSizes> {
  const chosen = selectTools(ops, spec);
  const full = selectTools(ops, 'full');
  const core = selectTools(ops, 'core');
  const names = (s: ToolSelection) => s.ops.map((op) => op.mcp!.tool);
  return {
    profile: chosen.profile,
    tools: chosen.ops.length,
    tokens: await toolListTokens(chosen.ops),
    full: { tools: full.ops.length, tokens: await toolListTokens(full.ops), names: names(full) },
    core: { tools: core.ops.length, tokens: await toolListTokens(core.ops), names: names(core) },
  };
}
