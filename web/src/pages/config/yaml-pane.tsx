// The YAML side of a file: the draft's validation errors ABOVE the YAML (spec), the preview in one of three
// styles (Normalized, Minimal, On disk) in a read-only code editor, and the text editor whose changes join the
// draft as patch operations (text-diff.ts).
import { lazy, Suspense, useMemo, useState } from 'react';
import {
  type ConfigTarget,
  type DraftError,
  fetchDraftText,
  type PatchOperation,
  type PreviewStyle,
  useConfigPreview,
} from '../../api/config-studio';
import { ErrorBanner } from '../../components/error-banner';
import { pointerOf } from './draft';
import { Segmented } from './segmented';
import { type TextError, textEditOperations } from './text-diff';

const CodeEditor = lazy(() => import('./code-editor'));

const STYLES = [
  { id: 'normalized', label: 'Normalized' },
  { id: 'minimal', label: 'Minimal' },
  { id: 'on-disk', label: 'On disk' },
] as const satisfies readonly { id: PreviewStyle; label: string }[];

const STYLE_NOTE: Record<PreviewStyle, string> = {
  normalized: 'the validated model with the draft applied, defaults filled in',
  minimal: 'the draft without the fields that equal their defaults',
  'on-disk': 'the file as it is on disk, without the draft',
};

export interface YamlPaneProps {
  target: ConfigTarget;
  ops: PatchOperation[];
  confirmFull: boolean;
  onAddOps: (ops: PatchOperation[]) => void;
  onSelectPath: (path: string) => void;
}

export function YamlPane({ target, ops, confirmFull, onAddOps, onSelectPath }: YamlPaneProps) {
  const [style, setStyle] = useState<PreviewStyle>('normalized');
  const preview = useConfigPreview(target, style, ops, confirmFull);
  const [editing, setEditing] = useState<{ base: string; text: string } | null>(null);
  const [textError, setTextError] = useState<TextError | null>(null);
  const [loadError, setLoadError] = useState<unknown>(null);
  const [opening, setOpening] = useState(false);
  const errors = preview.data?.validation_errors ?? [];
  const errorLines = useMemo(
    () => (editing ? errors.flatMap((e) => (e.line === undefined ? [] : [e.line])) : []),
    [editing, errors],
  );

  const startEditing = async () => {
    setOpening(true);
    setLoadError(null);
    try {
      const base = await fetchDraftText(target, ops, confirmFull);
      setEditing({ base, text: base });
      setTextError(null);
    } catch (err) {
      setLoadError(err);
    } finally {
      setOpening(false);
    }
  };
  const applyText = () => {
    if (!editing) return;
    const r = textEditOperations(editing.base, editing.text);
    if ('error' in r) return setTextError(r.error);
    if (r.ops.length > 0) onAddOps(r.ops);
    setEditing(null);
    setTextError(null);
  };

  return (
    <section className="yaml-pane" aria-label="YAML">
      <div className="yaml-pane__bar">
        {editing ? (
          <>
            <strong>Editing the draft text</strong>
            <span className="yaml-pane__spacer" />
            <button type="button" className="primary" onClick={applyText}>
              Add changes to draft
            </button>
            <button type="button" onClick={() => setEditing(null)}>
              Cancel
            </button>
          </>
        ) : (
          <>
            <Segmented options={STYLES} value={style} onChange={setStyle} label="Preview mode" />
            <span className="yaml-pane__spacer" />
            <button type="button" onClick={() => void startEditing()} disabled={opening}>
              {opening ? 'Opening…' : 'Edit YAML'}
            </button>
          </>
        )}
      </div>
      <p className="muted yaml-pane__note">
        {editing
          ? 'Only what you change becomes an operation: comments typed here and a new order of named items are not saved.'
          : STYLE_NOTE[style]}
      </p>

      {textError && (
        <div className="draft-errors" role="alert">
          <h3>The edited text cannot join the draft</h3>
          <p>
            {textError.line !== undefined && (
              <span className="draft-errors__line">line {textError.line}</span>
            )}{' '}
            {textError.message}
          </p>
        </div>
      )}
      {loadError !== null && <ErrorBanner error={loadError} />}
      {errors.length > 0 && <DraftErrors errors={errors} onSelectPath={onSelectPath} />}
      {preview.isError && <ErrorBanner error={preview.error} onRetry={() => void preview.refetch()} />}

      <div className="yaml-pane__editor" aria-busy={preview.isFetching}>
        <Suspense fallback={<Pending label="Loading the editor…" />}>
          {editing ? (
            <CodeEditor
              key="edit"
              value={editing.base}
              label={`Draft text of ${target === 'hub' ? '.hub.yml' : 'hub.config.yaml'}`}
              onChange={(text) => setEditing((e) => (e ? { ...e, text } : e))}
              markLines={errorLines}
              autoFocus
            />
          ) : preview.data ? (
            <CodeEditor
              key="view"
              value={preview.data.text}
              label={`${STYLES.find((s) => s.id === style)!.label} preview`}
              readOnly
            />
          ) : (
            !preview.isError && <Pending label="Loading the preview…" />
          )}
        </Suspense>
      </div>
    </section>
  );
}

/**
 * The pane's own loading line: one page shows one shared spinner (the tree's), so that "nothing is loading" reads
 * the same on every page.
 */
function Pending({ label }: { label: string }) {
  return (
    <p className="muted yaml-pane__pending" role="status">
      {label}
    </p>
  );
}

/** The draft's validation errors, each with its line, its path (a button that selects the node), rule and op. */
function DraftErrors({ errors, onSelectPath }: { errors: DraftError[]; onSelectPath: (p: string) => void }) {
  const fresh = errors.filter((e) => e.new !== false).length;
  return (
    <div className="draft-errors" role="alert" aria-label="Draft validation errors">
      <h3>
        {errors.length} validation error{errors.length === 1 ? '' : 's'} in the draft
        {fresh < errors.length && <span className="muted"> ({errors.length - fresh} already on disk)</span>}
      </h3>
      <ul>
        {errors.map((e, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: errors have no identity; the list is replaced whole.
          <li key={i}>
            {e.line !== undefined && <span className="draft-errors__line">line {e.line}</span>}
            <button
              type="button"
              className="link"
              onClick={() => onSelectPath(e.path)}
              title="Show in the tree"
            >
              <code>{pointerOf(e.path) || '/'}</code>
            </button>
            <span>{e.message}</span>
            <span className="draft-errors__rule">[{e.rule}]</span>
            {e.operation !== undefined && <span className="muted">operation {e.operation + 1}</span>}
            {e.new === false && <span className="muted">already on disk</span>}
          </li>
        ))}
      </ul>
    </div>
  );
}
