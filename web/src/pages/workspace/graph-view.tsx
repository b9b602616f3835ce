// Graph: the workspace graph (`GET /v3/ops/graph`) with manual, inferred and structure edges told apart by colour
// and line style, a toggle per source, and the neighbourhood of a chosen component (`GET
// /v3/ops/components/graph`). The selection, the hidden sources and the component are in the address.
import { useMemo } from 'react';
import { useSearchParams } from 'wouter';
import {
  type ComponentRow,
  type EdgeSource,
  type GraphDirection,
  useComponentGraph,
  useComponents,
  useWorkspaceGraph,
} from '../../api/workspace-page';
import { QueryState } from '../../components/query-state';
import { GraphCanvas } from './graph-canvas';
import { ComponentDetails, EdgeDetails, NodeDetails } from './graph-details';
import {
  COMPONENT_EDGE_LEGEND,
  componentElements,
  countBySource,
  EDGE_LEGEND,
  EDGE_SOURCES,
  workspaceElements,
} from './graph-model';
import type { RepoIndex } from './repo-index';

/** A short line drawn like the edges of one class, for the legend. */
function LineSample({ cls }: { cls: string }) {
  return (
    <svg className={`ws-line ws-line--${cls}`} width="36" height="10" aria-hidden="true">
      <line x1="1" y1="5" x2="35" y2="5" />
    </svg>
  );
}

function WorkspaceGraphView({ index }: { index: RepoIndex | undefined }) {
  const [params, setParams] = useSearchParams();
  const hidden = useMemo(
    () => new Set((params.get('hide') ?? '').split(',').filter(Boolean) as EdgeSource[]),
    [params],
  );
  const selected = params.get('node');
  const q = useWorkspaceGraph();
  const missing = useMemo(
    () => new Set(index?.rows.filter((r) => !r.exists).map((r) => r.id) ?? []),
    [index],
  );
  const elements = useMemo(
    () => (q.data ? workspaceElements(q.data, missing) : undefined),
    [q.data, missing],
  );
  const shown = useMemo(() => new Set(EDGE_SOURCES.filter((s) => !hidden.has(s))), [hidden]);
  const counts = useMemo(() => (q.data ? countBySource(q.data.edges, shown) : undefined), [q.data, shown]);
  const hiddenList = useMemo(() => [...hidden], [hidden]);

  const update = (fn: (p: URLSearchParams) => void) =>
    setParams(
      (p) => {
        fn(p);
        return p;
      },
      { replace: true },
    );
  const toggle = (s: EdgeSource, on: boolean) =>
    update((p) => {
      const next = new Set(hidden);
      if (on) next.delete(s);
      else next.add(s);
      if (next.size) p.set('hide', [...next].join(','));
      else p.delete('hide');
    });
  const select = (id: string | null) =>
    update((p) => {
      if (id) p.set('node', id);
      else p.delete('node');
    });

  return (
    <QueryState query={q} label="Loading the workspace graph…">
      {(graph) => {
        const nodeById = new Map(graph.nodes.map((n) => [n.id, n]));
        const edge = selected ? graph.edges.find((e) => e.id === selected) : undefined;
        const node = selected ? nodeById.get(selected) : undefined;
        return (
          <div className="ws-graph">
            <fieldset className="ws-graph__filters">
              <legend>Edges</legend>
              {EDGE_SOURCES.map((s) => (
                <label key={s} className="ws-check" title={EDGE_LEGEND[s].meaning}>
                  <input
                    type="checkbox"
                    checked={!hidden.has(s)}
                    onChange={(e) => toggle(s, e.target.checked)}
                  />
                  <LineSample cls={s} /> {EDGE_LEGEND[s].label}{' '}
                  <span className="muted">
                    ({counts?.[s].total ?? 0}, {EDGE_LEGEND[s].line})
                  </span>
                </label>
              ))}
              <label className="ws-graph__pick">
                Node{' '}
                <select value={node ? node.id : ''} onChange={(e) => select(e.target.value || null)}>
                  <option value="">(none)</option>
                  {graph.nodes.map((n) => (
                    <option key={n.id} value={n.id}>
                      {n.kind === 'project' ? `project ${n.label}` : (n.identity ?? n.label)}
                    </option>
                  ))}
                </select>
              </label>
            </fieldset>
            <p className="muted ws-graph__summary" aria-live="polite">
              {graph.nodes.length} nodes; showing{' '}
              {EDGE_SOURCES.map(
                (s) => `${counts?.[s].shown ?? 0} ${EDGE_LEGEND[s].label.toLowerCase()}`,
              ).join(', ')}{' '}
              edges. Hollow dashed nodes are not on disk.
            </p>
            <div className="ws-split">
              <div className="ws-split__main">
                {elements && (
                  <GraphCanvas
                    elements={elements}
                    layout="auto"
                    hidden={hiddenList}
                    selected={selected}
                    onSelect={select}
                    label={`Workspace graph: ${graph.nodes.length} nodes, ${graph.edges.length} edges`}
                  />
                )}
              </div>
              <aside className="ws-details" aria-label="Graph details">
                {node ? (
                  <NodeDetails
                    node={node}
                    graph={graph}
                    nodeById={nodeById}
                    hidden={hidden}
                    onSelect={select}
                  />
                ) : edge ? (
                  <EdgeDetails edge={edge} nodeById={nodeById} onSelect={select} />
                ) : (
                  <p className="muted">Click a node or an edge (or pick a node above) to see its details.</p>
                )}
              </aside>
            </div>
          </div>
        );
      }}
    </QueryState>
  );
}

/**
 * The component with the most `depends_on` links either way (the first in catalogue order on a tie), so the view
 * opens on a graph with edges; '' when the workspace catalogues none.
 */
function defaultComponent(rows: readonly ComponentRow[]): string {
  const degree = new Map<string, number>();
  const bump = (id: string) => degree.set(id, (degree.get(id) ?? 0) + 1);
  for (const c of rows)
    for (const name of c.depends_on ?? []) {
      bump(c.id);
      bump(`${c.project}/${c.repo}/${name}`);
    }
  let best = rows[0]?.id ?? '';
  for (const c of rows) if ((degree.get(c.id) ?? 0) > (degree.get(best) ?? 0)) best = c.id;
  return best;
}

function ComponentGraphView() {
  const [params, setParams] = useSearchParams();
  const list = useComponents();
  // Until one is chosen, a component with relationships of its own is drawn, so the view never opens empty.
  const component = params.get('component') || defaultComponent(list.data?.components ?? []);
  const depth = Math.min(5, Math.max(1, Number(params.get('depth') ?? 1) || 1));
  const direction = (
    ['both', 'out', 'in'].includes(params.get('dir') ?? '') ? params.get('dir') : 'both'
  ) as GraphDirection;
  const selected = params.get('node');
  const q = useComponentGraph(component, depth, direction);
  const elements = useMemo(() => (q.data ? componentElements(q.data) : undefined), [q.data]);
  const set = (key: string, value: string | null) =>
    setParams(
      (p) => {
        if (value) p.set(key, value);
        else p.delete(key);
        if (key === 'component') p.delete('node');
        return p;
      },
      { replace: true },
    );
  return (
    <div className="ws-graph">
      <fieldset className="ws-graph__filters">
        <legend>Component</legend>
        <label>
          Component{' '}
          <select value={component} onChange={(e) => set('component', e.target.value || null)}>
            {component === '' && <option value="">(none)</option>}
            {list.data?.components.map((c) => (
              <option key={c.id} value={c.id}>
                {c.id}
              </option>
            ))}
          </select>
        </label>
        <label>
          Depth{' '}
          <select value={depth} onChange={(e) => set('depth', e.target.value)}>
            {[1, 2, 3, 4, 5].map((d) => (
              <option key={d}>{d}</option>
            ))}
          </select>
        </label>
        <label>
          Direction{' '}
          <select value={direction} onChange={(e) => set('dir', e.target.value)}>
            <option value="both">both</option>
            <option value="out">out (what it uses)</option>
            <option value="in">in (what uses it)</option>
          </select>
        </label>
        {(Object.keys(COMPONENT_EDGE_LEGEND) as Array<keyof typeof COMPONENT_EDGE_LEGEND>).map((k) => (
          <span key={k} className="ws-check" title={COMPONENT_EDGE_LEGEND[k].meaning}>
            <LineSample cls={k === 'declared' ? 'declared' : 'depends-on'} /> {COMPONENT_EDGE_LEGEND[k].label}{' '}
            <span className="muted">({COMPONENT_EDGE_LEGEND[k].line})</span>
          </span>
        ))}
      </fieldset>
      {list.data && list.data.components.length === 0 && (
        <p className="muted">This workspace catalogues no component (`hub component detect` finds some).</p>
      )}
      {component ? (
        <QueryState query={q} label="Loading the component graph…">
          {(graph) => {
            const node = selected ? graph.nodes.find((n) => n.id === selected) : undefined;
            return (
              <div className="ws-split">
                <div className="ws-split__main">
                  {elements && (
                    <GraphCanvas
                      elements={elements}
                      layout="tree"
                      hidden={[]}
                      selected={selected}
                      onSelect={(id) => set('node', id)}
                      label={`Component graph of ${graph.origin}: ${graph.nodes.length} nodes`}
                    />
                  )}
                </div>
                <aside className="ws-details" aria-label="Graph details">
                  {node ? (
                    <ComponentDetails node={node} graph={graph} onSelect={(id) => set('node', id)} />
                  ) : (
                    <p className="muted">
                      {graph.nodes.length} nodes within {graph.depth} hops ({graph.direction}). Click a node
                      for its details.
                    </p>
                  )}
                </aside>
              </div>
            );
          }}
        </QueryState>
      ) : null}
    </div>
  );
}

export default function GraphView({ index }: { index: RepoIndex | undefined }) {
  const [params, setParams] = useSearchParams();
  const mode = params.get('mode') === 'components' ? 'components' : 'workspace';
  return (
    <div>
      <fieldset className="ws-graph__mode">
        <legend className="ws-visually-hidden">Graph</legend>
        {(['workspace', 'components'] as const).map((m) => (
          <label key={m} className="ws-radio">
            <input
              type="radio"
              name="ws-graph-mode"
              checked={mode === m}
              onChange={() => setParams(m === 'components' ? { mode: m } : {}, { replace: true })}
            />{' '}
            {m === 'workspace' ? 'Workspace graph' : 'Component graph'}
          </label>
        ))}
      </fieldset>
      {mode === 'workspace' ? <WorkspaceGraphView index={index} /> : <ComponentGraphView />}
    </div>
  );
}
