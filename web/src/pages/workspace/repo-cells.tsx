// Cells both repository tables share: presence, git state, tags.
import type { GitIndex, GitState, Tags } from '../../api/workspace-page';
import { Badge } from '../../components/badge';
import type { WorkspaceRow } from './repo-index';

export function Presence({ row }: { row: WorkspaceRow }) {
  return row.exists ? (
    <Badge tone="ok" title="The checkout is on disk">
      synced
    </Badge>
  ) : (
    <Badge tone="warn" title="Not on disk: clone it with hub project sync">
      missing
    </Badge>
  );
}

/** One line of git state: the branch, then what needs attention (conflicts, local changes, ahead, behind). */
export function gitSummary(g: GitState): string {
  const parts = [g.branch ?? (g.detached_head ? '(detached)' : '(no branch)')];
  if (g.merge_conflicts) parts.push(`${g.merge_conflicts} conflicts`);
  if (g.dirty) parts.push(`${g.uncommitted_count} changed`);
  if (g.ahead) parts.push(`↑${g.ahead}`);
  if (g.behind) parts.push(`↓${g.behind}`);
  if (!g.dirty && !g.ahead && !g.behind && !g.merge_conflicts) parts.push('clean');
  return parts.join(' ');
}

function gitTitle(g: GitState): string {
  const lines = [
    `branch ${g.branch ?? '(none)'}${g.upstream ? ` tracking ${g.upstream}` : ', no upstream'}`,
    `ahead ${g.ahead ?? '-'}, behind ${g.behind ?? '-'}`,
    `${g.uncommitted_count} uncommitted (${g.staged_count} staged, ${g.modified_count} modified, ${g.untracked_count} untracked)`,
  ];
  if (g.merge_conflicts) lines.push(`${g.merge_conflicts} merge conflicts`);
  return lines.join('\n');
}

export function GitCell({ row, git }: { row: WorkspaceRow; git: GitIndex | undefined }) {
  if (!row.exists) return <span className="muted">no checkout</span>;
  if (!git) {
    return (
      <span className="muted" title="Git state is loading">
        …
      </span>
    );
  }
  const g = git.byId.get(row.id);
  if (g === undefined) return <span className="muted">…</span>;
  if (g === null) return <span className="muted">not a git repository</span>;
  if (g.error) {
    return (
      <Badge tone="danger" title={g.error}>
        git error
      </Badge>
    );
  }
  const tone = g.merge_conflicts ? 'danger' : g.dirty || g.ahead ? 'warn' : g.behind ? 'info' : 'ok';
  return (
    <span className={`ws-git ws-git--${tone}`} title={gitTitle(g)}>
      <span className="ws-git__branch">{g.branch ?? (g.detached_head ? '(detached)' : '-')}</span>
      {g.merge_conflicts > 0 && <Badge tone="danger">{g.merge_conflicts} conflicts</Badge>}
      {g.dirty && <Badge tone="warn">{g.uncommitted_count} changed</Badge>}
      {!!g.ahead && <Badge tone="warn">↑{g.ahead}</Badge>}
      {!!g.behind && <Badge tone="info">↓{g.behind}</Badge>}
      {!g.dirty && !g.ahead && !g.behind && !g.merge_conflicts && <Badge tone="ok">clean</Badge>}
    </span>
  );
}

export const tagText = (k: string, v: Tags[string]) => (v === true ? k : `${k}=${String(v)}`);

export function TagList({ tags }: { tags: Tags }) {
  const entries = Object.entries(tags);
  if (entries.length === 0) return <span className="muted">-</span>;
  return (
    <span className="ws-tags" title={entries.map(([k, v]) => tagText(k, v)).join(' ')}>
      {entries.map(([k, v]) => (
        <span key={k} className="ws-tag">
          {tagText(k, v)}
        </span>
      ))}
    </span>
  );
}
