// Open actions of a synced repository: the default action (`POST /v3/ops/open`: hub runs the editor of the user's
// config on the checkout) and editor-protocol links (the browser hands the link to the editor registered for it).
import { useCallback, useState } from 'react';
import { ApiError } from '../../api/client';
import { useOpenRepo } from '../../api/workspace-page';
import { editorLinks } from './editors';
import type { WorkspaceRow } from './repo-index';

export interface OpenOutcome {
  repo: string;
  ok: boolean;
  message: string;
  code?: string;
}

/** The default open action and the outcome of its last call (shown in one status line per view). */
export function useOpenAction() {
  const mutation = useOpenRepo();
  const [outcome, setOutcome] = useState<OpenOutcome | null>(null);
  const [pending, setPending] = useState<string | null>(null);
  const { mutateAsync } = mutation;
  const open = useCallback(
    async (row: WorkspaceRow) => {
      if (!row.absPath) return;
      setPending(row.id);
      try {
        const r = await mutateAsync(row.absPath);
        setOutcome({ repo: row.id, ok: true, message: `Opened ${r.repository} with ${r.editor}` });
      } catch (err) {
        const e = err instanceof ApiError ? err : undefined;
        setOutcome({
          repo: row.id,
          ok: false,
          code: e?.code,
          message:
            e?.details.field === 'config.editor'
              ? editorProblem(row, e)
              : `Could not open ${row.id}: ${err instanceof Error ? err.message : String(err)}`,
        });
      } finally {
        setPending(null);
      }
    },
    [mutateAsync],
  );
  return { open, outcome, pending, clear: () => setOutcome(null) };
}

/**
 * The editor of config.editor cannot run here (often the default `code`, not installed): where to set it, and the
 * editor links, which need no config.editor.
 */
function editorProblem(row: WorkspaceRow, e: ApiError): string {
  const editor = String(e.details.editor ?? 'the editor');
  const why = e.details.errno === 'ENOENT' ? 'is not installed here' : 'cannot be run here';
  const file = typeof e.details.config_file === 'string' ? e.details.config_file : 'your user config';
  const links = row.absPath ? editorLinks(row.absPath).map((l) => l.label) : [];
  return (
    `Could not open ${row.id}: the editor '${editor}' (config.editor) ${why}. Set config.editor in ${file}` +
    (links.length ? `, or use an editor link: ${links.join(', ')}.` : '.')
  );
}

/** One line saying how the last open went (a live region, so screen readers hear it too). */
export function OpenStatus({ outcome, onClear }: { outcome: OpenOutcome | null; onClear: () => void }) {
  return (
    <div className="ws-open-status" role="status" aria-live="polite">
      {outcome && (
        <p className={outcome.ok ? 'ws-open-status__ok' : 'ws-open-status__error'}>
          {outcome.code && <code>{outcome.code}</code>} {outcome.message}{' '}
          <button type="button" className="ws-linkbtn" onClick={onClear} aria-label="Dismiss">
            ×
          </button>
        </p>
      )}
    </div>
  );
}

/** The compact actions of a table row: Open (default) and the two most used editor links. */
export function RowOpenActions({
  row,
  onOpen,
  pending,
}: {
  row: WorkspaceRow;
  onOpen: (row: WorkspaceRow) => void;
  pending: boolean;
}) {
  if (!row.exists || !row.absPath) return <span className="muted">-</span>;
  const links = editorLinks(row.absPath).slice(0, 2);
  return (
    <span className="ws-open">
      <button
        type="button"
        className="ws-open__default"
        onClick={() => onOpen(row)}
        disabled={pending}
        // Short names: the row says which repository (a cell's name must not repeat the repository's id).
        aria-label="Open in the configured editor"
        title={`Open ${row.id} in the configured editor (POST /v3/ops/open)`}
      >
        {pending ? 'Opening…' : 'Open'}
      </button>
      {links.map((l) => (
        <a key={l.id} href={l.href} title={`Open ${row.id} in ${l.label}`}>
          {l.label}
        </a>
      ))}
    </span>
  );
}

/** Every editor link, for the details panel. */
export function EditorLinkList({ row }: { row: WorkspaceRow }) {
  if (!row.absPath) return null;
  return (
    <ul className="ws-editors">
      {editorLinks(row.absPath).map((l) => (
        <li key={l.id}>
          <a href={l.href}>{l.label}</a>
        </li>
      ))}
    </ul>
  );
}
