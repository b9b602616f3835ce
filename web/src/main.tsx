import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createQueryClient } from './api/query-client';
import { signInFromFragment } from './api/sign-in';
import { adoptTokenFromFragment } from './api/token';
import { App } from './shell/app';
import { applyTheme, storedTheme } from './shell/theme';
import './styles.css';

// Before the first render: take the token (or the sign-in code of `--open`, traded for it) out of the address bar,
// and set the theme so nothing flashes.
adoptTokenFromFragment();
applyTheme(storedTheme());

function render(): void {
  const root = document.getElementById('root');
  if (!root) return;
  createRoot(root).render(
    <StrictMode>
      <QueryClientProvider client={createQueryClient()}>
        <App />
      </QueryClientProvider>
    </StrictMode>,
  );
}

void signInFromFragment().finally(render);
