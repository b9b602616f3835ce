// The 3D terrain: one InstancedMesh per layer (the arcs: one line set), so 5,000 repositories cost one draw call
// per layer and no object per tile. Renders on demand (camera moves, data, layers), continuously only while the
// activity pulse animates; the pulse moves through a time uniform. Loaded lazily with three.js by view.tsx.
import {
  AdditiveBlending,
  AmbientLight,
  BufferAttribute,
  BufferGeometry,
  Color,
  DirectionalLight,
  EdgesGeometry,
  InstancedBufferAttribute,
  InstancedMesh,
  LineBasicMaterial,
  LineSegments,
  type Material,
  Matrix4,
  MeshBasicMaterial,
  MeshLambertMaterial,
  NormalBlending,
  type Object3D,
  PerspectiveCamera,
  Quaternion,
  Raycaster,
  Scene,
  Vector2,
  Vector3,
  WebGLRenderer,
} from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import * as shapes from './geometries';
import { LAYER_IDS, type LayerId, type LayerState } from './layers';
import { BASE, type TerrainModel, TILE } from './model';
import type { Palette } from './palette';
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
  background: string;
  locate(index: number): { x: number; y: number } | null;
}

export interface SceneEvents {
  onPick(index: number | null): void;
  onHover(index: number | null, clientX: number, clientY: number): void;
}

type Direction = 'up' | 'down' | 'left' | 'right';

const LID = 0.08;
/** The branch lid leaves a rim of the synced tile's colour visible on top. */
const ROOF = 1.45;
const m = new Matrix4();
const q = new Quaternion();
const v = new Vector3();
const s = new Vector3();
const c = new Color();

/** A layer's mesh, which tile each instance belongs to, and draws counted per frame (onBeforeRender). */
interface LayerMesh {
  object: InstancedMesh | LineSegments;
  tiles: Int32Array;
  count: number;
  draws: number;
}

export class TerrainScene {
  private readonly renderer: WebGLRenderer;
  private readonly scene = new Scene();
  private readonly camera = new PerspectiveCamera(40, 1, 0.5, 5000);
  private readonly controls: OrbitControls;
  private readonly raycaster = new Raycaster();
  private readonly layers = new Map<LayerId, LayerMesh>();
  private ground: InstancedMesh | null = null;
  private readonly selection: LineSegments;
  private readonly pulse: ReturnType<typeof shapes.pulseMaterial>;
  private readonly resize: ResizeObserver;
  private model: TerrainModel | null = null;
  private on: LayerState;
  private palette: Palette;
  private tops = new Float32Array(0);
  private selected: number | null = null;
  private raf = 0;
  private frames = 0;
  private lastCalls = 0;
  private readonly reducedMotion = matchMedia('(prefers-reduced-motion: reduce)');
  private labelEls: HTMLElement[] = [];
  private down: { x: number; y: number } | null = null;
  private hoverPending: PointerEvent | null = null;
  /** The camera is where resetView put it: a resize frames the tiles again. */
  private framed = false;

  constructor(
    private readonly canvas: HTMLCanvasElement,
    private readonly labelLayer: HTMLElement,
    palette: Palette,
    layers: LayerState,
    private readonly events: SceneEvents,
  ) {
    this.palette = palette;
    this.on = { ...layers };
    this.renderer = new WebGLRenderer({ canvas, antialias: true, powerPreference: 'high-performance' });
    this.renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));
    this.pulse = shapes.pulseMaterial(palette.dark);
    this.scene.add(new AmbientLight(0xffffff, 1.4));
    const sun = new DirectionalLight(0xffffff, 2.2);
    sun.position.set(0.6, 1, 0.35);
    this.scene.add(sun);
    this.selection = new LineSegments(
      new EdgesGeometry(shapes.standingBox()),
      new LineBasicMaterial({ color: palette.selection, depthTest: false, transparent: true }),
    );
    this.selection.renderOrder = 10;
    this.selection.visible = false;
    this.scene.add(this.selection);
    this.controls = new OrbitControls(this.camera, canvas);
    this.controls.enableDamping = true;
    this.controls.maxPolarAngle = Math.PI * 0.47;
    this.controls.addEventListener('change', () => this.requestRender());
    this.controls.addEventListener('start', () => {
      this.framed = false;
    });
    this.applyPalette();
    this.resize = new ResizeObserver(() => this.fitCanvas());
    this.resize.observe(canvas.parentElement ?? canvas);
    canvas.addEventListener('pointerdown', this.onPointerDown);
    canvas.addEventListener('pointerup', this.onPointerUp);
    canvas.addEventListener('pointermove', this.onPointerMove);
    canvas.addEventListener('pointerleave', this.onPointerLeave);
    this.fitCanvas();
  }

  /** New rows (manifest, then enriched): rebuilds every layer; `fit` frames the camera on the tiles. */
  setModel(model: TerrainModel, fit: boolean): void {
    const grew = !this.model || model.tiles.length > this.model.tiles.length;
    this.model = model;
    if (grew) this.createMeshes(model.tiles.length);
    this.buildGround(model);
    this.buildLabels(model);
    this.layout();
    if (fit) this.resetView();
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
    if (reveal && index !== null && this.model) {
      const t = this.model.tiles[index];
      if (t) {
        const p = new Vector3(t.x, this.tops[index] ?? 0, t.z).project(this.camera);
        if (Math.abs(p.x) > 0.7 || Math.abs(p.y) > 0.7 || p.z > 1) this.panTo(t.x, t.z);
      }
    }
    this.requestRender();
  }

  /** The tile next to `from` in a direction as seen from the camera (arrow keys). */
  neighbour(from: number | null, dir: Direction): number | null {
    if (!this.model || this.model.tiles.length === 0) return null;
    const fwd = new Vector3();
    this.camera.getWorldDirection(fwd);
    return neighbourOf(this.model.tiles, from, dir, fwd.x, fwd.z);
  }

  /** Keyboard camera: pan (screen-relative), zoom, orbit. */
  pan(dx: number, dy: number): void {
    const fwd = new Vector3();
    this.camera.getWorldDirection(fwd);
    fwd.y = 0;
    fwd.normalize();
    const right = new Vector3(-fwd.z, 0, fwd.x);
    const step = this.camera.position.distanceTo(this.controls.target) * 0.08;
    const delta = right.multiplyScalar(dx * step).add(fwd.multiplyScalar(dy * step));
    this.controls.target.add(delta);
    this.camera.position.add(delta);
    this.framed = false;
    this.controls.update();
  }

  /** Zooms by `factor` towards the selected tile when there is one (it becomes the orbit centre). */
  zoom(factor: number, towards: number | null = null): void {
    const t = towards === null ? undefined : this.model?.tiles[towards];
    if (t) this.panTo(t.x, t.z);
    const offset = this.camera.position.clone().sub(this.controls.target).multiplyScalar(factor);
    const len = Math.min(this.controls.maxDistance, Math.max(4, offset.length()));
    this.camera.position.copy(this.controls.target).add(offset.setLength(len));
    this.framed = false;
    this.controls.update();
  }

  orbit(radians: number): void {
    const offset = this.camera.position.clone().sub(this.controls.target);
    offset.applyAxisAngle(new Vector3(0, 1, 0), radians);
    this.camera.position.copy(this.controls.target).add(offset);
    this.framed = false;
    this.controls.update();
  }

  /** Frames every tile, seen from the south-east and above. */
  resetView(): void {
    const tiles = this.model?.tiles ?? [];
    let minX = 0;
    let maxX = 0;
    let minZ = 0;
    let maxZ = 0;
    if (tiles.length > 0) {
      minX = minZ = Number.POSITIVE_INFINITY;
      maxX = maxZ = Number.NEGATIVE_INFINITY;
      for (const t of tiles) {
        minX = Math.min(minX, t.x);
        maxX = Math.max(maxX, t.x);
        minZ = Math.min(minZ, t.z);
        maxZ = Math.max(maxZ, t.z);
      }
    }
    const cx = (minX + maxX) / 2;
    const cz = (minZ + maxZ) / 2;
    // The nearest camera, on a fixed bearing (south-east, above), that sees every corner of every plate (the
    // tiles' box when there are none): plates hug the tiles, where a box of two far-apart projects is mostly empty.
    const dir = new Vector3(0.42, 0.68, 0.6).normalize();
    const corners: Vector3[] = [];
    const boxes = this.model?.plates.length
      ? this.model.plates
      : [{ minX: minX - 2, maxX: maxX + 2, minZ: minZ - 2, maxZ: maxZ + 2 }];
    for (const b of boxes.slice(0, 500))
      for (const x of [b.minX, b.maxX])
        for (const y of [0, 2.5]) for (const z of [b.minZ, b.maxZ]) corners.push(new Vector3(x, y, z));
    const target = new Vector3(cx, 0, cz);
    const fits = (d: number) => {
      this.camera.position.copy(target).addScaledVector(dir, d);
      this.camera.lookAt(target);
      this.camera.updateMatrixWorld();
      return corners.every((p) => {
        const n = p.clone().project(this.camera);
        return Math.abs(n.x) <= 0.9 && Math.abs(n.y) <= 0.86 && n.z < 1;
      });
    };
    const search = () => {
      let lo = 1;
      let hi = 20;
      while (!fits(hi) && hi < 1e5) hi *= 2;
      for (let k = 0; k < 24; k++) {
        const mid = (lo + hi) / 2;
        if (fits(mid)) hi = mid;
        else lo = mid;
      }
      fits(hi);
      return hi;
    };
    this.camera.far = 1e6;
    this.camera.updateProjectionMatrix();
    let dist = search();
    // Centre what is seen (the box's centre is not the centre of its picture), then fit again.
    let x0 = 1;
    let x1 = -1;
    let y0 = 1;
    let y1 = -1;
    for (const p of corners) {
      const n = p.clone().project(this.camera);
      x0 = Math.min(x0, n.x);
      x1 = Math.max(x1, n.x);
      y0 = Math.min(y0, n.y);
      y1 = Math.max(y1, n.y);
    }
    const halfH = Math.tan((this.camera.fov * Math.PI) / 360) * dist;
    const right = new Vector3().setFromMatrixColumn(this.camera.matrixWorld, 0);
    const up = new Vector3().setFromMatrixColumn(this.camera.matrixWorld, 1);
    target.addScaledVector(right, ((x0 + x1) / 2) * halfH * this.camera.aspect);
    target.addScaledVector(up, ((y0 + y1) / 2) * halfH);
    dist = search();
    this.controls.target.copy(target);
    this.controls.maxDistance = dist * 3;
    this.camera.far = dist * 6;
    this.camera.updateProjectionMatrix();
    this.controls.update();
    this.framed = true;
    this.requestRender();
  }

  /** Client coordinates of a tile's top centre (tests click there); null when behind the camera. */
  locate(index: number): { x: number; y: number } | null {
    const t = this.model?.tiles[index];
    if (!t) return null;
    const p = new Vector3(t.x, this.tops[index] ?? BASE, t.z).project(this.camera);
    if (p.z > 1) return null;
    const rect = this.canvas.getBoundingClientRect();
    return { x: rect.left + ((p.x + 1) / 2) * rect.width, y: rect.top + ((1 - p.y) / 2) * rect.height };
  }

  debug(): SceneDebug {
    const layers = {} as Record<LayerId, LayerDebug>;
    for (const id of LAYER_IDS) {
      const l = this.layers.get(id);
      layers[id] = {
        visible: Boolean(l?.object.visible),
        instances: l?.count ?? 0,
        drawCalls: l?.draws ?? 0,
      };
    }
    const gl = this.renderer.getContext();
    return {
      tiles: this.model?.tiles.length ?? 0,
      drawCalls: this.lastCalls,
      frames: this.frames,
      layers,
      renderer: String(gl.getParameter(gl.RENDERER)),
      background: `#${this.palette.background.toString(16).padStart(6, '0')}`,
      locate: (index: number) => this.locate(index),
    };
  }

  dispose(): void {
    cancelAnimationFrame(this.raf);
    this.resize.disconnect();
    this.canvas.removeEventListener('pointerdown', this.onPointerDown);
    this.canvas.removeEventListener('pointerup', this.onPointerUp);
    this.canvas.removeEventListener('pointermove', this.onPointerMove);
    this.canvas.removeEventListener('pointerleave', this.onPointerLeave);
    this.controls.dispose();
    this.scene.traverse((o) => {
      const obj = o as Object3D & { geometry?: BufferGeometry; material?: Material };
      obj.geometry?.dispose();
      obj.material?.dispose();
    });
    for (const el of this.labelEls) el.remove();
    this.renderer.dispose();
  }

  requestRender(): void {
    if (!this.raf) this.raf = requestAnimationFrame(this.frame);
  }

  private readonly frame = (now: number) => {
    this.raf = 0;
    const moving = this.controls.update();
    const animating = this.animating();
    this.pulse.time.value = animating ? now / 1000 : 0.4;
    for (const l of this.layers.values()) l.draws = 0;
    this.renderer.render(this.scene, this.camera);
    this.lastCalls = this.renderer.info.render.calls;
    this.frames++;
    this.placeLabels();
    if (moving || animating) this.requestRender();
  };

  private animating(): boolean {
    const l = this.layers.get('pulse');
    return Boolean(l?.object.visible) && !this.reducedMotion.matches;
  }

  private fitCanvas(): void {
    const host = this.canvas.parentElement ?? this.canvas;
    const w = Math.max(1, host.clientWidth);
    const h = Math.max(1, host.clientHeight);
    this.renderer.setSize(w, h, false);
    this.camera.aspect = w / h;
    this.camera.updateProjectionMatrix();
    if (this.framed) this.resetView();
    this.requestRender();
  }

  private addLayer(id: LayerId, object: InstancedMesh | LineSegments, capacity: number): void {
    const layer: LayerMesh = { object, tiles: new Int32Array(capacity), count: 0, draws: 0 };
    object.onBeforeRender = () => {
      layer.draws++;
    };
    object.frustumCulled = false;
    this.layers.set(id, layer);
    this.scene.add(object);
  }

  private createMeshes(n: number): void {
    for (const l of this.layers.values()) {
      this.scene.remove(l.object);
      l.object.geometry.dispose();
      (l.object.material as Material).dispose();
    }
    this.layers.clear();
    const lit = (flat = false) => new MeshLambertMaterial({ flatShading: flat });
    const glow = () => new MeshBasicMaterial();
    const mesh = (g: BufferGeometry, mat: Material) => new InstancedMesh(g, mat, Math.max(1, n));
    this.addLayer('ownership', mesh(shapes.cell(), glow()), n);
    this.addLayer('synced', mesh(shapes.standingBox(), lit()), n);
    this.addLayer('branch', mesh(shapes.standingBox(), lit()), n);
    this.addLayer('depression', mesh(shapes.pool(), lit()), n);
    this.addLayer('bulge', mesh(shapes.mound(), lit(true)), n);
    this.addLayer('cracks', mesh(shapes.cracks(), glow()), n);
    this.addLayer('ci', mesh(shapes.beacon(), glow()), n);
    const ring = mesh(shapes.ring(), this.pulse.material);
    ring.geometry.setAttribute('aPulse', new InstancedBufferAttribute(new Float32Array(Math.max(1, n)), 1));
    ring.geometry.setAttribute('aPhase', new InstancedBufferAttribute(new Float32Array(Math.max(1, n)), 1));
    this.addLayer('pulse', ring, n);
    this.addLayer('agent', mesh(shapes.diamond(), lit(true)), n);
    const arcs = new LineSegments(
      new BufferGeometry(),
      new LineBasicMaterial({ vertexColors: true, transparent: true, opacity: 0.9 }),
    );
    this.addLayer('arcs', arcs, 0);
  }

  private buildGround(model: TerrainModel): void {
    if (this.ground) {
      this.scene.remove(this.ground);
      this.ground.geometry.dispose();
      (this.ground.material as Material).dispose();
    }
    const plates = model.plates;
    const ground = new InstancedMesh(
      shapes.standingBox(),
      new MeshLambertMaterial(),
      Math.max(1, plates.length),
    );
    plates.forEach((p, i) => {
      m.compose(
        v.set((p.minX + p.maxX) / 2, -0.08, (p.minZ + p.maxZ) / 2),
        q.identity(),
        s.set(p.maxX - p.minX, 0.08, p.maxZ - p.minZ),
      );
      ground.setMatrixAt(i, m);
      ground.setColorAt(i, c.setHex(this.palette.region));
    });
    ground.count = plates.length;
    ground.frustumCulled = false;
    ground.visible = plates.length > 0;
    this.ground = ground;
    this.scene.add(ground);
  }

  /** Places every instance of every layer from the model and the layer switches. */
  private layout(): void {
    const model = this.model;
    if (!model) return;
    const tiles = model.tiles;
    const on = this.on;
    const n = tiles.length;
    if (this.tops.length !== n) this.tops = new Float32Array(n);
    const count: Partial<Record<LayerId, number>> = {};
    const put = (id: LayerId, tile: number, matrix: Matrix4, color: number) => {
      const l = this.layers.get(id)!;
      const k = count[id] ?? 0;
      const obj = l.object as InstancedMesh;
      obj.setMatrixAt(k, matrix);
      obj.setColorAt(k, c.setHex(color));
      l.tiles[k] = tile;
      count[id] = k + 1;
    };
    const aPulse = (this.layers.get('pulse')!.object as InstancedMesh).geometry.getAttribute(
      'aPulse',
    ) as InstancedBufferAttribute;
    const aPhase = (this.layers.get('pulse')!.object as InstancedMesh).geometry.getAttribute(
      'aPhase',
    ) as InstancedBufferAttribute;
    for (const t of tiles) {
      const sink = on.depression ? t.depression : 0;
      const h = t.height - sink;
      const lid = h + LID;
      const top = lid + (on.bulge ? t.bulge : 0);
      this.tops[t.index] = top;
      put('synced', t.index, m.compose(v.set(t.x, 0, t.z), q.identity(), s.set(TILE, h, TILE)), t.color);
      if (t.roof !== null)
        put('branch', t.index, m.compose(v.set(t.x, h, t.z), q.identity(), s.set(ROOF, LID, ROOF)), t.roof);
      if (t.depression > 0)
        put('depression', t.index, m.compose(v.set(t.x, h, t.z), q.identity(), s.set(1, 1, 1)), t.poolColor);
      if (t.bulge > 0)
        put(
          'bulge',
          t.index,
          m.compose(v.set(t.x, lid, t.z), q.identity(), s.set(1, t.bulge, 1)),
          t.bulgeColor,
        );
      if (t.crack)
        put(
          'cracks',
          t.index,
          m.compose(v.set(t.x, lid + 0.015, t.z), q.identity(), s.set(1, 1, 1)),
          this.palette.crack,
        );
      if (t.beacon !== null)
        put(
          'ci',
          t.index,
          m.compose(v.set(t.x + 0.78, lid, t.z - 0.78), q.identity(), s.set(1, 1, 1)),
          t.beacon,
        );
      if (t.pulse > 0) {
        const k = count.pulse ?? 0;
        aPulse.setX(k, t.pulse);
        aPhase.setX(k, (t.index * 0.618) % 1);
        put(
          'pulse',
          t.index,
          m.compose(v.set(t.x, 0, t.z), q.identity(), s.set(1, 1, 1)),
          this.palette.pulse,
        );
      }
      if (t.owner !== null)
        put('ownership', t.index, m.compose(v.set(t.x, 0, t.z), q.identity(), s.set(1, 1, 1)), t.owner);
      if (t.agent) {
        const k = t.agent.scale;
        put(
          'agent',
          t.index,
          m.compose(v.set(t.x, top + 0.8, t.z), q.identity(), s.set(k, k, k)),
          t.agent.color,
        );
      }
    }
    aPulse.needsUpdate = true;
    aPhase.needsUpdate = true;
    for (const [id, l] of this.layers) {
      if (id === 'arcs') continue;
      const obj = l.object as InstancedMesh;
      l.count = count[id] ?? 0;
      obj.count = l.count;
      obj.instanceMatrix.needsUpdate = true;
      if (obj.instanceColor) obj.instanceColor.needsUpdate = true;
      obj.visible = on[id] && l.count > 0;
    }
    this.layoutArcs();
    this.placeSelection();
  }

  private layoutArcs(): void {
    const l = this.layers.get('arcs')!;
    const model = this.model!;
    const { positions, colors, drawn } = arcPositions(model.tiles, model.arcs, this.tops);
    const g = l.object.geometry;
    g.setAttribute('position', new BufferAttribute(positions, 3));
    g.setAttribute('color', new BufferAttribute(colors, 3));
    g.computeBoundingSphere();
    l.count = drawn;
    l.object.visible = this.on.arcs && drawn > 0;
    // Many arcs over a big map: fainter lines keep the tiles readable beneath them.
    (l.object.material as LineBasicMaterial).opacity = drawn > 60 ? 0.55 : 0.9;
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
    this.pulse.material.blending = this.palette.dark ? AdditiveBlending : NormalBlending;
    this.pulse.material.needsUpdate = true;
  }

  private buildLabels(model: TerrainModel): void {
    for (const el of this.labelEls) el.remove();
    // Project names only (a few dozen at most): a label per tile would be thousands of DOM nodes.
    this.labelEls = model.labels.slice(0, 200).map((l) => {
      const el = document.createElement('span');
      el.className = 'terrain-label';
      el.textContent = l.text;
      this.labelLayer.append(el);
      return el;
    });
  }

  /** Project labels at their projected place; a label that would overlap one already placed is hidden. */
  private placeLabels(): void {
    const labels = this.model?.labels ?? [];
    const w = this.canvas.clientWidth;
    const h = this.canvas.clientHeight;
    const placed: Array<[number, number, number, number]> = [];
    this.labelEls.forEach((el, i) => {
      const l = labels[i];
      if (!l) return;
      const p = v.set(l.x, 0.2, l.z).project(this.camera);
      const sx = ((p.x + 1) / 2) * w;
      const sy = ((1 - p.y) / 2) * h;
      const half = l.text.length * 3.6 + 6;
      const box: [number, number, number, number] = [sx - half, sy - 20, sx + half, sy];
      const clash = placed.some((b) => box[0] < b[2] && box[2] > b[0] && box[1] < b[3] && box[3] > b[1]);
      const hidden = clash || p.z > 1 || Math.abs(p.x) > 1.1 || Math.abs(p.y) > 1.1;
      el.style.display = hidden ? 'none' : '';
      if (hidden) return;
      placed.push(box);
      el.style.transform = `translate(${sx}px, ${sy}px)`;
    });
  }

  private panTo(x: number, z: number): void {
    const delta = new Vector3(x, 0, z).sub(this.controls.target);
    this.controls.target.add(delta);
    this.camera.position.add(delta);
    this.framed = false;
    this.controls.update();
  }

  /** The tile under a pointer: a raycast against the tile and bulge meshes; instanceId -> tile. */
  pick(clientX: number, clientY: number): number | null {
    const rect = this.canvas.getBoundingClientRect();
    const ndc = new Vector2(
      ((clientX - rect.left) / rect.width) * 2 - 1,
      -((clientY - rect.top) / rect.height) * 2 + 1,
    );
    this.raycaster.setFromCamera(ndc, this.camera);
    const targets = (['bulge', 'synced'] as const)
      .map((id) => this.layers.get(id))
      .filter((l): l is LayerMesh => Boolean(l?.object.visible));
    const hits = this.raycaster.intersectObjects(
      targets.map((l) => l.object),
      false,
    );
    const hit = hits.find((h) => h.instanceId !== undefined);
    if (!hit) return null;
    const layer = targets.find((l) => l.object === hit.object);
    return layer ? (layer.tiles[hit.instanceId!] ?? null) : null;
  }

  private readonly onPointerDown = (e: PointerEvent) => {
    this.down = { x: e.clientX, y: e.clientY };
  };

  private readonly onPointerUp = (e: PointerEvent) => {
    const d = this.down;
    this.down = null;
    // A drag orbits; only a click (under 5 px of movement) picks.
    if (!d || Math.hypot(e.clientX - d.x, e.clientY - d.y) > 5 || e.button !== 0) return;
    this.events.onPick(this.pick(e.clientX, e.clientY));
  };

  private readonly onPointerMove = (e: PointerEvent) => {
    if (e.buttons !== 0) return;
    const first = this.hoverPending === null;
    this.hoverPending = e;
    if (!first) return;
    // One raycast per animation frame at most, however fast the pointer moves.
    requestAnimationFrame(() => {
      const ev = this.hoverPending;
      this.hoverPending = null;
      if (ev) this.events.onHover(this.pick(ev.clientX, ev.clientY), ev.clientX, ev.clientY);
    });
  };

  private readonly onPointerLeave = () => {
    this.hoverPending = null;
    this.events.onHover(null, 0, 0);
  };
}
