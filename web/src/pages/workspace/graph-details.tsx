// Details of what is selected in a graph: a node with its edges (inferred ones with their evidence, file:line),
// or one edge; every other end is a button that selects it, so the graph can be walked from the keyboard.
import { Link } from 'wouter';
import type {
  ComponentGraph,
  ComponentGraphNode,
  EdgeSource,
  GraphEdge,
  GraphNode,
  WorkspaceGraph,
} from '../../api/workspace-page';
import { Badge } from '../../components/badge';
import { EDGE_LEGEND, evidenceText } from './graph-model';

const explorerHref = (repoId: string) => `/explorer?repo=${encodeURIComponent(repoId)}`;

function SourceBadge({ source }: { source: EdgeSource }) {
  const tone = source === 'manual' ? 'info' : source === 'inferred' ? 'warn' : 'neutral';
  return (
    <Badge tone={tone} title={EDGE_LEGEND[source].meaning}>
      {EDGE_LEGEND[source].label.toLowerCase()}
    </Badge>
  );
}

function Evidence({ edge }: { edge: GraphEdge }) {
  if (!edge.evidence?.length) return null;
  return (
    <ul className="ws-evidence" aria-label="Evidence">
      {edge.evidence.map((ev) => (
        <li key={`${ev.file}:${ev.line ?? ''}:${ev.name ?? ''}`}>
          <code>{evidenceText(ev)}</code>
        </li>
      ))}
      {(edge.evidence_count ?? 0) > edge.evidence.length && (
        <li className="muted">and {(edge.evidence_count ?? 0) - edge.evidence.length} more</li>
      )}
    </ul>
  );
}

function NodeButton({ node, onSelect }: { node: GraphNode | undefined; onSelect: (id: string) => void }) {
  if (!node) return <span className="muted">(not in the graph)</span>;
  return (
    <button type="button" className="ws-linkbtn" onClick={() => onSelect(node.id)}>
      {node.identity ?? node.label}
    </button>
  );
}

export function NodeDetails({
  node,
  graph,
  nodeById,
  hidden,
  onSelect,
}: {
  node: GraphNode;
  graph: WorkspaceGraph;
  nodeById: ReadonlyMap<string, GraphNode>;
  hidden: ReadonlySet<EdgeSource>;
  onSelect: (id: string) => void;
}) {
  const edges = graph.edges.filter((e) => e.from_id === node.id || e.to_id === node.id);
  return (
    <div>
      <h2>
        {node.label} <Badge>{node.kind}</Badge>
      </h2>
      {node.description && <p>{node.description}</p>}
      <dl className="ws-dl">
        <dt>Id</dt>
        <dd>
          <code>{node.id}</code>
        </dd>
        {node.project && (
          <>
            <dt>Project</dt>
            <dd>{node.project}</dd>
          </>
        )}
        {node.path && (
          <>
            <dt>Path</dt>
            <dd>
              <code>{node.path}</code>
            </dd>
          </>
        )}
        {node.url && (
          <>
            <dt>URL</dt>
            <dd>
              <code>{node.url}</code>
            </dd>
          </>
        )}
      </dl>
      {node.kind === 'repo' && node.identity && (
        <p>
          <Link href={explorerHref(node.identity)}>Show in the Explorer</Link>
        </p>
      )}
      <h3>Edges ({edges.length})</h3>
      {edges.length === 0 ? (
        <p className="muted">None.</p>
      ) : (
        <ul className="ws-edges">
          {edges.map((e) => {
            const out = e.from_id === node.id;
            return (
              <li key={e.id} className={hidden.has(e.source) ? 'ws-edges__hidden' : undefined}>
                <SourceBadge source={e.source} /> {out ? '→' : '←'}{' '}
                <NodeButton node={nodeById.get(out ? e.to_id : e.from_id)} onSelect={onSelect} />{' '}
                <span className="muted">{e.type}</span>
                {e.label && e.label !== e.type && <span> “{e.label}”</span>}
                {hidden.has(e.source) && <span className="muted"> (hidden)</span>}
                <Evidence edge={e} />
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}

export function EdgeDetails({
  edge,
  nodeById,
  onSelect,
}: {
  edge: GraphEdge;
  nodeById: ReadonlyMap<string, GraphNode>;
  onSelect: (id: string) => void;
}) {
  return (
    <div>
      <h2>
        {edge.type} <SourceBadge source={edge.source} />
      </h2>
      <p>
        <NodeButton node={nodeById.get(edge.from_id)} onSelect={onSelect} /> →{' '}
        <NodeButton node={nodeById.get(edge.to_id)} onSelect={onSelect} />
      </p>
      <dl className="ws-dl">
        {edge.label && (
          <>
            <dt>Label</dt>
            <dd>{edge.label}</dd>
          </>
        )}
        {edge.relationship_id && (
          <>
            <dt>Relationship</dt>
            <dd>
              <code>{edge.relationship_id}</code>
              {edge.status && ` (${edge.status})`}
            </dd>
          </>
        )}
        {(edge.from_component || edge.to_component) && (
          <>
            <dt>Components</dt>
            <dd>
              {edge.from_component ?? '-'} → {edge.to_component ?? '-'}
            </dd>
          </>
        )}
      </dl>
      {edge.evidence?.length ? <h3>Evidence</h3> : null}
      <Evidence edge={edge} />
    </div>
  );
}

export function ComponentDetails({
  node,
  graph,
  onSelect,
}: {
  node: ComponentGraphNode;
  graph: ComponentGraph;
  onSelect: (id: string) => void;
}) {
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  const edges = graph.edges.filter((e) => e.from === node.id || e.to === node.id);
  const repo = node.project && node.repo ? `${node.project}/${node.repo}` : null;
  return (
    <div>
      <h2>
        {node.component ?? node.identity} <Badge>{node.kind}</Badge>
      </h2>
      <dl className="ws-dl">
        <dt>Id</dt>
        <dd>
          <code>{node.identity}</code>
        </dd>
        {node.path && (
          <>
            <dt>Path</dt>
            <dd>
              <code>{node.path}</code>
            </dd>
          </>
        )}
        <dt>Distance</dt>
        <dd>{node.distance} hops from the origin</dd>
      </dl>
      {repo && (
        <p>
          <Link href={explorerHref(repo)}>Show {repo} in the Explorer</Link>
        </p>
      )}
      <h3>Edges ({edges.length})</h3>
      <ul className="ws-edges">
        {edges.map((e) => {
          const out = e.from === node.id;
          const other = byId.get(out ? e.to : e.from);
          return (
            <li key={`${e.from}->${e.to}:${e.type}`}>
              <Badge tone={e.origin === 'declared' ? 'info' : 'ok'}>{e.origin}</Badge> {out ? '→' : '←'}{' '}
              {other ? (
                <button type="button" className="ws-linkbtn" onClick={() => onSelect(other.id)}>
                  {other.identity}
                </button>
              ) : (
                <span className="muted">(outside)</span>
              )}{' '}
              <span className="muted">{e.type}</span>
              {e.relationship_id && <code> {e.relationship_id}</code>}
              {e.status && <span className="muted"> ({e.status})</span>}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
