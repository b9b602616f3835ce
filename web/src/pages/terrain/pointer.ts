// Pointer input on the canvas besides OrbitControls' dragging: a click (under 5 px of movement) picks a tile,
// a hover reports the tile under the pointer, one raycast per animation frame at most.
export class PointerPicker {
  private down: { x: number; y: number } | null = null;
  private pending: PointerEvent | null = null;

  constructor(
    private readonly el: HTMLElement,
    private readonly pick: (clientX: number, clientY: number) => number | null,
    private readonly onPick: (index: number | null) => void,
    private readonly onHover: (index: number | null, clientX: number, clientY: number) => void,
  ) {
    el.addEventListener('pointerdown', this.pointerDown);
    el.addEventListener('pointerup', this.pointerUp);
    el.addEventListener('pointermove', this.pointerMove);
    el.addEventListener('pointerleave', this.pointerLeave);
  }

  dispose(): void {
    this.el.removeEventListener('pointerdown', this.pointerDown);
    this.el.removeEventListener('pointerup', this.pointerUp);
    this.el.removeEventListener('pointermove', this.pointerMove);
    this.el.removeEventListener('pointerleave', this.pointerLeave);
  }

  private readonly pointerDown = (e: PointerEvent) => {
    this.down = { x: e.clientX, y: e.clientY };
  };

  private readonly pointerUp = (e: PointerEvent) => {
    const d = this.down;
    this.down = null;
    if (!d || Math.hypot(e.clientX - d.x, e.clientY - d.y) > 5 || e.button !== 0) return;
    this.onPick(this.pick(e.clientX, e.clientY));
  };

  private readonly pointerMove = (e: PointerEvent) => {
    if (e.buttons !== 0) return;
    const first = this.pending === null;
    this.pending = e;
    if (!first) return;
    requestAnimationFrame(() => {
      const ev = this.pending;
      this.pending = null;
      if (ev) this.onHover(this.pick(ev.clientX, ev.clientY), ev.clientX, ev.clientY);
    });
  };

  private readonly pointerLeave = () => {
    this.pending = null;
    this.onHover(null, 0, 0);
  };
}
