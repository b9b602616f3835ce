import { type Declared, matchKey } from './declarations.js';
import type { Evidence, WorkspaceEdge } from './graph-types.js';
import type { RepoScan } from './scan-repo.js';

/** Evidence kept per edge (all are counted). */
export const MAX_EVIDENCE = 20;
const LABEL_MAX = 48;

/** A repository node and, when it was read, what its package files declare. */
export interface InferRepo {
  nodeId: string;
  project?: string;
  scan?: RepoScan;
}

/** A node whose clone URL is known (submodules match on it). */
export interface UrlNode {
  nodeId: string;
  project?: string;
  urlKey: string;
}

interface Provider {
  nodeId: string;
  project?: string;
  decl: { file: string; line?: number };
}

/** Inferred edge type per ecosystem: a package dependency, or a submodule. */
export const inferredType = (d: Declared) => (d.ecosystem === 'git' ? 'submodule' : 'depends_on');

/**
 * Edges from what repositories declare: a requirement that names what another node publishes (same ecosystem,
 * same name as that ecosystem compares names) is an edge from the requiring repository to the publishing one.
 * A name several repositories publish goes to those in the requiring repository's project, else to all of them.
 * A repository depending on itself (a monorepo's members) is no edge. One edge per (from, to, type); its
 * evidence lists each file line that proves it.
 */
export function inferEdges(repos: InferRepo[], urlNodes: UrlNode[]): WorkspaceEdge[] {
  const published = new Map<string, Provider[]>();
  const publish = (key: string, p: Provider) => {
    const list = published.get(key);
    if (!list) published.set(key, [p]);
    else if (!list.some((q) => q.nodeId === p.nodeId)) list.push(p);
  };
  for (const r of repos)
    for (const d of r.scan?.provides ?? [])
      publish(matchKey(d.ecosystem, d.name), { nodeId: r.nodeId, project: r.project, decl: d });
  for (const u of urlNodes)
    publish(matchKey('git', u.urlKey), { nodeId: u.nodeId, project: u.project, decl: { file: '.hub.yml' } });

  const edges = new Map<string, WorkspaceEdge>();
  for (const r of repos) {
    for (const req of r.scan?.requires ?? []) {
      const all = published.get(matchKey(req.ecosystem, req.name));
      if (!all) continue;
      const others = all.filter((p) => p.nodeId !== r.nodeId);
      if (others.length === 0) continue;
      const near = others.filter((p) => p.project !== undefined && p.project === r.project);
      const targets = near.length > 0 ? near : others;
      for (const t of targets) {
        const type = inferredType(req);
        const key = `${r.nodeId}\u0000${t.nodeId}\u0000${type}`;
        const ev: Evidence = {
          ecosystem: req.ecosystem,
          name: req.name,
          file: req.file,
          ...(req.line !== undefined ? { line: req.line } : {}),
          ...(req.scope ? { scope: req.scope } : {}),
          provided_by: { file: t.decl.file, ...(t.decl.line !== undefined ? { line: t.decl.line } : {}) },
          ...(targets.length > 1 ? { candidates: targets.length } : {}),
        };
        let edge = edges.get(key);
        if (!edge) {
          edge = {
            id: `inferred:${r.nodeId}->${t.nodeId}:${type}`,
            from_id: r.nodeId,
            to_id: t.nodeId,
            type,
            label: labelOf(ev),
            source: 'inferred',
            evidence: [],
            evidence_count: 0,
          };
          edges.set(key, edge);
        }
        edge.evidence_count = (edge.evidence_count ?? 0) + 1;
        if (edge.evidence!.length < MAX_EVIDENCE) edge.evidence!.push(ev);
      }
    }
  }
  return [...edges.values()];
}

function labelOf(ev: Evidence): string {
  const text = ev.ecosystem === 'git' ? (ev.scope ?? 'submodule') : `${ev.ecosystem} ${ev.name}`;
  return text.length > LABEL_MAX ? `${text.slice(0, LABEL_MAX - 1)}…` : text;
}
