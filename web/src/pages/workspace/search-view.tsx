// Search: manifest metadata (`GET /v2/workspace/search`: names, paths, tags, descriptions, urls) and file contents
// (`GET /v2/workspace/grep`), side by side; every result links to its repository in the Explorer. The query is
// in the address (?q=, &regex=1, &case=1) and runs on submit: a grep reads files, not something to run per key.
import { type FormEvent, useState } from 'react';
import { Link, useSearchParams } from 'wouter';
import { type GrepMatch, type SearchHit, useGrep, useMetadataSearch } from '../../api/workspace-page';
import { Badge } from '../../components/badge';
import { QueryState } from '../../components/query-state';
import { editorLinks } from './editors';
import type { RepoIndex } from './repo-index';

const explorerHref = (repoId: string) => `/explorer?repo=${encodeURIComponent(repoId)}`;

/** The repository a metadata hit belongs to (`project/repo` of a repo or component id), or none for a project. */
function repoOf(hit: SearchHit): string | null {
  if (hit.type === 'project') return null;
  const [p, r] = hit.id.split('/');
  return p && r ? `${p}/${r}` : null;
}

function HitLink({ hit }: { hit: SearchHit }) {
  const repo = repoOf(hit);
  if (repo) return <Link href={explorerHref(repo)}>{hit.id}</Link>;
  return <Link href={`/explorer?q=${encodeURIComponent(`project:${hit.id}`)}`}>{hit.id}</Link>;
}

function MetadataResults({ query }: { query: string }) {
  const q = useMetadataSearch(query);
  return (
    <section className="ws-search__col" aria-labelledby="ws-meta-title">
      <h2 id="ws-meta-title">Manifest {q.data && <span className="muted">({q.data.total})</span>}</h2>
      <QueryState query={q} label="Searching the manifest…">
        {(r) =>
          r.results.length === 0 ? (
            <p className="muted">No project, repository or component matches.</p>
          ) : (
            <ul className="ws-hits" aria-label="Manifest results">
              {r.results.map((h) => (
                <li key={`${h.type}:${h.id}`}>
                  <Badge tone={h.type === 'repo' ? 'info' : 'neutral'}>{h.type}</Badge> <HitLink hit={h} />
                  <span className="muted"> matched {h.matched.join(', ')}</span>
                </li>
              ))}
            </ul>
          )
        }
      </QueryState>
    </section>
  );
}

function groupByRepo(matches: readonly GrepMatch[]): Array<[string, GrepMatch[]]> {
  const groups = new Map<string, GrepMatch[]>();
  for (const m of matches) {
    const list = groups.get(m.repository) ?? [];
    list.push(m);
    groups.set(m.repository, list);
  }
  return [...groups];
}

function ContentResults({
  query,
  regex,
  ignoreCase,
  index,
}: {
  query: string;
  regex: boolean;
  ignoreCase: boolean;
  index: RepoIndex | undefined;
}) {
  const q = useGrep(query, { regex, ignoreCase });
  return (
    <section className="ws-search__col" aria-labelledby="ws-grep-title">
      <h2 id="ws-grep-title">Content {q.data && <span className="muted">({q.data.matches.length})</span>}</h2>
      <QueryState query={q} label="Searching file contents…">
        {(r) => (
          <>
            <p className="muted">
              {r.matches.length} matches in {r.repos_searched} checkouts ({r.backend})
              {r.truncated && `; the first ${r.limit} only`}
              {r.repos_missing.length > 0 && `; ${r.repos_missing.length} not on disk`}
            </p>
            {r.matches.length === 0 ? (
              <p className="muted">No file contains it.</p>
            ) : (
              <ul className="ws-grep" aria-label="Content results">
                {groupByRepo(r.matches).map(([repo, ms]) => {
                  const abs = index?.byId.get(repo)?.absPath;
                  return (
                    <li key={repo}>
                      <Link href={explorerHref(repo)} className="ws-grep__repo">
                        {repo}
                      </Link>
                      <ul className="ws-grep__lines">
                        {ms.map((m) => (
                          <li key={`${m.path}:${m.line}`}>
                            {abs ? (
                              <a
                                href={`${editorLinks(`${abs}/${m.path}`)[0]!.href}:${m.line}`}
                                title="Open this line in VS Code"
                              >
                                <code>
                                  {m.path}:{m.line}
                                </code>
                              </a>
                            ) : (
                              <code>
                                {m.path}:{m.line}
                              </code>
                            )}{' '}
                            <code className="ws-grep__text">{m.text.trim()}</code>
                          </li>
                        ))}
                      </ul>
                    </li>
                  );
                })}
              </ul>
            )}
          </>
        )}
      </QueryState>
    </section>
  );
}

export function SearchView({ index }: { index: RepoIndex | undefined }) {
  const [params, setParams] = useSearchParams();
  const query = params.get('q') ?? '';
  const regex = params.get('regex') === '1';
  const ignoreCase = params.get('case') !== '1';
  const [text, setText] = useState(query);
  const [re, setRe] = useState(regex);
  const [matchCase, setMatchCase] = useState(!ignoreCase);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const next = new URLSearchParams();
    if (text.trim()) next.set('q', text.trim());
    if (re) next.set('regex', '1');
    if (matchCase) next.set('case', '1');
    setParams(next);
  };
  return (
    <div className="ws-search">
      <search>
        <form className="ws-search__form" onSubmit={submit}>
          <label htmlFor="ws-search-input">Search</label>
          <input
            id="ws-search-input"
            type="search"
            value={text}
            onChange={(e) => setText(e.target.value)}
            placeholder="names, tags, descriptions, file contents"
          />
          <label className="ws-check">
            <input type="checkbox" checked={re} onChange={(e) => setRe(e.target.checked)} /> Regular
            expression
          </label>
          <label className="ws-check">
            <input type="checkbox" checked={matchCase} onChange={(e) => setMatchCase(e.target.checked)} />{' '}
            Match case
          </label>
          <button type="submit" className="primary">
            Search
          </button>
        </form>
      </search>
      {query ? (
        <div className="ws-search__results">
          <MetadataResults query={query} />
          <ContentResults query={query} regex={regex} ignoreCase={ignoreCase} index={index} />
        </div>
      ) : (
        <p className="muted">
          Searches the manifest (names, paths, tags, descriptions, urls) and the files of every checkout
          (dependency and build folders are skipped). Each result links to its repository in the Explorer.
        </p>
      )}
    </div>
  );
}
