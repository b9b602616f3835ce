import type { Catalog, CatalogComponent } from '../catalog/index.js';
import type { Evidence, WorkspaceEdge, WorkspaceGraph } from '../graph/index.js';

/** Most edges a card lists per direction (then `out_total` / `in_total`). */
export const CARD_EDGES = 8;

/** One cross-repository edge of the workspace graph, seen from one repository. */
export interface CardEdge {
  /** The other end: a repository id (`<project>/<repo>`) or an external identity (`github://org/repo`). */
  repo: string;
  type: string;
  /** `manual` (graph.relationships) or `inferred` (package files). */
  source: 'manual' | 'inferred';
  /** What the proof names (`npm @acme/sdk`), or the relationship's label. */
  label?: string;
  /** `file:line` of the first proof, in the depending repository (the edge's `from` end). */
  evidence?: string;
  /** How many file lines prove it, when more than one. */
  evidence_count?: number;
  relationship_id?: string;
  /** A relationship's status when it is not active (deprecated, proposed). */
  status?: string;
  from_component?: string;
  to_component?: string;
}

/** A repository's edges: what it depends on or calls (`out`) and what depends on or calls it (`in`). */
export interface CardEdges {
  out: CardEdge[];
  in: CardEdge[];
  /** Set when `out` was cut at CARD_EDGES: how many there are. */
  out_total?: number;
  in_total?: number;
}

const proof = (ev: Evidence | undefined) =>
  ev ? (ev.line === undefined ? ev.file : `${ev.file}:${ev.line}`) : undefined;

function cardEdge(e: WorkspaceEdge, other: string, ev: Evidence | undefined): CardEdge {
  const evidence = proof(ev ?? e.evidence?.[0]);
  return {
    repo: other,
    type: e.type,
    source: e.source === 'manual' ? 'manual' : 'inferred',
    ...(e.label ? { label: e.label } : {}),
    ...(evidence ? { evidence } : {}),
    ...((e.evidence_count ?? 0) > 1 ? { evidence_count: e.evidence_count } : {}),
    ...(e.relationship_id ? { relationship_id: e.relationship_id } : {}),
    ...(e.status && e.status !== 'active' ? { status: e.status } : {}),
    ...(e.from_component ? { from_component: e.from_component } : {}),
    ...(e.to_component ? { to_component: e.to_component } : {}),
  };
}

/** Declared edges first (a person said so), then inferred ones, each in graph order. */
const byOrigin = (a: WorkspaceEdge, b: WorkspaceEdge) =>
  Number(a.source !== 'manual') - Number(b.source !== 'manual');

function capped(list: CardEdge[], key: 'out' | 'in'): Partial<CardEdges> {
  return {
    [key]: list.slice(0, CARD_EDGES),
    ...(list.length > CARD_EDGES ? { [`${key}_total`]: list.length } : {}),
  };
}

/** The cross-repository edges of every repository of the graph, by repository id (`<project>/<repo>`). */
export class EdgeIndex {
  private readonly out = new Map<string, WorkspaceEdge[]>();
  private readonly in = new Map<string, WorkspaceEdge[]>();
  private readonly identity: Map<string, string>;

  constructor(graph: WorkspaceGraph) {
    this.identity = new Map(graph.nodes.map((n) => [n.id, n.identity]));
    const push = (m: Map<string, WorkspaceEdge[]>, id: string, e: WorkspaceEdge) => {
      if (!id.startsWith('repo:')) return;
      const list = m.get(id);
      if (list) list.push(e);
      else m.set(id, [e]);
    };
    for (const e of graph.edges) {
      if (e.source === 'structure' || e.from_id === e.to_id) continue;
      push(this.out, e.from_id, e);
      push(this.in, e.to_id, e);
    }
    for (const m of [this.out, this.in]) for (const list of m.values()) list.sort(byOrigin);
  }

  private other(id: string): string {
    return this.identity.get(id) ?? id.replace(/^repo:/, '');
  }

  /** A card's edges: every cross-repository edge of the repository, cut at CARD_EDGES per direction. */
  of(repoId: string): CardEdges {
    const id = `repo:${repoId}`;
    const out = (this.out.get(id) ?? []).map((e) => cardEdge(e, this.other(e.to_id), undefined));
    const inn = (this.in.get(id) ?? []).map((e) => cardEdge(e, this.other(e.from_id), undefined));
    return { ...capped(out, 'out'), ...capped(inn, 'in') } as CardEdges;
  }

  /**
   * A component's neighbours: the edges of its repository that concern it. A declared edge naming a component
   * at this end counts for that component only; one naming none counts for every component of the repository.
   * An inferred edge counts when a file line proving it (this end's: the requiring file going out, the
   * publishing file coming in) lies in the component's folder and in no deeper catalogued component; the first
   * such line is its evidence.
   */
  ofComponent(catalog: Catalog, c: CatalogComponent): CardEdges {
    const id = `repo:${c.project}/${c.repo}`;
    const siblings = (catalog.componentsByRepo.get(`${c.project}/${c.repo}`) ?? []).map((x) => x.path);
    const owns = (file: string) => ownerOf(siblings, file) === c.path;
    const pick = (e: WorkspaceEdge, end: 'from' | 'to'): { ok: boolean; ev?: Evidence } => {
      if (e.source === 'manual') {
        const named = end === 'from' ? e.from_component : e.to_component;
        return { ok: named === undefined || named === c.name };
      }
      const ev = e.evidence?.find((x) => owns(end === 'from' ? x.file : x.provided_by.file));
      return { ok: ev !== undefined, ev };
    };
    const collect = (list: WorkspaceEdge[], end: 'from' | 'to') =>
      list.flatMap((e) => {
        const p = pick(e, end);
        return p.ok ? [cardEdge(e, this.other(end === 'from' ? e.to_id : e.from_id), p.ev)] : [];
      });
    return {
      ...capped(collect(this.out.get(id) ?? [], 'from'), 'out'),
      ...capped(collect(this.in.get(id) ?? [], 'to'), 'in'),
    } as CardEdges;
  }
}

/** The catalogued component path a repository-relative file lies in: the deepest one (`.` holds everything). */
export function ownerOf(paths: readonly string[], file: string): string | undefined {
  let best: string | undefined;
  for (const p of paths) {
    const inside = p === '.' || file === p || file.startsWith(`${p}/`);
    if (inside && (best === undefined || best === '.' || p.length > best.length)) best = p;
  }
  return best;
}
