// The Workspace page: the toolbar toggle Repositories, Explorer, Search, Graph, each view at its own address
// (/workspace, /workspace/explorer, /workspace/search, /workspace/graph) so it can be linked. The repository
// index is loaded once for the page and shared by the views; the graph view (cytoscape) loads on first use.
import { lazy, type ReactNode, Suspense, useEffect, useRef } from 'react';
import { useLocation } from 'wouter';
import { ErrorBanner } from '../../components/error-banner';
import { Loading } from '../../components/loading';
import { Tabs } from '../../components/tabs';
import { ExplorerView } from './explorer-view';
import { useRepoIndex } from './repo-index';
import { RepositoriesView } from './repositories-view';
import { SearchView } from './search-view';
import './workspace.css';

const GraphView = lazy(() => import('./graph-view'));

type View = 'repositories' | 'explorer' | 'search' | 'graph';
const VIEWS = [
  { id: 'repositories', label: 'Repositories' },
  { id: 'explorer', label: 'Explorer' },
  { id: 'search', label: 'Search' },
  { id: 'graph', label: 'Graph' },
] as const;

function viewOf(location: string): View {
  const first = location.split('/')[1] ?? '';
  return VIEWS.some((v) => v.id === first) ? (first as View) : 'repositories';
}

export default function WorkspacePage() {
  const [location, navigate] = useLocation();
  const view = viewOf(location);
  const { list, index, git } = useRepoIndex();
  const page = useRef<HTMLElement>(null);
  const keepTabFocus = useRef(false);

  // The shell moves focus to the page after every address change; a tab chosen from the keyboard keeps it
  // (arrow keys walk the tabs), so it is given back once the shell is done.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the view changes.
  useEffect(() => {
    if (!keepTabFocus.current) return;
    keepTabFocus.current = false;
    const id = requestAnimationFrame(() =>
      page.current?.querySelector<HTMLElement>('[role="tab"][aria-selected="true"]')?.focus(),
    );
    return () => cancelAnimationFrame(id);
  }, [view]);

  const change = (v: View) => {
    if (v === view) return;
    keepTabFocus.current = document.activeElement?.getAttribute('role') === 'tab';
    navigate(`/${v}`);
  };

  const needsIndex = view === 'repositories' || view === 'explorer';
  let body: ReactNode;
  if (needsIndex && list.isError)
    body = <ErrorBanner error={list.error} onRetry={() => void list.refetch()} />;
  else if (needsIndex && !index) body = <Loading label="Loading repositories…" />;
  else if (view === 'repositories' && index)
    body = (
      <RepositoriesView
        index={index}
        git={git.index}
        gitLoading={git.isFetching}
        onRefresh={() => {
          void list.refetch();
          void git.refetch();
        }}
      />
    );
  else if (view === 'explorer' && index) body = <ExplorerView index={index} git={git.index} />;
  else if (view === 'search') body = <SearchView index={index} />;
  else
    body = (
      <Suspense fallback={<Loading label="Loading the graph view…" />}>
        <GraphView index={index} />
      </Suspense>
    );

  return (
    <section ref={page} className="ws">
      <h1>Workspace</h1>
      {git.isError && needsIndex && (
        <p className="muted" role="note">
          Git state could not be read ({git.error.message}); presence is still shown.
        </p>
      )}
      <Tabs tabs={VIEWS} value={view} onChange={change} label="Workspace views">
        {body}
      </Tabs>
    </section>
  );
}
