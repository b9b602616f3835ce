// The 3D terrain: one mesh per layer (layer-placement.ts), each one draw call and no object per tile, instanced
// on a GPU and merged into one buffer on software WebGL (layer-mesh.ts); the arcs one line set. Renders on
// demand (camera moves, data, layers), continuously only while the activity pulse animates, through a time
// uniform. Loaded lazily with three.js by view.tsx.
import {
  AdditiveBlending,
  BufferAttribute,
  BufferGeometry,
  Color,
  EdgesGeometry,
  LineBasicMaterial,
  LineSegments,
  type Material,
  Matrix4,
  MeshBasicMaterial,
  NormalBlending,
  type Object3D,
  Quaternion,
  Raycaster,
  Scene,
  Vector2,
  Vector3,
  WebGLRenderer,
} from 'three';
import { BEARING, CameraRig } from './camera-rig';
import * as shapes from './geometries';
import { ProjectLabels } from './labels';
import { createLayerMesh, type DrawMode, type LayerMesh } from './layer-mesh';
import { createTileLayers, placeTiles, type TileLayers } from './layer-placement';
import { LAYER_IDS, type LayerId, type LayerState } from './layers';
import { BASE, type TerrainModel, TILE } from './model';
import type { Palette } from './palette';
import { PointerPicker } from './pointer';
import { arcPositions, neighbourOf } from './scene-math';

export interface LayerDebug {
  visible: boolean;
  instances: number;
  drawCalls: number;
}

export interface SceneDebug {
  tiles: number;
  drawCalls: number;
  frames: number;
  layers: Record<LayerId, LayerDebug>;
  renderer: string;
  software: boolean;
  drawMode: DrawMode;
  background: string;
  locate(index: number): { x: number; y: number } | null;
}

export interface SceneEvents {
  onPick(index: number | null): void;
  onHover(index: number | null, clientX: number, clientY: number): void;
}

export interface SceneOptions {
  /** Software WebGL: no multisampling (it multiplies the rasteriser's work for a little smoothness). */
  software: boolean;
  drawMode: DrawMode;
}

type Direction = 'up' | 'down' | 'left' | 'right';

export class TerrainScene {
  private readonly renderer: WebGLRenderer;
  private readonly scene = new Scene();
  private readonly rig: CameraRig;
  private readonly raycaster = new Raycaster();
  private tileLayers: TileLayers = new Map();
  private readonly arcs: LineSegments;
  private arcCount = 0;
  private readonly draws = new Map<Object3D, number>();
  private ground: LayerMesh | null = null;
  private readonly selection: LineSegments;
  private readonly pulse: ReturnType<typeof shapes.pulseMaterial>;
  private readonly resize: ResizeObserver;
  private readonly labels: ProjectLabels;
  private readonly pointer: PointerPicker;
  private model: TerrainModel | null = null;
  private capacity = -1;
  private on: LayerState;
  private palette: Palette;
  private tops = new Float32Array(0);
  /** Tiles nearest the default camera first: nearer shapes win the depth test and hide what is behind early. */
  private order = new Uint32Array(0);
  private selected: number | null = null;
  private raf = 0;
  private frames = 0;
  private afterFrame: Array<() => void> = [];
  private lastCalls = 0;
  private readonly reducedMotion = matchMedia('(prefers-reduced-motion: reduce)');

  constructor(
    private readonly canvas: HTMLCanvasElement,
    labelLayer: HTMLElement,
    palette: Palette,
    layers: LayerState,
    private readonly options: SceneOptions,
    events: SceneEvents,
  ) {
    this.palette = palette;
    this.on = { ...layers };
    this.renderer = new WebGLRenderer({
      canvas,
      antialias: !options.software,
      powerPreference: 'high-performance',
    });
    this.renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));
    this.pulse = shapes.pulseMaterial(palette.dark);
    this.arcs = new LineSegments(
      new BufferGeometry(),
      new LineBasicMaterial({ vertexColors: true, transparent: true, opacity: 0.9 }),
    );
    this.arcs.frustumCulled = false;
    this.track(this.arcs);
    this.scene.add(this.arcs);
    this.selection = new LineSegments(
      new EdgesGeometry(shapes.standingBox()),
      new LineBasicMaterial({ color: palette.selection, depthTest: false, transparent: true }),
    );
    this.selection.renderOrder = 10;
    this.selection.visible = false;
    this.scene.add(this.selection);
    this.rig = new CameraRig(canvas, () => this.requestRender());
    this.labels = new ProjectLabels(labelLayer);
    this.pointer = new PointerPicker(canvas, (x, y) => this.pick(x, y), events.onPick, events.onHover);
    this.applyPalette();
    this.resize = new ResizeObserver(() => this.fitCanvas());
    this.resize.observe(canvas.parentElement ?? canvas);
    this.fitCanvas();
  }

  /** New rows (manifest, then enriched): rebuilds every layer; `fit` frames the camera on the tiles. `drawn`
   *  runs after the first frame that shows them. */
  setModel(model: TerrainModel, fit: boolean, drawn?: () => void): void {
    if (drawn) this.afterFrame.push(drawn);
    // More tiles (the next manifest page) while the camera is still where framing put it: frame them all.
    const refit = fit || (this.rig.framed && model.tiles.length !== this.model?.tiles.length);
    this.model = model;
    if (model.tiles.length > this.capacity) this.createLayers(model.tiles.length);
    const near = model.tiles.map((t) => t.x * BEARING.x + t.z * BEARING.z);
    this.order = Uint32Array.from(model.tiles.keys()).sort((a, b) => near[b]! - near[a]!);
    this.tops = new Float32Array(model.tiles.length);
    this.buildGround(model);
    this.labels.set(model.labels);
    this.layout();
    if (refit) this.resetView();
    this.requestRender();
  }

  setLayers(layers: LayerState): void {
    this.on = { ...layers };
    this.layout();
    this.requestRender();
  }

  setPalette(palette: Palette): void {
    this.palette = palette;
    this.applyPalette();
    this.requestRender();
  }

  /** Selects a tile (null clears); `reveal` pans to it when it is outside the middle of the view. */
  setSelected(index: number | null, reveal: boolean): void {
    this.selected = index;
    this.placeSelection();
    const t = index === null ? undefined : this.model?.tiles[index];
    if (reveal && t) {
      const p = new Vector3(t.x, this.tops[t.index] ?? 0, t.z).project(this.rig.camera);
      if (Math.abs(p.x) > 0.7 || Math.abs(p.y) > 0.7 || p.z > 1) this.rig.panTo(t.x, t.z);
    }
    this.requestRender();
  }

  /** The tile next to `from` in a direction as seen from the camera (arrow keys). */
  neighbour(from: number | null, dir: Direction): number | null {
    if (!this.model || this.model.tiles.length === 0) return null;
    const fwd = new Vector3();
    this.rig.camera.getWorldDirection(fwd);
    return neighbourOf(this.model.tiles, from, dir, fwd.x, fwd.z);
  }

  pan(dx: number, dy: number): void {
    this.rig.pan(dx, dy);
  }

  /** Zooms by `factor`, towards the selected tile when there is one (it becomes the orbit centre). */
  zoom(factor: number, towards: number | null = null): void {
    const t = towards === null ? undefined : this.model?.tiles[towards];
    if (t) this.rig.panTo(t.x, t.z);
    this.rig.zoom(factor);
  }

  orbit(radians: number): void {
    this.rig.orbit(radians);
  }

  /** Frames every tile, seen from the south-east and above. */
  resetView(): void {
    this.rig.fit(this.model?.plates ?? []);
    this.requestRender();
  }

  /** Client coordinates of a tile's top centre (tests click there); null when behind the camera. */
  locate(index: number): { x: number; y: number } | null {
    const t = this.model?.tiles[index];
    if (!t) return null;
    return this.rig.toClient(
      new Vector3(t.x, this.tops[index] ?? BASE, t.z),
      this.canvas.getBoundingClientRect(),
    );
  }

  /** The tile under a pointer: a raycast against the bulges and the tiles, the hit mapped back to its tile. */
  pick(clientX: number, clientY: number): number | null {
    const rect = this.canvas.getBoundingClientRect();
    const ndc = new Vector2(
      ((clientX - rect.left) / rect.width) * 2 - 1,
      -((clientY - rect.top) / rect.height) * 2 + 1,
    );
    this.raycaster.setFromCamera(ndc, this.rig.camera);
    const targets = (['bulge', 'synced'] as const)
      .map((id) => this.tileLayers.get(id))
      .filter((l): l is LayerMesh => Boolean(l?.object.visible));
    const hit = this.raycaster.intersectObjects(
      targets.map((l) => l.object),
      false,
    )[0];
    if (!hit) return null;
    return targets.find((l) => l.object === hit.object)?.tileOf(hit) ?? null;
  }

  debug(): SceneDebug {
    const layers = {} as Record<LayerId, LayerDebug>;
    for (const id of LAYER_IDS) {
      const object = id === 'arcs' ? this.arcs : this.tileLayers.get(id)?.object;
      layers[id] = {
        visible: Boolean(object?.visible),
        instances: id === 'arcs' ? this.arcCount : (this.tileLayers.get(id)?.count ?? 0),
        drawCalls: object ? (this.draws.get(object) ?? 0) : 0,
      };
    }
    const gl = this.renderer.getContext();
    return {
      tiles: this.model?.tiles.length ?? 0,
      drawCalls: this.lastCalls,
      frames: this.frames,
      layers,
      renderer: String(gl.getParameter(gl.RENDERER)),
      software: this.options.software,
      drawMode: this.options.drawMode,
      background: `#${this.palette.background.toString(16).padStart(6, '0')}`,
      locate: (index: number) => this.locate(index),
    };
  }

  dispose(): void {
    cancelAnimationFrame(this.raf);
    this.resize.disconnect();
    this.pointer.dispose();
    this.rig.controls.dispose();
    this.scene.traverse((o) => {
      const obj = o as Object3D & { geometry?: BufferGeometry; material?: Material };
      obj.geometry?.dispose();
      obj.material?.dispose();
    });
    this.labels.clear();
    this.renderer.dispose();
  }

  requestRender(): void {
    if (!this.raf) this.raf = requestAnimationFrame(this.frame);
  }

  private readonly frame = (now: number) => {
    this.raf = 0;
    const moving = this.rig.controls.update();
    const animating = Boolean(this.tileLayers.get('pulse')?.object.visible) && !this.reducedMotion.matches;
    this.pulse.time.value = animating ? now / 1000 : 0.4;
    this.draws.clear();
    this.renderer.render(this.scene, this.rig.camera);
    this.lastCalls = this.renderer.info.render.calls;
    this.frames++;
    this.labels.place(this.rig.camera, this.canvas.clientWidth, this.canvas.clientHeight);
    for (const f of this.afterFrame.splice(0)) f();
    if (moving || animating) this.requestRender();
  };

  /** Counts the object's draw calls in the current frame (onBeforeRender runs once per draw). */
  private track(object: Object3D): void {
    object.onBeforeRender = () => {
      this.draws.set(object, (this.draws.get(object) ?? 0) + 1);
    };
  }

  private fitCanvas(): void {
    const host = this.canvas.parentElement ?? this.canvas;
    const w = Math.max(1, host.clientWidth);
    const h = Math.max(1, host.clientHeight);
    this.renderer.setSize(w, h, false);
    this.rig.setAspect(w / h);
    if (this.rig.framed) this.resetView();
    this.requestRender();
  }

  private createLayers(n: number): void {
    for (const l of this.tileLayers.values()) {
      this.scene.remove(l.object);
      l.dispose();
      if (l.object.material !== this.pulse.material) (l.object.material as Material).dispose();
    }
    this.capacity = n;
    this.tileLayers = createTileLayers(this.options.drawMode, n, this.pulse.material);
    for (const l of this.tileLayers.values()) {
      this.track(l.object);
      this.scene.add(l.object);
    }
  }

  private buildGround(model: TerrainModel): void {
    if (this.ground) {
      this.scene.remove(this.ground.object);
      this.ground.dispose();
      (this.ground.object.material as Material).dispose();
    }
    const plates = model.plates;
    const ground = createLayerMesh(
      this.options.drawMode,
      shapes.standingBox(),
      new MeshBasicMaterial({ vertexColors: true }),
      plates.length,
    );
    ground.begin();
    const m = new Matrix4();
    for (const [i, p] of plates.entries()) {
      m.compose(
        new Vector3((p.minX + p.maxX) / 2, -0.08, (p.minZ + p.maxZ) / 2),
        new Quaternion(),
        new Vector3(p.maxX - p.minX, 0.08, p.maxZ - p.minZ),
      );
      ground.put(i, m, this.palette.region);
    }
    ground.end();
    ground.object.renderOrder = 7;
    ground.object.frustumCulled = false;
    ground.object.visible = plates.length > 0;
    this.ground = ground;
    this.scene.add(ground.object);
  }

  /** Places every tile's shapes from the model and the layer switches, then the arcs and the selection. */
  private layout(): void {
    const model = this.model;
    if (!model) return;
    placeTiles(model.tiles, this.order, this.on, this.tileLayers, this.palette, this.tops);
    const { positions, colors, drawn } = arcPositions(model.tiles, model.arcs, this.tops);
    const g = this.arcs.geometry;
    g.setAttribute('position', new BufferAttribute(positions, 3));
    g.setAttribute('color', new BufferAttribute(colors, 3));
    g.computeBoundingSphere();
    this.arcCount = drawn;
    this.arcs.visible = this.on.arcs && drawn > 0;
    // Many arcs over a big map: fainter lines keep the tiles readable beneath them.
    (this.arcs.material as LineBasicMaterial).opacity = drawn > 60 ? 0.55 : 0.9;
    this.placeSelection();
  }

  private placeSelection(): void {
    const t = this.selected === null ? undefined : this.model?.tiles[this.selected];
    this.selection.visible = Boolean(t);
    if (!t) return;
    const top = this.tops[t.index] ?? BASE;
    this.selection.position.set(t.x, -0.05, t.z);
    this.selection.scale.set(TILE + 0.35, top + 0.35, TILE + 0.35);
  }

  private applyPalette(): void {
    this.scene.background = new Color(this.palette.background);
    (this.selection.material as LineBasicMaterial).color.setHex(this.palette.selection);
    this.pulse.material.color.setHex(this.palette.pulse);
    this.pulse.material.blending = this.palette.dark ? AdditiveBlending : NormalBlending;
    this.pulse.material.needsUpdate = true;
    if (this.model) this.buildGround(this.model);
  }
}
