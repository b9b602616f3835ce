// Explorer: the filter box (explorer-filter.ts syntax), the repositories that pass it in a virtualised table,
// and the selected repository's details and open actions. The filter runs on rows indexed once per load, so a
// keystroke costs a pass over precomputed lowercase strings plus a render of the rows in view.
import { type KeyboardEvent, useCallback, useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'wouter';
import type { GitIndex } from '../../api/workspace-page';
import { type Column, VirtualTable } from '../../components/virtual-table';
import { describeTerm, filterIndices, parseFilter } from './explorer-filter';
import { OpenStatus, RowOpenActions, useOpenAction } from './open-actions';
import { GitCell, Presence, TagList } from './repo-cells';
import { RepoDetails } from './repo-details';
import type { RepoIndex, WorkspaceRow } from './repo-index';

const ROW_HEIGHT = 34;
const URL_DELAY_MS = 250;

export function ExplorerView({ index, git }: { index: RepoIndex; git: GitIndex | undefined }) {
  const [params, setParams] = useSearchParams();
  const [text, setText] = useState(() => params.get('q') ?? '');
  const selectedId = params.get('repo');
  const { open, outcome, pending, clear } = useOpenAction();

  const filters = useMemo(() => index.rows.map((r) => r.filter), [index.rows]);
  const parsed = useMemo(() => parseFilter(text), [text]);
  const matched = useMemo(() => {
    if (parsed.terms.length === 0) return index.rows;
    return filterIndices(filters, parsed.terms).map((i) => index.rows[i]!);
  }, [filters, parsed, index.rows]);

  // The filter goes into the address (so a filtered view can be linked) a moment after typing stops.
  useEffect(() => {
    if ((params.get('q') ?? '') === text) return;
    const t = setTimeout(
      () =>
        setParams(
          (p) => {
            if (text) p.set('q', text);
            else p.delete('q');
            return p;
          },
          { replace: true },
        ),
      URL_DELAY_MS,
    );
    return () => clearTimeout(t);
  }, [text, params, setParams]);

  const select = useCallback(
    (id: string | null) =>
      setParams(
        (p) => {
          if (id) p.set('repo', id);
          else p.delete('repo');
          return p;
        },
        { replace: true },
      ),
    [setParams],
  );

  const selected = selectedId ? index.byId.get(selectedId) : undefined;
  const selectedIndex = selected ? matched.indexOf(selected) : -1;
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Escape' && text) {
      e.preventDefault();
      setText('');
      return;
    }
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    if (matched.length === 0) return;
    e.preventDefault();
    const next =
      selectedIndex < 0
        ? e.key === 'ArrowDown'
          ? 0
          : matched.length - 1
        : Math.min(matched.length - 1, Math.max(0, selectedIndex + (e.key === 'ArrowDown' ? 1 : -1)));
    select(matched[next]!.id);
  };

  const columns = useMemo<Column<WorkspaceRow>[]>(
    () => [
      {
        key: 'repo',
        header: 'Repository',
        width: '22%',
        render: (r) => (
          <button
            type="button"
            className="ws-rowbtn"
            aria-current={r.id === selectedId ? 'true' : undefined}
            onClick={() => select(r.id)}
            title={r.description ?? r.id}
          >
            {r.id}
          </button>
        ),
      },
      { key: 'presence', header: 'Presence', width: '6.5rem', render: (r) => <Presence row={r} /> },
      { key: 'git', header: 'Git', width: '11rem', render: (r) => <GitCell row={r} git={git} /> },
      {
        key: 'tags',
        header: 'Tags',
        wrap: true,
        minWidth: '14rem',
        render: (r) => <TagList tags={r.mergedTags} />,
      },
      {
        key: 'open',
        header: 'Open',
        width: '14rem',
        render: (r) => <RowOpenActions row={r} onOpen={open} pending={pending === r.id} />,
      },
    ],
    [selectedId, git, open, pending, select],
  );

  return (
    <div className="ws-explorer">
      <div className="ws-filter">
        <label htmlFor="ws-filter-input">Filter</label>
        <input
          id="ws-filter-input"
          type="search"
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKeyDown}
          placeholder="text  tag:key  #key  tag:key=value  project:name  status:synced|missing"
          aria-describedby="ws-filter-help ws-filter-count"
          autoComplete="off"
          spellCheck={false}
        />
        <p id="ws-filter-count" className="ws-filter__count" aria-live="polite">
          {matched.length === index.rows.length
            ? `${index.rows.length.toLocaleString('en')} repositories`
            : `${matched.length.toLocaleString('en')} of ${index.rows.length.toLocaleString('en')} repositories`}
          {!index.complete && ` (loading ${index.total.toLocaleString('en')})`}
        </p>
      </div>
      <p id="ws-filter-help" className="ws-filter__help muted">
        Terms combine (all must match): free text, <code>tag:key</code> or <code>#key</code>,{' '}
        <code>tag:key=value</code>, <code>project:name</code>, <code>status:synced</code> or{' '}
        <code>status:missing</code>. ↑ ↓ move the selection, Esc clears.
      </p>
      {(parsed.terms.length > 0 || parsed.problems.length > 0) && (
        <ul className="ws-chips" aria-label="Filter terms">
          {parsed.terms.map((t, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: terms are positional; the same term may repeat.
            <li key={i} className="ws-chip">
              {describeTerm(t)}
            </li>
          ))}
          {parsed.problems.map((p) => (
            <li key={p} className="ws-chip ws-chip--problem">
              {p}
            </li>
          ))}
        </ul>
      )}
      <OpenStatus outcome={outcome} onClear={clear} />
      <div className="ws-split">
        <div className="ws-split__main">
          <VirtualTable
            label="Explorer repositories"
            rows={matched}
            columns={columns}
            rowKey={(r) => r.id}
            rowHeight={ROW_HEIGHT}
            // A repository chosen elsewhere (Search, Graph, a link, the arrow keys) is scrolled into view.
            scrollTo={selectedIndex}
            height="calc(100vh - 19rem)"
            empty="No repository matches this filter."
          />
        </div>
        {selected ? (
          <RepoDetails row={selected} git={git} onOpen={open} pending={pending === selected.id} />
        ) : (
          <aside className="ws-details ws-details--empty muted">
            Select a repository (click its name, or ↓ in the filter box) to see its details and open actions.
          </aside>
        )}
      </div>
    </div>
  );
}
