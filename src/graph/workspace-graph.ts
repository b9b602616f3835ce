import type { Catalog, Checkouts } from '../catalog/index.js';
import { buildNodes, endpointNode, type NodeSet } from './graph-nodes.js';
import type { ExternalRepo, InferenceReport, WorkspaceEdge, WorkspaceGraph } from './graph-types.js';
import { type InferRepo, inferEdges, MAX_EVIDENCE } from './infer-edges.js';
import { SCAN_LIMITS } from './scan-limits.js';
import { type RepoScan, scanRepo } from './scan-repo.js';
import { normalizeType, staleManual } from './stale-manual.js';

export interface GraphOptions {
  includeInferred: boolean;
  includeStructure: boolean;
  /** Repositories of the organization index (empty until one is indexed). */
  external?: readonly ExternalRepo[];
  /** Called after each repository is read (progress on long scans). */
  onRepo?: (done: number, total: number) => void;
}

/** The inferred edges and what reading the repositories found, for the graph and for suggestions. */
export interface Inference {
  edges: WorkspaceEdge[];
  /** Scans of repositories read completely (nothing skipped), by node id. */
  complete: Map<string, RepoScan>;
  report: InferenceReport;
}

/**
 * Reads every workspace repository that is checked out inside the workspace (repositories outside it are not
 * read, as the catalog's checkout judge says) and infers the edges their package files prove.
 */
export function inferWorkspace(
  catalog: Catalog,
  checkouts: Checkouts,
  nodes: NodeSet,
  onRepo?: (done: number, total: number) => void,
): Inference {
  const report: InferenceReport = {
    repos_scanned: 0,
    repos_missing: 0,
    repos_outside: [],
    files_read: 0,
    skipped: [],
    skipped_count: 0,
  };
  const repos: InferRepo[] = [];
  const complete = new Map<string, RepoScan>();
  catalog.repos.forEach((r, i) => {
    onRepo?.(i, catalog.repos.length);
    const c = checkouts.of(r);
    if (c.state === 'outside') {
      report.repos_outside.push(r.id);
      return;
    }
    if (c.state === 'missing') {
      report.repos_missing++;
      return;
    }
    const extraDirs = (catalog.componentsByRepo.get(r.id) ?? []).map((x) => x.path).filter((p) => p !== '.');
    const scan = scanRepo({ dir: c.dir, url: r.url, extraDirs });
    const nodeId = `repo:${r.id}`;
    repos.push({ nodeId, project: r.project, scan });
    report.repos_scanned++;
    report.files_read += scan.files.length;
    report.skipped_count += scan.skipped.length;
    for (const s of scan.skipped)
      if (report.skipped.length < SCAN_LIMITS.maxSkipsListed) report.skipped.push({ repo: r.id, ...s });
    if (scan.skipped.length === 0) complete.set(nodeId, scan);
  });
  onRepo?.(catalog.repos.length, catalog.repos.length);
  const urlNodes = [...nodes.byUrlKey].map(([urlKey, nodeId]) => ({
    urlKey,
    nodeId,
    project: nodes.byId.get(nodeId)?.project,
  }));
  return { edges: inferEdges(repos, urlNodes), complete, report };
}

/**
 * The workspace graph: project and repository nodes; structure edges (project -> repo `contains`), manual edges
 * (`graph.relationships`, component endpoints drawn on their repository) and inferred edges (package files).
 * An inferred edge that repeats a manual one (same ends, same type) is not drawn twice: its evidence goes on the
 * manual edge. Stale manual relationships are listed beside.
 */
export function buildWorkspaceGraph(
  catalog: Catalog,
  checkouts: Checkouts,
  opts: GraphOptions,
): WorkspaceGraph {
  const nodes = buildNodes(catalog, opts.external ?? []);
  const edges: WorkspaceEdge[] = [];
  let structure = 0;
  if (opts.includeStructure) {
    for (const r of catalog.repos) {
      edges.push({
        id: `structure:${r.id}`,
        from_id: `project:${r.project}`,
        to_id: `repo:${r.id}`,
        type: 'contains',
        source: 'structure',
      });
      structure++;
    }
  }
  const relationships = catalog.file.manifest.graph?.relationships ?? [];
  const resolved = relationships.map((rel) => ({
    from: endpointNode(catalog, nodes, rel.from),
    to: endpointNode(catalog, nodes, rel.to),
  }));
  const gone = new Map<string, string>();
  for (const { from, to } of resolved)
    for (const id of [from, to]) {
      const r = id?.startsWith('repo:') ? catalog.repoById.get(id.slice(5)) : undefined;
      if (r?.path !== undefined && !gone.has(id!) && checkouts.of(r).state === 'missing')
        gone.set(id!, r.path);
    }
  const manual: WorkspaceEdge[] = [];
  relationships.forEach((rel, i) => {
    const { from, to } = resolved[i]!;
    if (!from || !to) return;
    manual.push({
      id: `manual:${rel.id}`,
      from_id: from,
      to_id: to,
      type: rel.type,
      ...(rel.label ? { label: rel.label } : {}),
      source: 'manual',
      relationship_id: rel.id,
      status: rel.status,
      provenance: rel.provenance,
      ...(rel.from.component ? { from_component: rel.from.component } : {}),
      ...(rel.to.component ? { to_component: rel.to.component } : {}),
    });
  });
  edges.push(...manual);
  let inference: Inference | undefined;
  let inferredCount = 0;
  if (opts.includeInferred) {
    inference = inferWorkspace(catalog, checkouts, nodes, opts.onRepo);
    const manualByKey = new Map<string, WorkspaceEdge>();
    for (const m of manual) {
      const key = `${m.from_id}\u0000${m.to_id}\u0000${normalizeType(m.type)}`;
      if (!manualByKey.has(key)) manualByKey.set(key, m);
    }
    for (const e of inference.edges) {
      const m = manualByKey.get(`${e.from_id}\u0000${e.to_id}\u0000${normalizeType(e.type)}`);
      if (m) {
        m.evidence = e.evidence!.slice(0, MAX_EVIDENCE);
        m.evidence_count = e.evidence_count;
        continue;
      }
      edges.push(e);
      inferredCount++;
    }
  }
  return {
    ok: true,
    nodes: nodes.nodes,
    edges,
    manual_edge_count: manual.length,
    inferred_edge_count: inferredCount,
    structure_edge_count: structure,
    stale_manual: staleManual({
      relationships,
      resolved,
      inferred: inference?.edges,
      scans: inference?.complete,
      gone,
    }),
    ...(inference ? { inference: inference.report } : {}),
  };
}
