// The graph canvas: cytoscape (canvas rendering, so 5,000 nodes stay one element in the page), loaded on first use
// so only the Graph view pays for it. Colours come from the page's CSS variables and follow the theme. The
// container reports what it draws in data attributes (data-ready, data-visible-<class>) for tests and tools.
import type cytoscape from 'cytoscape';
import { type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { type Elements, FORCE_LAYOUT_MAX, stretchToCanvas } from './graph-model';

export type CanvasLayout = 'auto' | 'tree';

export interface GraphCanvasProps {
  elements: Elements;
  /** auto: force layout (small) or the elements' positions (large); tree: layers from the `.origin` node. */
  layout: CanvasLayout;
  /** Edge classes not drawn (the source filters). */
  hidden: readonly string[];
  selected: string | null;
  onSelect: (id: string | null) => void;
  label: string;
}

type Palette = Record<
  'fg' | 'muted' | 'bg' | 'raised' | 'border' | 'accent' | 'accentFg' | 'focus' | 'warn' | 'ok',
  string
>;

const VARS: Record<keyof Palette, string> = {
  fg: '--fg',
  muted: '--fg-muted',
  bg: '--bg',
  raised: '--bg-raised',
  border: '--border',
  accent: '--accent',
  accentFg: '--accent-fg',
  focus: '--focus',
  warn: '--warn',
  ok: '--ok',
};

/** Resolves the theme's colours (light-dark() values) to rgb() through a probe element. */
function readPalette(host: HTMLElement): Palette {
  const probe = document.createElement('span');
  probe.hidden = true;
  host.appendChild(probe);
  const out = {} as Palette;
  for (const [k, v] of Object.entries(VARS) as Array<[keyof Palette, string]>) {
    probe.style.color = `var(${v})`;
    out[k] = getComputedStyle(probe).color;
  }
  probe.remove();
  return out;
}

function stylesheet(c: Palette): cytoscape.StylesheetJson {
  return [
    {
      selector: 'node',
      style: {
        label: 'data(label)',
        'font-size': 11,
        color: c.fg,
        'text-valign': 'bottom',
        'text-margin-y': 4,
        'text-outline-color': c.bg,
        'text-outline-width': 2,
        'min-zoomed-font-size': 7,
        'background-color': c.raised,
        'border-width': 2,
        'border-color': c.accent,
        width: 16,
        height: 16,
      },
    },
    {
      selector: 'node.project',
      style: {
        shape: 'round-rectangle',
        width: 26,
        height: 26,
        'background-color': c.accent,
        'border-color': c.accent,
        'font-weight': 'bold',
        'font-size': 13,
      },
    },
    { selector: 'node.missing', style: { 'border-style': 'dashed', 'border-color': c.muted } },
    { selector: 'node.component', style: { shape: 'diamond', width: 18, height: 18 } },
    { selector: 'node.origin', style: { 'background-color': c.accent, width: 24, height: 24 } },
    {
      selector: 'edge',
      style: {
        width: 2,
        'curve-style': 'bezier',
        'target-arrow-shape': 'triangle',
        'arrow-scale': 0.9,
        'line-color': c.accent,
        'target-arrow-color': c.accent,
      },
    },
    { selector: 'edge.manual, edge.declared', style: { 'line-style': 'solid' } },
    {
      selector: 'edge.inferred',
      style: {
        'line-color': c.warn,
        'target-arrow-color': c.warn,
        'line-style': 'dashed',
        'line-dash-pattern': [7, 4],
      },
    },
    {
      selector: 'edge.depends-on',
      style: {
        'line-color': c.ok,
        'target-arrow-color': c.ok,
        'line-style': 'dashed',
        'line-dash-pattern': [7, 4],
      },
    },
    {
      selector: 'edge.structure',
      style: {
        width: 1.5,
        'line-color': c.muted,
        'line-style': 'dotted',
        'target-arrow-shape': 'none',
      },
    },
    { selector: 'node:selected', style: { 'border-width': 4, 'border-color': c.focus } },
    {
      selector: 'edge:selected',
      style: { width: 4, 'line-color': c.focus, 'target-arrow-color': c.focus },
    },
  ];
}

function runLayout(cy: cytoscape.Core, layout: CanvasLayout): void {
  const n = cy.nodes().length;
  let options: cytoscape.LayoutOptions;
  if (layout === 'tree') {
    // Layers by distance from the origin (the component chosen), breadth first.
    options = {
      name: 'breadthfirst',
      roots: cy.nodes('.origin'),
      directed: false,
      spacingFactor: 1.1,
      animate: false,
    } as cytoscape.LayoutOptions;
  } else if (n > FORCE_LAYOUT_MAX) {
    options = { name: 'preset', animate: false };
  } else {
    // randomize false: the force layout starts from where the nodes are, so each load looks the same.
    options = {
      name: 'cose',
      animate: false,
      randomize: false,
      nodeRepulsion: () => 120_000,
      idealEdgeLength: () => 70,
      nodeOverlap: 20,
      componentSpacing: 120,
    } as cytoscape.LayoutOptions;
  }
  cy.layout(options).run();
}

/** Space kept between the drawing and the canvas's edge when fitted. */
const FIT_PADDING = 30;

type Positions = Map<string, { x: number; y: number }>;

function positionsOf(cy: cytoscape.Core): Positions {
  const out: Positions = new Map();
  cy.nodes().forEach((n) => {
    out.set(n.id(), { ...n.position() });
  });
  return out;
}

/**
 * Fits the drawing to the canvas. An `auto` layout is first stretched from its laid-out positions (`base`) to
 * the canvas's proportions, so it fills the canvas (a tree layout already spreads over the canvas's box).
 */
function fitToCanvas(cy: cytoscape.Core, layout: CanvasLayout, base: Positions): void {
  if (layout === 'auto' && base.size > 1) {
    let [x1, y1, x2, y2] = [Infinity, Infinity, -Infinity, -Infinity];
    for (const p of base.values()) {
      x1 = Math.min(x1, p.x);
      y1 = Math.min(y1, p.y);
      x2 = Math.max(x2, p.x);
      y2 = Math.max(y2, p.y);
    }
    const { sx, sy } = stretchToCanvas(
      { w: x2 - x1, h: y2 - y1 },
      { w: cy.width() - 2 * FIT_PADDING, h: cy.height() - 2 * FIT_PADDING },
    );
    const cx = (x1 + x2) / 2;
    const cyMid = (y1 + y2) / 2;
    cy.batch(() => {
      cy.nodes().forEach((n) => {
        const p = base.get(n.id());
        if (p) n.position({ x: cx + (p.x - cx) * sx, y: cyMid + (p.y - cyMid) * sy });
      });
    });
  }
  cy.fit(undefined, FIT_PADDING);
}

/** Reports the edges drawn per class, for tests and for anyone reading the DOM. */
function reportVisible(host: HTMLElement, cy: cytoscape.Core): void {
  const counts = new Map<string, number>();
  cy.edges().forEach((e) => {
    if (e.style('display') === 'none') return;
    for (const cls of e.classes()) counts.set(cls, (counts.get(cls) ?? 0) + 1);
  });
  for (const key of Object.keys(host.dataset)) if (key.startsWith('visible')) delete host.dataset[key];
  for (const cls of ['manual', 'inferred', 'structure', 'declared', 'depends-on'])
    host.setAttribute(`data-visible-${cls}`, String(counts.get(cls) ?? 0));
  host.dataset.nodes = String(cy.nodes().length);
}

export function GraphCanvas({ elements, layout, hidden, selected, onSelect, label }: GraphCanvasProps) {
  const host = useRef<HTMLDivElement>(null);
  const [cy, setCy] = useState<cytoscape.Core | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const onSelectRef = useRef(onSelect);
  onSelectRef.current = onSelect;

  // Create the instance once (cytoscape is imported here, on first use).
  useEffect(() => {
    let instance: cytoscape.Core | null = null;
    let gone = false;
    import('cytoscape')
      .then(({ default: make }) => {
        if (gone || !host.current) return;
        instance = make({
          container: host.current,
          style: stylesheet(readPalette(host.current)),
          minZoom: 0.05,
          maxZoom: 4,
          boxSelectionEnabled: false,
          selectionType: 'single',
        });
        instance.on('tap', (e) => {
          if (e.target === instance) onSelectRef.current(null);
          else onSelectRef.current((e.target as cytoscape.SingularElementArgument).id());
        });
        setCy(instance);
      })
      .catch((err: unknown) => setFailed(err instanceof Error ? err.message : String(err)));
    return () => {
      gone = true;
      instance?.destroy();
    };
  }, []);

  // Follow the theme: the toggle sets <html data-theme>, the system setting flips prefers-color-scheme.
  useEffect(() => {
    if (!cy || !host.current) return;
    const restyle = () => host.current && cy.style(stylesheet(readPalette(host.current)));
    const media = matchMedia('(prefers-color-scheme: dark)');
    media.addEventListener('change', restyle);
    const obs = new MutationObserver(restyle);
    obs.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    return () => {
      media.removeEventListener('change', restyle);
      obs.disconnect();
    };
  }, [cy]);

  useEffect(() => {
    if (!cy || !host.current) return;
    const el = host.current;
    el.dataset.ready = 'false';
    cy.batch(() => {
      cy.elements().remove();
      cy.add([
        ...elements.nodes.map((n) => ({
          group: 'nodes' as const,
          data: { id: n.id, label: n.label },
          classes: n.classes,
          ...(n.position ? { position: { ...n.position } } : {}),
        })),
        ...elements.edges.map((e) => ({
          group: 'edges' as const,
          data: { id: e.id, source: e.source, target: e.target, label: e.label },
          classes: e.classes,
        })),
      ]);
    });
    runLayout(cy, layout);
    const base = positionsOf(cy);
    fitToCanvas(cy, layout, base);
    // While the view is the fitted one (not panned, zoomed or a node dragged), a new canvas size fits it again:
    // the canvas grows or shrinks with the window and the page's layout.
    let fitted: { zoom: number; x: number; y: number } | null = { zoom: cy.zoom(), ...cy.pan() };
    const onResize = () => {
      const pan = cy.pan();
      if (!fitted || fitted.zoom !== cy.zoom() || fitted.x !== pan.x || fitted.y !== pan.y) return;
      fitToCanvas(cy, layout, base);
      fitted = { zoom: cy.zoom(), ...cy.pan() };
    };
    const onDrag = () => {
      fitted = null;
    };
    cy.on('resize', onResize);
    cy.on('dragfree', 'node', onDrag);
    el.dataset.ready = 'true';
    return () => {
      cy.off('resize', onResize);
      cy.off('dragfree', 'node', onDrag);
    };
  }, [cy, elements, layout]);

  // After new elements too: they arrive drawn.
  // biome-ignore lint/correctness/useExhaustiveDependencies: elements is a trigger, not read.
  useEffect(() => {
    if (!cy || !host.current) return;
    const hide = new Set(hidden);
    cy.batch(() => {
      cy.edges().forEach((e) => {
        e.style('display', e.classes().some((c) => hide.has(c)) ? 'none' : 'element');
      });
    });
    reportVisible(host.current, cy);
  }, [cy, hidden, elements]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: elements is a trigger (new elements lose the selection).
  useEffect(() => {
    if (!cy) return;
    cy.$(':selected').unselect();
    if (!selected) return;
    const el = cy.getElementById(selected);
    if (el.empty()) return;
    el.select();
    // Bring it into view when it is outside (chosen from the list or a link, not clicked).
    const bb = el.renderedBoundingBox();
    if (bb.x2 < 0 || bb.y2 < 0 || bb.x1 > cy.width() || bb.y1 > cy.height()) cy.center(el);
  }, [cy, selected, elements]);

  const onKeyDown = (e: KeyboardEvent) => {
    if (!cy) return;
    const step = 60;
    const middle = { x: cy.width() / 2, y: cy.height() / 2 };
    switch (e.key) {
      case '+':
      case '=':
        cy.zoom({ level: cy.zoom() * 1.25, renderedPosition: middle });
        break;
      case '-':
        cy.zoom({ level: cy.zoom() / 1.25, renderedPosition: middle });
        break;
      case '0':
        cy.fit(undefined, FIT_PADDING);
        break;
      case 'ArrowLeft':
        cy.panBy({ x: step, y: 0 });
        break;
      case 'ArrowRight':
        cy.panBy({ x: -step, y: 0 });
        break;
      case 'ArrowUp':
        cy.panBy({ x: 0, y: step });
        break;
      case 'ArrowDown':
        cy.panBy({ x: 0, y: -step });
        break;
      case 'Escape':
        onSelect(null);
        break;
      default:
        return;
    }
    e.preventDefault();
  };

  if (failed) return <p role="alert">The graph could not be drawn: {failed}</p>;
  return (
    <div
      ref={host}
      className="ws-graph__canvas"
      role="img"
      aria-label={`${label}. Arrow keys pan, + and - zoom, 0 fits; pick a node from the list to see its details.`}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: the canvas is zoomed and panned from the keyboard.
      tabIndex={0}
      onKeyDown={onKeyDown}
    />
  );
}
