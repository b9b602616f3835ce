import { join } from 'node:path';
import { type Listing, listFolder } from '../ci/index.js';
import type { InstalledAgentDir, TerrainAgent } from './types.js';

/** Where a coding-agent vendor keeps a repository's agents or skills (the agents room's VENDORS, passed in). */
export interface AgentDir {
  vendor: string;
  /** Repository-relative folder, e.g. `.claude/agents`. */
  dir: string;
  kind: 'agent' | 'skill';
  /** Agent-file suffix (`.md`, `.agent.md`). */
  suffix?: string;
}

/** What the manifest says about a repository's agent instructions (no file is read). */
export interface ManifestAgentFacts {
  has_agent_instructions: boolean;
  has_agent_profile: boolean;
}

/** The agent fields `manifest` detail can give: the manifest's, the checkout's unknown. */
export function manifestAgent(facts: ManifestAgentFacts): TerrainAgent {
  return {
    ...facts,
    has_agents_md: null,
    has_claude_md: null,
    has_llms_txt: null,
    has_copilot_instructions: null,
    has_readme: null,
    has_docs: null,
    installed_agents: null,
    documentation_score: null,
    readiness: null,
  };
}

const README = /^readme(\.[a-z0-9]+)?$/i;

/** Looks up a child folder's listing through real folders only (never a symbolic link). */
function sub(root: string, top: Listing, rel: string): Listing | undefined {
  let cur: Listing | undefined = top;
  let at = root;
  for (const seg of rel.split('/')) {
    if (cur?.get(seg) !== 'dir') return undefined;
    at = join(at, seg);
    cur = listFolder(at);
  }
  return cur;
}

/**
 * Agent readiness of a checkout from its root listing (and the few vendor folders present): instruction files,
 * docs, installed agents per vendor. Never reads a file's contents.
 */
export function checkoutAgent(
  root: string,
  top: Listing,
  facts: ManifestAgentFacts,
  agentDirs: readonly AgentDir[],
): TerrainAgent {
  const names = [...top.keys()];
  const file = (n: string) => top.get(n) === 'file';
  const has_agents_md = file('AGENTS.md');
  const has_claude_md = file('CLAUDE.md');
  const has_llms_txt = file('llms.txt');
  const has_readme = names.some((n) => README.test(n) && top.get(n) === 'file');
  const has_docs = top.get('docs') === 'dir';
  const github = top.get('.github') === 'dir' ? listFolder(join(root, '.github')) : undefined;
  const has_copilot_instructions = github?.get('copilot-instructions.md') === 'file';
  const installed: InstalledAgentDir[] = [];
  for (const a of agentDirs) {
    const l = sub(root, top, a.dir);
    if (!l) continue;
    const count = [...l].filter(([n, k]) =>
      a.kind === 'skill' ? k === 'dir' : k === 'file' && n.endsWith(a.suffix ?? '.md'),
    ).length;
    if (count > 0) installed.push({ vendor: a.vendor, path: a.dir, count });
  }
  const score = Math.min(
    1,
    (has_agents_md ? 0.5 : 0) + (has_llms_txt ? 0.25 : 0) + (has_readme ? 0.15 : 0) + (has_docs ? 0.1 : 0),
  );
  const instructions =
    has_agents_md || has_claude_md || has_copilot_instructions || facts.has_agent_instructions;
  return {
    ...facts,
    has_agents_md,
    has_claude_md,
    has_llms_txt,
    has_copilot_instructions,
    has_readme,
    has_docs,
    installed_agents: installed,
    documentation_score: Math.round(score * 100) / 100,
    readiness: instructions ? 'ready' : has_readme || has_docs || has_llms_txt ? 'partial' : 'none',
  };
}
