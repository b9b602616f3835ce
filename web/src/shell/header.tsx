import { Link, useLocation } from 'wouter';
import { useWorkspaceSummary } from '../api/workspace';
import { PAGES } from '../routes';
import { useTheme } from './theme';

const THEME_LABEL = { system: 'Theme: system', light: 'Theme: light', dark: 'Theme: dark' } as const;

/** Top bar: workspace name, the five pages, and the theme toggle. */
export function Header() {
  const [location] = useLocation();
  const summary = useWorkspaceSummary();
  const { choice, next } = useTheme();
  return (
    <header className="header">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <div className="header__brand">
        <span className="header__logo" aria-hidden="true">
          ◆
        </span>
        <span className="header__name" data-testid="workspace-name">
          {summary.data?.workspace_name ?? 'hub'}
        </span>
      </div>
      <nav aria-label="Pages" className="header__nav">
        <ul>
          {PAGES.map((p) => {
            const current = location === p.path || location.startsWith(`${p.path}/`);
            return (
              <li key={p.path}>
                <Link href={p.path} className="nav-link" aria-current={current ? 'page' : undefined}>
                  {p.label}
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>
      <button
        type="button"
        className="header__theme"
        onClick={next}
        aria-label={`${THEME_LABEL[choice]} (change)`}
        title="Change theme: system, light, dark"
      >
        {choice === 'dark' ? '☾' : choice === 'light' ? '☀' : '◐'} <span>{choice}</span>
      </button>
    </header>
  );
}
