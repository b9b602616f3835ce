// The six pages: path, navigation label, and the page module, loaded on first visit so the first page's
// JavaScript stays small (terrain's three.js or the code editor load only with their page).
import { type ComponentType, type LazyExoticComponent, lazy } from 'react';

export interface PageRoute {
  path: string;
  label: string;
  component: LazyExoticComponent<ComponentType>;
}

export const PAGES: readonly PageRoute[] = [
  { path: '/workspace', label: 'Workspace', component: lazy(() => import('./pages/workspace/index')) },
  { path: '/config', label: 'Config Studio', component: lazy(() => import('./pages/config/index')) },
  { path: '/agents', label: 'Agents', component: lazy(() => import('./pages/agents/index')) },
  { path: '/terrain', label: 'Terrain', component: lazy(() => import('./pages/terrain/index')) },
  { path: '/console', label: 'Console', component: lazy(() => import('./pages/console/index')) },
  { path: '/campaigns', label: 'Campaigns', component: lazy(() => import('./pages/campaigns/index')) },
];

export const HOME = '/workspace';
