// Config Studio's routes: the schema tree of each file, the draft preview in three styles, and the manifest's save.
// hub.config.yaml has no write route over HTTP (see docs/decisions.md, UI: Config Studio): its pane previews only.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';
import { routeKey, useRoute } from './query';

/** The two files Config Studio edits. */
export type ConfigTarget = 'hub' | 'appconfig';
export type PreviewStyle = 'normalized' | 'minimal' | 'on-disk';

/** One patch operation (src/model/patch-operation.ts): a JSON pointer path, and a value for set and append. */
export interface PatchOperation {
  op: 'set' | 'unset' | 'append' | 'remove';
  path: string;
  value?: unknown;
}

/** One node of `config tree` / `appconfig tree` (src/model/config-tree.ts). */
export interface TreeNode {
  path: string;
  key: string;
  type: string;
  set: boolean;
  required: boolean;
  value?: unknown;
  default?: unknown;
  enum?: unknown[];
  description?: string;
  unknown?: boolean;
  children?: TreeNode[];
}

export interface TreeResult {
  file: string;
  path: string;
  repo_count?: number;
  tree: TreeNode;
}

/** One validation error of a draft: its path, the line in the draft, the rule, the operation behind it. */
export interface DraftError {
  path: string;
  line?: number;
  rule: string;
  message: string;
  operation?: number;
  /** False when the file on disk has the same problem already. */
  new?: boolean;
}

export interface PreviewResult {
  file: string;
  style: PreviewStyle;
  operations: number;
  changed: boolean;
  valid: boolean;
  validation_errors: DraftError[];
  text: string;
  model: unknown;
}

export interface PatchResult {
  file: string;
  operations: number;
  saved: boolean;
  changed: boolean;
  valid: boolean;
  validation_errors: DraftError[];
  text: string;
}

const TREE = { hub: '/v3/config/hub/tree', appconfig: '/v3/config/appconfig/tree' } as const;
const PREVIEW = { hub: '/v3/config/hub/preview', appconfig: '/v3/config/appconfig/preview' } as const;
const PATCH = '/v3/config/hub/patch';

/** GET the schema tree; `confirmFull` lets the manifest's tree past the 80-repository guard. */
export function useConfigTree(target: ConfigTarget, confirmFull = false, enabled = true) {
  const query = target === 'hub' && confirmFull ? { confirm_full: true } : undefined;
  return useRoute<TreeResult>(TREE[target], query, { enabled });
}

/** The subtree at `path` (an unset mapping lists its fields this way). */
export function fetchSubtree(target: ConfigTarget, path: string, confirmFull = false): Promise<TreeResult> {
  return api<TreeResult>(TREE[target], {
    query: target === 'hub' && confirmFull ? { path, confirm_full: true } : { path },
  });
}

function previewBody(target: ConfigTarget, style: PreviewStyle, ops: PatchOperation[], full: boolean) {
  // appconfig.preview is a strict object without confirm_full (the file lists no repositories).
  return target === 'hub' && full
    ? { style, operations: ops, confirm_full: true }
    : { style, operations: ops };
}

/**
 * POST the preview of a draft (it never writes, so it is a query: cached by its body, the previous answer kept
 * on screen while the next loads).
 */
export function useConfigPreview(
  target: ConfigTarget,
  style: PreviewStyle,
  ops: PatchOperation[],
  confirmFull = false,
) {
  return useQuery<PreviewResult, Error>({
    queryKey: ['config-studio', 'preview', target, style, ops, confirmFull],
    queryFn: ({ signal }) =>
      api<PreviewResult>(PREVIEW[target], {
        method: 'POST',
        body: previewBody(target, style, ops, confirmFull),
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

/**
 * The draft as text, comments kept, to edit in the YAML editor: the manifest's `config.patch` without save (the
 * file with the operations applied); for hub.config.yaml the redacted file when the draft is empty, else the
 * normalized preview (its only view of a draft: no unredacted text leaves the server).
 */
export async function fetchDraftText(
  target: ConfigTarget,
  ops: PatchOperation[],
  confirmFull = false,
): Promise<string> {
  if (target === 'hub') {
    if (ops.length === 0) {
      const r = await api<PreviewResult>(PREVIEW.hub, {
        method: 'POST',
        body: previewBody('hub', 'on-disk', ops, confirmFull),
      });
      return r.text;
    }
    return (await api<PatchResult>(PATCH, { method: 'POST', body: { operations: ops } })).text;
  }
  const style = ops.length === 0 ? 'on-disk' : 'normalized';
  return (await api<PreviewResult>(PREVIEW.appconfig, { method: 'POST', body: { style, operations: ops } }))
    .text;
}

/** POST /v3/config/hub/patch with save: true; on a save, every view of the manifest is refetched. */
export function useSaveManifest() {
  const client = useQueryClient();
  return useMutation<PatchResult, Error, PatchOperation[]>({
    mutationFn: (operations) => api<PatchResult>(PATCH, { method: 'POST', body: { operations, save: true } }),
    onSuccess: async (r) => {
      if (!r.saved) return;
      await Promise.all([
        client.invalidateQueries({ queryKey: routeKey(TREE.hub) }),
        client.invalidateQueries({ queryKey: ['config-studio', 'preview', 'hub'] }),
        client.invalidateQueries({ queryKey: routeKey('/v3/config/hub') }),
        client.invalidateQueries({ queryKey: routeKey('/v2/workspace/summary') }),
      ]);
    },
  });
}
