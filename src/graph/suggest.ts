import type { Document } from 'yaml';
import { writeFileAtomicSync } from '../infra/index.js';
import { ensureSeq, type ManifestFile, planManifestEdit, type Relationship, yaml } from '../model/index.js';
import type { Evidence, WorkspaceGraph } from './graph-types.js';

/** A relationship inference proposes, as it would be written into `graph.relationships`. */
export interface ProposedRelationship {
  id: string;
  from: { project: string; repo: string };
  to: { project: string; repo: string };
  type: string;
  status: 'proposed';
  provenance: 'promoted';
  description: string;
}

export interface Suggestion {
  relationship: ProposedRelationship;
  evidence: Evidence[];
  evidence_count: number;
}

/** A problem that kept `--apply` from writing (the patched document's validation errors). */
export interface ValidationProblem {
  path: string;
  line?: number;
  rule: string;
  message: string;
}

const endpointOf = (id: string): { project: string; repo: string } | undefined => {
  // Only `repo:<project>/<repo>` nodes can be written as endpoints; indexed ones (`repo:<provider>://...`) not.
  const m = /^repo:([^/:]+)\/([^/]+)$/.exec(id);
  return m ? { project: m[1]!, repo: m[2]! } : undefined;
};

const where = (e: Evidence) => `${e.file}${e.line !== undefined ? `:${e.line}` : ''}`;

/**
 * Inferred edges no relationship declares yet (a relationship between the same two repositories, whatever its
 * type or status, declares the pair: a deprecated one is a decision not to draw it), as relationships with
 * status `proposed` and provenance `promoted`. Ids read `<from>-<type>-<to>` and stay unique in the manifest.
 */
export function suggestRelationships(
  graph: WorkspaceGraph,
  existing: readonly Relationship[],
): { suggestions: Suggestion[]; declared: number } {
  const declaredPairs = new Set(
    graph.edges.filter((e) => e.source === 'manual').map((e) => `${e.from_id}\u0000${e.to_id}`),
  );
  const ids = new Set(existing.map((r) => r.id));
  const suggestions: Suggestion[] = [];
  // A manual edge inference confirms (same ends and type) carries the inferred edge's evidence.
  let declared = graph.edges.filter((e) => e.source === 'manual' && e.evidence !== undefined).length;
  for (const e of graph.edges) {
    if (e.source !== 'inferred') continue;
    if (declaredPairs.has(`${e.from_id}\u0000${e.to_id}`)) {
      declared++;
      continue;
    }
    const from = endpointOf(e.from_id);
    const to = endpointOf(e.to_id);
    if (!from || !to) continue;
    const type = e.type;
    const slug = type.replace(/_/g, '-');
    let id = `${from.repo}-${slug}-${to.repo}`;
    if (ids.has(id)) id = `${from.project}-${from.repo}-${slug}-${to.project}-${to.repo}`;
    for (let n = 2; ids.has(id); n++)
      id = `${from.project}-${from.repo}-${slug}-${to.project}-${to.repo}-${n}`;
    ids.add(id);
    const first = e.evidence![0]!;
    suggestions.push({
      relationship: {
        id,
        from,
        to,
        type,
        status: 'proposed',
        provenance: 'promoted',
        description: `inferred: ${where(first)} names ${first.ecosystem} ${first.name}`,
      },
      evidence: e.evidence!,
      evidence_count: e.evidence_count ?? e.evidence!.length,
    });
  }
  return { suggestions, declared };
}

/**
 * Appends the proposed relationships to `graph.relationships` (comments and formatting kept: only new lines),
 * after checking the patched document with `check` (the rules of `config validate`). When the patched document
 * has any problem nothing is written and the problems are returned.
 */
export function applySuggestions(
  file: ManifestFile,
  proposed: readonly ProposedRelationship[],
  check: (patched: ManifestFile) => ValidationProblem[],
): { written: string[]; validation_errors: ValidationProblem[] } {
  if (proposed.length === 0) return { written: [], validation_errors: [] };
  let plan: ReturnType<typeof planManifestEdit>;
  try {
    plan = planManifestEdit(file.path, (doc) => appendRelationships(doc, proposed), file.maxBytes);
  } catch (err) {
    const issues = (err as { details?: { issues?: ValidationProblem[] } }).details?.issues;
    if (!issues) throw err;
    return { written: [], validation_errors: issues };
  }
  const problems = check(plan.file);
  if (problems.length > 0) return { written: [], validation_errors: problems };
  if (plan.text !== plan.before) writeFileAtomicSync(file.path, plan.text);
  return { written: proposed.map((p) => p.id), validation_errors: [] };
}

/** New items follow the list's style: endpoints written `{ project: a, repo: b }` when the last item's are. */
function appendRelationships(doc: Document.Parsed, proposed: readonly ProposedRelationship[]): void {
  const seq = ensureSeq(doc, ['graph', 'relationships']) as unknown as {
    items: unknown[];
    add(v: unknown): void;
  };
  const last = seq.items[seq.items.length - 1];
  const lastFrom = yaml().isMap(last) ? last.get('from', true) : undefined;
  const flowEnds = yaml().isMap(lastFrom) && Boolean(lastFrom.flow);
  for (const p of proposed) {
    const item = doc.createNode({ ...p }) as unknown as { set(k: string, v: unknown): void };
    item.set('from', doc.createNode(p.from, { flow: flowEnds }));
    item.set('to', doc.createNode(p.to, { flow: flowEnds }));
    seq.add(item);
  }
}
