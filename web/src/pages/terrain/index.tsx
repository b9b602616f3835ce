// Repository Terrain: every repository as a tile of a 3D landscape with the spec's ten layers, each a checkbox.
// Rows come from /v3/ops/terrain, detail=manifest first (tiles at once), then detail=enriched (layers fill in).
// A read-only `window.__hubTerrain` tells tests and benches what is drawn (tiles, draw calls per layer).
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTerrain } from '../../api/terrain';
import { ErrorBanner } from '../../components/error-banner';
import { Loading } from '../../components/loading';
import { TerrainCard } from './card';
import { LayerPanel } from './layer-panel';
import { ALL_LAYERS_ON, type LayerState } from './layers';
import type { LayoutMode } from './layout';
import { buildModel, type TerrainModel } from './model';
import { RepoList } from './repo-list';
import type { SceneDebug } from './scene';
import { usePalette } from './use-palette';
import { TerrainView } from './view';
import './terrain.css';

export default function TerrainPage() {
  const terrain = useTerrain();
  const { data } = terrain;
  const [layers, setLayers] = useState<LayerState>(ALL_LAYERS_ON);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [layout, setLayout] = useState<LayoutMode>('server');
  const stage = useRef<HTMLDivElement>(null);
  const cardHeading = useRef<HTMLHeadingElement>(null);
  const palette = usePalette(stage);
  const debugRead = useRef<(() => SceneDebug) | null>(null);
  // performance.now() of the first frame with tiles (the first manifest page), with every repository's tile, and
  // with every enriched row.
  const marks = useRef<{ firstTiles: number | null; allTiles: number | null; enriched: number | null }>({
    firstTiles: null,
    allTiles: null,
    enriched: null,
  });
  const total = useRef(0);
  total.current = data?.total ?? 0;
  const onDrawn = useCallback((m: TerrainModel) => {
    if (m.tiles.length === 0) return;
    marks.current.firstTiles ??= performance.now();
    if (m.tiles.length >= total.current) marks.current.allTiles ??= performance.now();
    if (m.detail === 'enriched') marks.current.enriched ??= performance.now();
  }, []);

  const model = useMemo(
    () =>
      data ? buildModel(data.nodes, data.dependencies, data.regions, palette, layout, data.detail) : null,
    [data, palette, layout],
  );
  const selected = selectedId !== null && model ? (model.index.get(selectedId) ?? null) : null;
  const node = selected !== null ? data?.nodes[selected] : undefined;

  const select = useCallback(
    (index: number | null) => setSelectedId(index === null ? null : (data?.nodes[index]?.id ?? null)),
    [data],
  );
  const onDebug = useCallback((read: (() => SceneDebug) | null) => {
    debugRead.current = read;
  }, []);

  // The read-only debug hook: a fresh frozen snapshot on each read.
  const snapshot = useRef({
    detail: data?.detail ?? null,
    total: 0,
    enriched: 0,
    selected: selectedId,
    layout,
    index: model?.index,
  });
  snapshot.current = {
    detail: data?.detail ?? null,
    total: data?.total ?? 0,
    enriched: data?.enriched ?? 0,
    selected: selectedId,
    layout,
    index: model?.index,
  };
  useEffect(() => {
    Object.defineProperty(window, '__hubTerrain', {
      configurable: true,
      get: () => {
        const scene = debugRead.current?.() ?? null;
        const { index, ...rest } = snapshot.current;
        return Object.freeze({
          ...rest,
          marks: { ...marks.current },
          webgl: scene !== null,
          ...(scene ?? {}),
          /** Client coordinates of a repository's tile (`repo:<project>/<repo>`), for a test to click. */
          locate: (id: string) => {
            const i = index?.get(id);
            return i === undefined || !scene ? null : scene.locate(i);
          },
        });
      },
    });
    return () => {
      delete (window as { __hubTerrain?: unknown }).__hubTerrain;
    };
  }, []);

  const status = !data
    ? ''
    : data.detail === 'enriched'
      ? `${data.total} repositories, git state read · ${data.dependencies.length} dependency arcs`
      : terrain.enriched.isError
        ? `${data.total} repositories from the manifest · git state could not be read`
        : `${data.total} repositories from the manifest · reading git state ${data.enriched}/${data.total}…`;

  return (
    <section className="terrain">
      <div className="terrain__title">
        <h1>Terrain</h1>
        <p className="terrain__status muted" role="status" data-detail={data?.detail ?? 'none'}>
          {status}
        </p>
      </div>
      {terrain.manifest.isPending ? <Loading label="Loading the terrain…" /> : null}
      {terrain.error ? (
        <ErrorBanner
          error={terrain.error}
          onRetry={() =>
            void (terrain.manifest.isError ? terrain.manifest.refetch() : terrain.enriched.refetch())
          }
        />
      ) : null}
      <div className="terrain__body">
        <div className="terrain__side">
          <LayerPanel layers={layers} onChange={setLayers} palette={palette} />
          <label className="terrain__layout">
            <span>Layout</span>
            <select value={layout} onChange={(e) => setLayout(e.target.value as LayoutMode)}>
              <option value="server">Folders (the server's layout)</option>
              <option value="blocks">Project blocks</option>
            </select>
          </label>
          {data ? <RepoList nodes={data.nodes} selected={selected} onSelect={select} /> : null}
        </div>
        <div className="terrain__stage" ref={stage}>
          <TerrainView
            model={model}
            layers={layers}
            palette={palette}
            selected={selected}
            onSelect={select}
            onOpen={() => cardHeading.current?.focus()}
            onDebug={onDebug}
            label={`Terrain of ${data?.total ?? 0} repositories`}
            layout={layout}
            onDrawn={onDrawn}
          />
          {node && data ? (
            <TerrainCard
              ref={cardHeading}
              node={node}
              deps={data.dependencies}
              detail={data.detail}
              onSelect={(id) => setSelectedId(id)}
              onClose={() => setSelectedId(null)}
            />
          ) : null}
          <p id="terrain-keys" className="terrain__keys muted">
            Drag to orbit, right-drag to pan, wheel to zoom. Focused view: arrows select the next tile,
            Shift+arrows pan, + and − zoom, [ and ] turn, Home resets, Enter opens the card, Escape clears.
          </p>
        </div>
      </div>
    </section>
  );
}
