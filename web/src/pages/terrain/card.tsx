// The card of one repository: id, project, path, git state, CI, owner, agent readiness and its dependencies
// (each other end a button that selects it).
import { forwardRef, type ReactNode } from 'react';
import type { TerrainDependency, TerrainNode } from '../../api/terrain';
import { Badge } from '../../components/badge';
import { readinessOf } from './model';

export interface CardProps {
  node: TerrainNode;
  deps: readonly TerrainDependency[];
  detail: 'manifest' | 'enriched';
  onSelect(id: string): void;
  onClose(): void;
}

const shortId = (id: string) => id.replace(/^repo:/, '');

function gitSummary(n: TerrainNode, detail: string): string {
  const g = n.git;
  if (!g) {
    if (n.local_status === 'configured_missing') return 'not checked out';
    if (n.local_status === 'outside_workspace') return 'outside the workspace (not read)';
    return detail === 'manifest' ? 'not read yet (manifest)' : 'not a git repository';
  }
  if (g.error) return `git error: ${g.error}`;
  const parts = [g.detached_head ? `detached at ${g.head?.slice(0, 8) ?? '?'}` : `on ${g.branch}`];
  if (g.branch_kind) parts.push(`(${g.branch_kind})`);
  if (g.upstream) parts.push(`↑${g.ahead ?? 0} ↓${g.behind ?? 0} vs ${g.upstream}`);
  else parts.push('no upstream');
  if (g.uncommitted_count > 0) parts.push(`${g.uncommitted_count} uncommitted`);
  if (g.merge_conflicts > 0) parts.push(`${g.merge_conflicts} conflicted`);
  return parts.join(' ');
}

function ciSummary(n: TerrainNode): string {
  const d = n.ci.declared;
  const declared = d
    ? `${d.provider}${d.workflow ? ` ${d.workflow}` : d.pipeline ? ` ${d.pipeline}` : ''}`
    : null;
  const found = n.ci.detected === null ? null : n.ci.detected.length > 0 ? n.ci.detected.join(', ') : 'none';
  if (n.ci.beacon === null) return declared ? `declared ${declared} (not checked yet)` : 'none declared';
  const beacon: Record<string, string> = {
    both: 'declared and found',
    declared: 'declared, no file found',
    mismatch: 'declared, another system found',
    detected: 'found, not declared',
    none: 'none',
  };
  return [beacon[n.ci.beacon], declared && `declared ${declared}`, found && `found ${found}`]
    .filter(Boolean)
    .join('; ');
}

function agentSummary(n: TerrainNode): string {
  const a = n.agent;
  const files = [
    a.has_agents_md && 'AGENTS.md',
    a.has_claude_md && 'CLAUDE.md',
    a.has_copilot_instructions && 'copilot instructions',
    a.has_llms_txt && 'llms.txt',
    a.has_readme && 'README',
    a.has_docs && 'docs/',
    a.has_agent_instructions && 'manifest instructions',
  ].filter(Boolean);
  const score =
    a.documentation_score === null ? '' : `, documentation ${Math.round(a.documentation_score * 100)}%`;
  const installed = (a.installed_agents ?? []).map((i) => `${i.vendor} (${i.count})`);
  return `${readinessOf(n)}${score}${files.length ? `: ${files.join(', ')}` : ''}${
    installed.length ? `; installed ${installed.join(', ')}` : ''
  }`;
}

export const TerrainCard = forwardRef<HTMLHeadingElement, CardProps>(function TerrainCard(
  { node: n, deps, detail, onSelect, onClose },
  heading,
) {
  const out = deps.filter((d) => d.from_id === n.id);
  const inn = deps.filter((d) => d.to_id === n.id);
  const tags = Object.entries(n.tags).map(([k, v]) => (v === true ? k : `${k}=${v}`));
  const row = (term: string, value: ReactNode) => (
    <div>
      <dt>{term}</dt>
      <dd>{value}</dd>
    </div>
  );
  const depList = (list: TerrainDependency[], other: (d: TerrainDependency) => string) =>
    list.length === 0 ? (
      <span className="muted">none</span>
    ) : (
      <ul className="terrain-card__deps">
        {list.map((d) => (
          <li key={d.id}>
            <button type="button" className="terrain-card__link" onClick={() => onSelect(other(d))}>
              {shortId(other(d))}
            </button>{' '}
            <span className="muted">
              {d.type}
              {d.label ? ` (${d.label})` : ''} · {d.source}
              {d.health !== 'healthy' ? ` · ${d.health}` : ''}
            </span>
          </li>
        ))}
      </ul>
    );
  return (
    <aside className="terrain-card" aria-labelledby="terrain-card-title">
      <header className="terrain-card__head">
        <h2 id="terrain-card-title" ref={heading} tabIndex={-1}>
          {n.repo_id}
        </h2>
        <button type="button" onClick={onClose} aria-label="Close the card">
          ×
        </button>
      </header>
      <p className="terrain-card__state">
        <Badge tone={n.local_status === 'synced' ? 'ok' : 'warn'}>
          {n.local_status.replaceAll('_', ' ')}
        </Badge>{' '}
        {n.visual.state_label}
      </p>
      {n.description ? <p className="muted">{n.description}</p> : null}
      <dl className="terrain-card__facts">
        {row('Repository', <code>{n.repo_id}</code>)}
        {row('Project', n.project_name)}
        {row('Path', <code>{n.repo_path}</code>)}
        {n.url ? row('URL', <code>{n.url}</code>) : null}
        {row('Git', gitSummary(n, detail))}
        {n.activity
          ? row(
              'Activity',
              `${n.activity.level}: ${n.activity.commits_24h} commits in 24 h, ${n.activity.commits_7d} in 7 days`,
            )
          : null}
        {row('CI', ciSummary(n))}
        {row(
          'Owner',
          n.ownership
            ? `${n.ownership.key}${n.ownership.source === 'project_tags' ? ' (from the project)' : ''}`
            : 'no team or owner tag',
        )}
        {row('Agent readiness', agentSummary(n))}
        {tags.length ? row('Tags', tags.join(' ')) : null}
        {row(
          'Depends on',
          depList(out, (d) => d.to_id),
        )}
        {row(
          'Used by',
          depList(inn, (d) => d.from_id),
        )}
      </dl>
    </aside>
  );
});
