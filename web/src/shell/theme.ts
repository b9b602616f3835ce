// Light and dark: `system` follows prefers-color-scheme; the toggle's choice is kept in localStorage. The
// resolved theme is written to <html data-theme>, which the stylesheet reads (color-scheme + light-dark()).
import { useCallback, useEffect, useState } from 'react';

export type ThemeChoice = 'system' | 'light' | 'dark';
const KEY = 'hub.theme';
const ORDER: readonly ThemeChoice[] = ['system', 'light', 'dark'];

export function storedTheme(): ThemeChoice {
  try {
    const v = localStorage.getItem(KEY);
    return v === 'light' || v === 'dark' ? v : 'system';
  } catch {
    return 'system';
  }
}

export function applyTheme(choice: ThemeChoice): void {
  const root = document.documentElement;
  if (choice === 'system') delete root.dataset.theme;
  else root.dataset.theme = choice;
}

export function useTheme(): { choice: ThemeChoice; next: () => void } {
  const [choice, setChoice] = useState<ThemeChoice>(storedTheme);
  useEffect(() => {
    applyTheme(choice);
    try {
      if (choice === 'system') localStorage.removeItem(KEY);
      else localStorage.setItem(KEY, choice);
    } catch {
      // Storage may be disabled; the theme then lasts for this page only.
    }
  }, [choice]);
  const next = useCallback(
    () => setChoice((c) => ORDER[(ORDER.indexOf(c) + 1) % ORDER.length] ?? 'system'),
    [],
  );
  return { choice, next };
}
