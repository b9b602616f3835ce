// Every campaign of the workspace with its status and progress, in a virtualised table (a workspace may hold up
// to 1,000 campaign files). The filter box narrows it by slug, title or status; in the box, Down and Up move the
// selection through the rows shown (the selection is the page's `?campaign=`), Escape clears the filter.
import { type KeyboardEvent, useId, useMemo } from 'react';
import { Link } from 'wouter';
import type { CampaignList, CampaignSummary } from '../../api/campaigns';
import { Badge, type BadgeTone } from '../../components/badge';
import { type Column, VirtualTable } from '../../components/virtual-table';
import { Progress } from './progress';

export const CAMPAIGN_TONE: Record<CampaignSummary['status'], BadgeTone> = {
  draft: 'neutral',
  active: 'info',
  completed: 'ok',
  archived: 'neutral',
};

export const campaignHref = (slug: string) => `~/campaigns?campaign=${encodeURIComponent(slug)}`;

function matches(c: CampaignSummary, words: string[]): boolean {
  const hay = `${c.slug} ${c.title} ${c.status}`.toLowerCase();
  return words.every((w) => hay.includes(w));
}

export function CampaignListView({
  data,
  selected,
  filter,
  onFilter,
  onSelect,
}: {
  data: CampaignList;
  selected: string | undefined;
  filter: string;
  onFilter: (q: string) => void;
  onSelect: (slug: string) => void;
}) {
  const id = useId();
  const rows = useMemo(() => {
    const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
    return words.length ? data.campaigns.filter((c) => matches(c, words)) : data.campaigns;
  }, [data.campaigns, filter]);
  const at = rows.findIndex((c) => c.slug === selected);
  const columns: Column<CampaignSummary>[] = useMemo(
    () => [
      {
        key: 'campaign',
        header: 'Campaign',
        minWidth: '12rem',
        render: (c) => (
          <span className="cmp-list__name" title={`${c.title}\n${c.file}`}>
            <Link
              href={campaignHref(c.slug)}
              aria-current={c.slug === selected ? 'true' : undefined}
              className={c.slug === selected ? 'cmp-list__link is-selected' : 'cmp-list__link'}
            >
              {c.slug}
            </Link>{' '}
            <span className="muted">{c.title}</span>
          </span>
        ),
      },
      {
        key: 'status',
        header: 'Status',
        width: '6.5rem',
        render: (c) => <Badge tone={CAMPAIGN_TONE[c.status]}>{c.status}</Badge>,
      },
      { key: 'progress', header: 'Merged', width: '10rem', render: (c) => <Progress counts={c} /> },
      { key: 'repos', header: 'Repos', width: '5rem', render: (c) => c.repo_count },
      { key: 'open', header: 'MR open', width: '6.5rem', render: (c) => c.open_mr_count },
      {
        key: 'blocked',
        header: 'Blocked',
        width: '6rem',
        render: (c) =>
          c.blocked_count > 0 ? <Badge tone="danger">{c.blocked_count}</Badge> : c.blocked_count,
      },
    ],
    [selected],
  );
  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Escape') {
      onFilter('');
      return;
    }
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    e.preventDefault();
    if (rows.length === 0) return;
    const next = at < 0 ? 0 : Math.min(rows.length - 1, Math.max(0, at + (e.key === 'ArrowDown' ? 1 : -1)));
    onSelect(rows[next]!.slug);
  };
  return (
    <section className="panel cmp-list" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>
        Campaigns{' '}
        <span className="muted">
          (
          {rows.length === data.campaigns.length ? rows.length : `${rows.length} of ${data.campaigns.length}`}
          )
        </span>
      </h2>
      <div className="filter">
        <label htmlFor={`${id}-q`}>Filter</label>
        <input
          id={`${id}-q`}
          type="search"
          value={filter}
          placeholder="slug, title or status"
          aria-describedby={`${id}-hint`}
          onChange={(e) => onFilter(e.target.value)}
          onKeyDown={onKey}
        />
        <span id={`${id}-hint`} className="muted cmp-hint">
          ↓ ↑ select
        </span>
      </div>
      {data.problems.length > 0 && (
        <details className="cmp-problems">
          <summary>
            {data.problems.length} campaign file{data.problems.length === 1 ? '' : 's'} could not be read
          </summary>
          <ul>
            {data.problems.map((p) => (
              <li key={`${p.file}:${p.rule}`}>
                <code>{p.file}</code>: {p.message} <span className="muted">({p.rule})</span>
              </li>
            ))}
          </ul>
        </details>
      )}
      <VirtualTable
        rows={rows}
        columns={columns}
        rowKey={(c) => c.slug}
        label="Campaign list"
        height="40vh"
        scrollTo={at}
        empty={
          data.campaigns.length === 0
            ? 'No campaigns yet: start one with hub campaign new.'
            : 'No campaign matches the filter.'
        }
      />
    </section>
  );
}
