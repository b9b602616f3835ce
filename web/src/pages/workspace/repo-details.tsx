// The selected repository in the Explorer: what the manifest says, its git state, and its open actions.
import { Link } from 'wouter';
import type { GitIndex } from '../../api/workspace-page';
import { EditorLinkList } from './open-actions';
import { GitCell, Presence, TagList } from './repo-cells';
import type { WorkspaceRow } from './repo-index';

export function RepoDetails({
  row,
  git,
  onOpen,
  pending,
}: {
  row: WorkspaceRow;
  git: GitIndex | undefined;
  onOpen: (row: WorkspaceRow) => void;
  pending: boolean;
}) {
  const g = git?.byId.get(row.id);
  return (
    <aside className="ws-details" aria-labelledby="ws-details-title">
      <h2 id="ws-details-title">{row.id}</h2>
      {row.description && <p>{row.description}</p>}
      <dl className="ws-dl">
        <dt>Project</dt>
        <dd>
          {row.project}
          {row.projectDescription && <span className="muted"> — {row.projectDescription}</span>}
        </dd>
        <dt>Path</dt>
        <dd>
          <code>{row.absPath ?? row.path}</code>
        </dd>
        {row.url && (
          <>
            <dt>URL</dt>
            <dd>
              <code>{row.url}</code>
            </dd>
          </>
        )}
        <dt>Presence</dt>
        <dd>
          <Presence row={row} />
        </dd>
        <dt>Git</dt>
        <dd>
          <GitCell row={row} git={git} />
          {g?.upstream && <div className="muted">tracking {g.upstream}</div>}
          {g && g.head_commit_age_days !== null && (
            <div className="muted">last commit {g.head_commit_age_days} days ago</div>
          )}
        </dd>
        <dt>Tags</dt>
        <dd>
          <TagList tags={row.mergedTags} />
        </dd>
        <dt>Components</dt>
        <dd>{row.components}</dd>
      </dl>
      {row.exists && row.absPath ? (
        <section aria-label="Open actions" className="ws-details__open">
          <button type="button" className="primary" onClick={() => onOpen(row)} disabled={pending}>
            {pending ? 'Opening…' : 'Open in configured editor'}
          </button>
          <EditorLinkList row={row} />
        </section>
      ) : (
        <p className="muted">
          Not on disk: no open actions. <code>hub project sync</code> clones it.
        </p>
      )}
      <p>
        <Link href={`/graph?node=${encodeURIComponent(`repo:${row.id}`)}`}>Show in the graph</Link>
      </p>
    </aside>
  );
}
