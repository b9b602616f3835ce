// One file in Config Studio: the schema tree and the field editor on one side, the draft bar and the YAML on the
// other. Only the manifest saves (POST /v3/config/hub/patch); hub.config.yaml previews (no HTTP write route).
import { useEffect, useMemo, useRef, useState } from 'react';
import { ApiError } from '../../api/client';
import {
  type ConfigTarget,
  fetchSubtree,
  type PatchOperation,
  type PatchResult,
  type TreeNode,
  useConfigTree,
  useSaveManifest,
} from '../../api/config-studio';
import { useWorkspaceSummary } from '../../api/workspace';
import { ErrorBanner } from '../../components/error-banner';
import { Loading } from '../../components/loading';
import { pendingMarks, pointerOf } from './draft';
import { DraftBar } from './draft-bar';
import { FieldEditor } from './field-editor';
import { SchemaTree } from './schema-tree';
import { YamlPane } from './yaml-pane';

/** hub's whole-config guard (src/ops/config-ops.ts FULL_CONFIG_GUARD): repositories shown without asking. */
const FULL_CONFIG_GUARD = 80;

export interface FileStudioProps {
  target: ConfigTarget;
  fileName: string;
  ops: PatchOperation[];
  onAdd: (ops: PatchOperation[]) => void;
  onUndo: (index: number) => void;
  onDiscard: () => void;
}

function findNode(root: TreeNode, path: string): TreeNode | undefined {
  const stack = [root];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (n.path === path) return n;
    if (n.children && path.startsWith(`${n.path}/`)) stack.push(...n.children);
  }
  return undefined;
}

/**
 * The nodes from the root down to `path` (the ones to expand to show it); the deepest that exists last. A list item
 * may be named by its index (validation errors say `relationships[0]`) where the tree names it by its name.
 */
function ancestors(root: TreeNode, path: string): TreeNode[] {
  const out: TreeNode[] = [root];
  let n = root;
  for (const raw of path.split('/').slice(1)) {
    const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    const kids = n.children ?? [];
    const next =
      kids.find((k) => k.key === seg) ??
      (/^\d+$/.test(seg) && n.type === 'array' ? kids[Number(seg)] : undefined);
    if (!next) break;
    out.push(next);
    n = next;
  }
  return out;
}

/** The tree with the fields of expanded unset mappings grafted in (copies only the nodes above a graft). */
function withGrafts(root: TreeNode, grafts: ReadonlyMap<string, TreeNode[]>): TreeNode {
  if (grafts.size === 0) return root;
  const copy: TreeNode = { ...root };
  const stack = [copy];
  while (stack.length > 0) {
    const n = stack.pop()!;
    const grafted = grafts.get(n.path);
    if (grafted && n.children === undefined) n.children = grafted;
    if (!n.children) continue;
    const paths = [...grafts.keys()];
    n.children = n.children.map((c) =>
      paths.some((p) => p === c.path || p.startsWith(`${c.path}/`)) ? { ...c } : c,
    );
    for (const c of n.children)
      if (paths.some((p) => p === c.path || p.startsWith(`${c.path}/`))) stack.push(c);
  }
  return copy;
}

export function FileStudio({ target, fileName, ops, onAdd, onUndo, onDiscard }: FileStudioProps) {
  const [confirmFull, setConfirmFull] = useState(false);
  // The manifest's tree and previews are refused above 80 repositories without confirm_full: ask first, from the
  // summary the header loads anyway, rather than send a request that is known to be refused.
  const summary = useWorkspaceSummary();
  const repos = summary.data?.counts.repos;
  const mustAsk = target === 'hub' && !confirmFull && repos !== undefined && repos > FULL_CONFIG_GUARD;
  const known = target !== 'hub' || !summary.isPending;
  const tree = useConfigTree(target, confirmFull, known && !mustAsk);
  const save = useSaveManifest();
  const [expanded, setExpanded] = useState<Set<string> | null>(null);
  const [active, setActive] = useState<string>();
  const [lastSave, setLastSave] = useState<PatchResult | null>(null);
  const inputRef = useRef<HTMLElement | null>(null);
  const fieldRef = useRef<HTMLDivElement>(null);
  const marks = useMemo(() => pendingMarks(ops), [ops]);

  const [grafts, setGrafts] = useState<ReadonlyMap<string, TreeNode[]>>(new Map());
  const [loadError, setLoadError] = useState<unknown>(null);
  const fetched = tree.data?.tree;
  // A refetched tree (after a save) starts without grafts: the file may now set what was unset.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset on each new tree.
  useEffect(() => setGrafts(new Map()), [fetched]);
  const root = useMemo(() => (fetched ? withGrafts(fetched, grafts) : undefined), [fetched, grafts]);
  const loadChildren = (path: string) => {
    setLoadError(null);
    fetchSubtree(target, path, confirmFull).then(
      (sub) => setGrafts((g) => new Map(g).set(path, sub.tree.children ?? [])),
      (err: unknown) => setLoadError(err),
    );
  };
  // First view: the top-level mappings open (and, in the manifest, the project list).
  const open = useMemo(() => {
    if (expanded) return expanded;
    const s = new Set<string>();
    for (const c of root?.children ?? []) if (c.set && c.children) s.add(c.path);
    if (target === 'hub') s.add('/workspace/projects');
    return s;
  }, [expanded, root, target]);
  const activeNode = root && active !== undefined ? findNode(root, active) : undefined;
  const shown = activeNode ?? root?.children?.[0];

  const add = (more: PatchOperation[]) => {
    setLastSave(null);
    onAdd(more);
  };
  const select = (path: string) => {
    if (!root) return;
    const chain = ancestors(root, pointerOf(path));
    const next = new Set(open);
    for (const n of chain.slice(0, -1)) if (n.path !== '') next.add(n.path);
    setExpanded(next);
    const deepest = chain[chain.length - 1];
    if (deepest && deepest.path !== '') setActive(deepest.path);
  };
  const edit = (path: string) => {
    setActive(path);
    // The editor re-renders for the node first; then its input (or the form) takes focus.
    requestAnimationFrame(() => (inputRef.current ?? fieldRef.current?.querySelector('form'))?.focus());
  };
  const doSave = () => {
    setLastSave(null);
    save.mutate(ops, {
      onSuccess: (r) => {
        setLastSave(r);
        if (r.saved) onDiscard();
      },
    });
  };

  const refused = tree.error instanceof ApiError && tree.error.details.rule === 'confirm_full';
  const guard = mustAsk || refused;
  const guardText = mustAsk
    ? `The manifest lists ${repos} repositories (over ${FULL_CONFIG_GUARD}): its whole tree and previews are large.`
    : tree.error?.message;
  return (
    <div className="file-studio">
      <p className="file-studio__file muted">
        {tree.data ? <code>{tree.data.file}</code> : fileName}
        {target === 'appconfig' && ' · previews only: saved with hub appconfig patch (no HTTP write route)'}
      </p>
      <DraftBar
        target={target}
        ops={ops}
        onUndo={onUndo}
        onDiscard={() => {
          setLastSave(null);
          onDiscard();
        }}
        onSave={target === 'hub' ? doSave : undefined}
        saving={save.isPending}
        saveError={save.error}
        lastSave={lastSave}
        onSelectPath={select}
      />
      <div className="file-studio__grid">
        <div className="file-studio__left">
          <h2 className="file-studio__h">Schema tree</h2>
          {!guard && (tree.isLoading || !known) && <Loading label="Loading the tree…" />}
          {guard && (
            <div className="guard" role="status">
              <p>{guardText}</p>
              <button type="button" onClick={() => setConfirmFull(true)}>
                Load the whole manifest
              </button>
            </div>
          )}
          {tree.isError && !guard && <ErrorBanner error={tree.error} onRetry={() => void tree.refetch()} />}
          {loadError !== null && <ErrorBanner error={loadError} />}
          {root && (
            <SchemaTree
              root={root}
              label={`Schema tree of ${fileName}`}
              expanded={open}
              onExpandedChange={setExpanded}
              active={shown?.path}
              onActiveChange={setActive}
              onEdit={edit}
              onLoadChildren={loadChildren}
              pending={marks}
            />
          )}
          <div ref={fieldRef} className="file-studio__field">
            {shown && <FieldEditor key={shown.path} node={shown} onAdd={add} inputRef={inputRef} />}
          </div>
        </div>
        <div className="file-studio__right">
          {(!guard || confirmFull) && (
            <YamlPane
              target={target}
              ops={ops}
              confirmFull={confirmFull}
              onAddOps={add}
              onSelectPath={select}
            />
          )}
        </div>
      </div>
    </div>
  );
}
