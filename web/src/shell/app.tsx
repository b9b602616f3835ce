import { Suspense, useEffect, useRef, useSyncExternalStore } from 'react';
import { Redirect, Route, Switch, useLocation } from 'wouter';
import { isUnauthorized, subscribeUnauthorized } from '../api/auth-events';
import { ErrorBoundary } from '../components/error-boundary';
import { Loading } from '../components/loading';
import { HOME, PAGES } from '../routes';
import { Header } from './header';
import { TokenPrompt } from './token-prompt';

function NotFound() {
  return (
    <section>
      <h1>Page not found</h1>
      <p>
        Nothing lives at this address. Pick a page above, or go to the <a href={HOME}>Workspace</a>.
      </p>
    </section>
  );
}

/** The shell: header, the page of the current route (lazy, inside an error boundary), or the token prompt. */
export function App() {
  const [location] = useLocation();
  const needsToken = useSyncExternalStore(subscribeUnauthorized, isUnauthorized);
  const main = useRef<HTMLElement>(null);
  const first = useRef(true);
  // After a navigation, focus moves to the page so keyboard and screen-reader users start at its content.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every location change, by design.
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    main.current?.focus();
  }, [location]);
  const section = `/${location.split('/')[1] ?? ''}`;
  return (
    <div className="app">
      <Header />
      <main id="main" ref={main} tabIndex={-1} className="main">
        {needsToken ? (
          <TokenPrompt />
        ) : (
          <ErrorBoundary resetKey={section}>
            <Suspense fallback={<Loading />}>
              <Switch>
                <Route path="/">
                  <Redirect to={HOME} replace />
                </Route>
                {PAGES.map((p) => (
                  <Route key={p.path} path={p.path} nest>
                    <p.component />
                  </Route>
                ))}
                <Route>
                  <NotFound />
                </Route>
              </Switch>
            </Suspense>
          </ErrorBoundary>
        )}
      </main>
    </div>
  );
}
