// The ten layers of the spec ("Terrain page layers"), in its order, with what each one draws. Every layer is one
// instanced mesh (the arcs one line set): toggling it hides that one draw call.
export const LAYER_IDS = [
  'synced',
  'bulge',
  'depression',
  'branch',
  'cracks',
  'ci',
  'pulse',
  'arcs',
  'ownership',
  'agent',
] as const;

export type LayerId = (typeof LAYER_IDS)[number];
export type LayerState = Record<LayerId, boolean>;

export interface LayerInfo {
  id: LayerId;
  label: string;
  /** What the layer shows and which data drives it (shown under the checkbox). */
  hint: string;
}

export const LAYERS: readonly LayerInfo[] = [
  { id: 'synced', label: 'Synced tile', hint: 'present, not read yet, missing' },
  { id: 'bulge', label: 'Unpushed / uncommitted bulge', hint: 'ahead + uncommitted' },
  { id: 'depression', label: 'Behind-remote depression', hint: 'commits behind' },
  { id: 'branch', label: 'Branch colour', hint: 'lid by branch kind' },
  { id: 'cracks', label: 'Conflict cracks', hint: 'unmerged paths' },
  { id: 'ci', label: 'CI beacon', hint: 'CI declared / found' },
  { id: 'pulse', label: 'Activity pulse', hint: 'commits in 24 h / 7 days' },
  { id: 'arcs', label: 'Dependency arcs', hint: 'inferred dashed' },
  { id: 'ownership', label: 'Ownership heatmap', hint: 'team or owner tag' },
  { id: 'agent', label: 'Agent-readiness marker', hint: 'ready, partial' },
];

export const ALL_LAYERS_ON: LayerState = Object.fromEntries(LAYER_IDS.map((id) => [id, true])) as LayerState;
