// One layer's geometry on the GPU, one draw call, no object per tile, in one of two forms:
// - `instanced` (default): an InstancedMesh, a matrix and a colour per tile; picking reads the hit's instanceId.
// - `merged` (software WebGL): the tiles' shapes written into one vertex buffer. SwiftShader pays a fixed cost per
//   instance of an instanced draw (20,000 instanced quads: 270 ms a frame; the same quads in one buffer: 33 ms, on
//   this machine), so there a layer is a plain mesh; picking maps the hit's faceIndex back to its tile.
// Both: `begin()`, `put()` per tile, `end()`; `tiles[k]` is the tile of the k-th shape.
import {
  BufferAttribute,
  BufferGeometry,
  Color,
  InstancedBufferAttribute,
  InstancedMesh,
  type Intersection,
  type Material,
  type Matrix4,
  Mesh,
  Vector3,
} from 'three';

export type DrawMode = 'instanced' | 'merged';

/** Per-tile numbers a shader reads (the activity pulse: strength, phase; and the ring's centre). */
export interface Extra {
  pulse: number;
  phase: number;
}

export interface LayerMesh {
  readonly object: Mesh;
  readonly tiles: Int32Array;
  /** Shapes placed by the last begin()/end(). */
  count: number;
  /** Draw calls in the current frame (counted by onBeforeRender). */
  draws: number;
  begin(): void;
  /** Adds the shape for `tile`; `color` null keeps the material's colour. */
  put(tile: number, matrix: Matrix4, color: number | null, extra?: Extra): void;
  end(): void;
  /** The tile a raycast hit on this layer belongs to. */
  tileOf(hit: Intersection): number | null;
  dispose(): void;
}

const c = new Color();
const p = new Vector3();

/** Adds the pulse attributes (aPulse, aPhase, aCenter) the pulse material's shader reads. */
function pulseAttributes(g: BufferGeometry, instanced: boolean, n: number, perShape: number): void {
  const size = instanced ? n : n * perShape;
  const make = (items: number) =>
    instanced
      ? new InstancedBufferAttribute(new Float32Array(Math.max(1, size) * items), items)
      : new BufferAttribute(new Float32Array(Math.max(1, size) * items), items);
  g.setAttribute('aPulse', make(1));
  g.setAttribute('aPhase', make(1));
  // Instanced: the ring is drawn around its own origin, so its centre is (0, 0) for every vertex.
  g.setAttribute(
    'aCenter',
    instanced
      ? new BufferAttribute(new Float32Array(g.getAttribute('position').count * 2), 2)
      : new BufferAttribute(new Float32Array(Math.max(1, size) * 2), 2),
  );
}

class InstancedLayer implements LayerMesh {
  readonly object: InstancedMesh;
  readonly tiles: Int32Array;
  count = 0;
  draws = 0;
  private readonly pulse: boolean;

  constructor(geometry: BufferGeometry, material: Material, capacity: number, pulse: boolean) {
    this.pulse = pulse;
    if (pulse) pulseAttributes(geometry, true, capacity, 0);
    this.object = new InstancedMesh(geometry, material, Math.max(1, capacity));
    this.tiles = new Int32Array(Math.max(1, capacity));
  }

  begin(): void {
    this.count = 0;
  }

  put(tile: number, matrix: Matrix4, color: number | null, extra?: Extra): void {
    const k = this.count++;
    this.object.setMatrixAt(k, matrix);
    if (color !== null) this.object.setColorAt(k, c.setHex(color));
    if (this.pulse && extra) {
      (this.object.geometry.getAttribute('aPulse') as BufferAttribute).setX(k, extra.pulse);
      (this.object.geometry.getAttribute('aPhase') as BufferAttribute).setX(k, extra.phase);
    }
    this.tiles[k] = tile;
  }

  end(): void {
    const o = this.object;
    o.count = this.count;
    o.instanceMatrix.needsUpdate = true;
    if (o.instanceColor) o.instanceColor.needsUpdate = true;
    if (this.pulse) {
      o.geometry.getAttribute('aPulse').needsUpdate = true;
      o.geometry.getAttribute('aPhase').needsUpdate = true;
    }
    // Raycasts test the instances' bounding sphere first: it must follow the tiles.
    o.boundingSphere = null;
  }

  tileOf(hit: Intersection): number | null {
    return hit.instanceId === undefined ? null : (this.tiles[hit.instanceId] ?? null);
  }

  dispose(): void {
    this.object.dispose();
  }
}

class MergedLayer implements LayerMesh {
  readonly object: Mesh;
  readonly tiles: Int32Array;
  count = 0;
  draws = 0;
  private readonly base: BufferGeometry;
  private readonly nv: number;
  private readonly ni: number;
  private readonly shade: Float32Array;
  private readonly pulse: boolean;
  private readonly positions: Float32Array;
  private readonly colors: Float32Array;

  constructor(
    base: BufferGeometry,
    material: Material,
    capacity: number,
    pulse: boolean,
    target: BufferGeometry,
  ) {
    const n = Math.max(1, capacity);
    this.base = base;
    this.pulse = pulse;
    this.nv = base.getAttribute('position').count;
    const baseIndex = base.index
      ? Array.from(base.index.array)
      : Array.from({ length: this.nv }, (_, i) => i);
    this.ni = baseIndex.length;
    const shade = base.getAttribute('color');
    this.shade = Float32Array.from({ length: this.nv }, (_, i) => (shade ? shade.getX(i) : 1));
    this.positions = new Float32Array(n * this.nv * 3);
    this.colors = new Float32Array(n * this.nv * 3).fill(1);
    const index = new Uint32Array(n * this.ni);
    for (let t = 0; t < n; t++)
      for (let k = 0; k < this.ni; k++) index[t * this.ni + k] = t * this.nv + baseIndex[k]!;
    target.setAttribute('position', new BufferAttribute(this.positions, 3));
    target.setAttribute('color', new BufferAttribute(this.colors, 3));
    target.setIndex(new BufferAttribute(index, 1));
    if (pulse) pulseAttributes(target, false, n, this.nv);
    this.object = new Mesh(target, material);
    this.tiles = new Int32Array(n);
  }

  begin(): void {
    this.count = 0;
  }

  put(tile: number, matrix: Matrix4, color: number | null, extra?: Extra): void {
    const k = this.count++;
    const pos = this.base.getAttribute('position');
    const at = k * this.nv;
    if (color !== null) c.setHex(color);
    else c.setRGB(1, 1, 1);
    const g = this.object.geometry;
    const aPulse = this.pulse ? (g.getAttribute('aPulse') as BufferAttribute) : null;
    const aPhase = this.pulse ? (g.getAttribute('aPhase') as BufferAttribute) : null;
    const aCenter = this.pulse ? (g.getAttribute('aCenter') as BufferAttribute) : null;
    for (let i = 0; i < this.nv; i++) {
      p.fromBufferAttribute(pos, i).applyMatrix4(matrix);
      const o = (at + i) * 3;
      this.positions[o] = p.x;
      this.positions[o + 1] = p.y;
      this.positions[o + 2] = p.z;
      const sh = this.shade[i]!;
      this.colors[o] = c.r * sh;
      this.colors[o + 1] = c.g * sh;
      this.colors[o + 2] = c.b * sh;
      if (aPulse && aPhase && aCenter && extra) {
        aPulse.setX(at + i, extra.pulse);
        aPhase.setX(at + i, extra.phase);
        aCenter.setXY(at + i, matrix.elements[12]!, matrix.elements[14]!);
      }
    }
    this.tiles[k] = tile;
  }

  end(): void {
    const g = this.object.geometry;
    g.setDrawRange(0, this.count * this.ni);
    for (const name of ['position', 'color', ...(this.pulse ? ['aPulse', 'aPhase', 'aCenter'] : [])]) {
      g.getAttribute(name).needsUpdate = true;
    }
    g.computeBoundingSphere();
  }

  tileOf(hit: Intersection): number | null {
    if (hit.faceIndex === undefined || hit.faceIndex === null) return null;
    return this.tiles[Math.floor((hit.faceIndex * 3) / this.ni)] ?? null;
  }

  dispose(): void {
    this.object.geometry.dispose();
    this.base.dispose();
  }
}

/** A layer mesh of `capacity` shapes; `pulse` adds the activity pulse's attributes. */
export function createLayerMesh(
  mode: DrawMode,
  geometry: BufferGeometry,
  material: Material,
  capacity: number,
  pulse = false,
): LayerMesh {
  if (mode === 'instanced') return new InstancedLayer(geometry, material, capacity, pulse);
  return new MergedLayer(geometry, material, capacity, pulse, new BufferGeometry());
}
