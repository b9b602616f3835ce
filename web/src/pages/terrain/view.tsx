// The 3D view: loads scene.ts (and three.js with it) on first render, feeds it the model, layers, palette and
// selection, and turns keys on the focused view into selection moves and camera moves. No WebGL: a message, and
// the repository list beside the view still selects and shows cards.
import { type KeyboardEvent, useEffect, useRef, useState } from 'react';
import type { LayerState } from './layers';
import type { TerrainModel } from './model';
import type { Palette } from './palette';
import type { SceneDebug, TerrainScene } from './scene';

export interface ViewProps {
  model: TerrainModel | null;
  layers: LayerState;
  palette: Palette;
  selected: number | null;
  /** Select a tile; `reveal` pans the camera to it. */
  onSelect(index: number | null, reveal: boolean): void;
  /** Enter on the view: move focus to the card. */
  onOpen(): void;
  onDebug(read: (() => SceneDebug) | null): void;
  label: string;
  /** A new layout re-frames the camera. */
  layout: string;
  /** After the first frame that shows a model's tiles. */
  onDrawn?(model: TerrainModel): void;
}

/**
 * Probes WebGL without a three.js renderer (which logs an error when it fails): null when there is none, else
 * whether it is a software rasteriser (SwiftShader, llvmpipe), where multisampling costs more than it shows.
 */
export function probeWebgl(): { software: boolean } | null {
  try {
    const canvas = document.createElement('canvas');
    const gl = (canvas.getContext('webgl2') ?? canvas.getContext('webgl')) as WebGLRenderingContext | null;
    if (!gl) return null;
    const info = gl.getExtension('WEBGL_debug_renderer_info');
    const name = String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER));
    gl.getExtension('WEBGL_lose_context')?.loseContext();
    return { software: /swiftshader|llvmpipe|software|softpipe/i.test(name) };
  } catch {
    return null;
  }
}

/**
 * Instanced layers on a GPU; merged buffers on software WebGL, where each instance of an instanced draw has a
 * fixed cost (layer-mesh.ts). `?draw=instanced` or `?draw=merged` in the address chooses (tests use both).
 */
function drawOptions(software: boolean): { software: boolean; drawMode: 'instanced' | 'merged' } {
  const asked = new URLSearchParams(window.location.search).get('draw');
  const drawMode = asked === 'instanced' || asked === 'merged' ? asked : software ? 'merged' : 'instanced';
  return { software, drawMode };
}

export function TerrainView({
  model,
  layers,
  palette,
  selected,
  onSelect,
  onOpen,
  onDebug,
  label,
  layout,
  onDrawn,
}: ViewProps) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const labels = useRef<HTMLDivElement>(null);
  const scene = useRef<TerrainScene | null>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'no-webgl' | 'failed'>('loading');
  const [hover, setHover] = useState<{ index: number; x: number; y: number } | null>(null);
  const latest = useRef({ model, layers, palette, selected, onSelect, onDrawn });
  latest.current = { model, layers, palette, selected, onSelect, onDrawn };
  const fitted = useRef<string | null>(null);

  useEffect(() => {
    const gl = probeWebgl();
    if (!gl) {
      setState('no-webgl');
      return;
    }
    let disposed = false;
    import('./scene')
      .then(({ TerrainScene }) => {
        if (disposed || !canvas.current || !labels.current) return;
        const l = latest.current;
        const s = new TerrainScene(
          canvas.current,
          labels.current,
          l.palette,
          l.layers,
          drawOptions(gl.software),
          {
            onPick: (i) => latest.current.onSelect(i, false),
            onHover: (i, x, y) => setHover(i === null ? null : { index: i, x, y }),
          },
        );
        scene.current = s;
        onDebug(() => s.debug());
        setState('ready');
      })
      .catch(() => setState('failed'));
    return () => {
      disposed = true;
      scene.current?.dispose();
      scene.current = null;
      onDebug(null);
    };
  }, [onDebug]);

  useEffect(() => {
    if (state !== 'ready' || !model || !scene.current) return;
    const fit = fitted.current !== layout && model.tiles.length > 0;
    scene.current.setModel(model, fit, () => latest.current.onDrawn?.(model));
    if (fit) fitted.current = layout;
  }, [model, state, layout]);
  useEffect(() => scene.current?.setLayers(layers), [layers]);
  useEffect(() => scene.current?.setPalette(palette), [palette]);
  useEffect(() => {
    if (state === 'ready') scene.current?.setSelected(selected, true);
  }, [selected, state]);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const s = scene.current;
    if (!s) return;
    const arrows: Record<string, 'up' | 'down' | 'left' | 'right'> = {
      ArrowUp: 'up',
      ArrowDown: 'down',
      ArrowLeft: 'left',
      ArrowRight: 'right',
    };
    const dir = arrows[e.key];
    let handled = true;
    if (dir && e.shiftKey)
      s.pan(dir === 'left' ? -1 : dir === 'right' ? 1 : 0, dir === 'up' ? 1 : dir === 'down' ? -1 : 0);
    else if (dir) onSelect(s.neighbour(selected, dir), true);
    else if (e.key === '+' || e.key === '=' || e.key === 'PageUp') s.zoom(0.8, selected);
    else if (e.key === '-' || e.key === '_' || e.key === 'PageDown') s.zoom(1.25, selected);
    else if (e.key === '[') s.orbit(-Math.PI / 12);
    else if (e.key === ']') s.orbit(Math.PI / 12);
    else if (e.key === 'Home' || e.key === '0') s.resetView();
    else if (e.key === 'Escape') onSelect(null, false);
    else if (e.key === 'Enter' && selected !== null) onOpen();
    else handled = false;
    if (handled) e.preventDefault();
  };

  const hovered = hover && model ? model.tiles[hover.index] : undefined;
  return (
    <div className="terrain-view" data-state={state}>
      {state === 'no-webgl' || state === 'failed' ? (
        <p className="terrain-view__fallback" role="note">
          {state === 'no-webgl'
            ? 'This browser has WebGL turned off, so the 3D terrain cannot be drawn.'
            : 'The 3D view could not be loaded.'}{' '}
          The repository list shows every repository with its state; select one to see its card.
        </p>
      ) : (
        <div
          className="terrain-view__stage"
          role="application"
          aria-label={label}
          aria-describedby="terrain-keys"
          // biome-ignore lint/a11y/noNoninteractiveTabindex: the 3D view takes arrow keys (select) and camera keys.
          tabIndex={0}
          onKeyDown={onKeyDown}
        >
          <canvas ref={canvas} className="terrain-view__canvas" />
          <div ref={labels} className="terrain-view__labels" aria-hidden="true" />
          {hovered && hover ? (
            <div className="terrain-view__tip" style={{ left: hover.x, top: hover.y }} aria-hidden="true">
              {model?.tiles[hover.index]?.id.replace(/^repo:/, '')}
            </div>
          ) : null}
        </div>
      )}
    </div>
  );
}
