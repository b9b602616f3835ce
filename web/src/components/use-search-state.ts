// Page state kept in the address's query string (`/agents?tab=objectives&template=...`), so a view can be linked
// and reloaded. The path stays `/agents`: the shell moves focus to the page on a path change, which would pull the
// focus out of a tab list being walked with the arrow keys.
import { useCallback, useMemo } from 'react';
import { useLocation, useSearch } from 'wouter';

export function useSearchState(): [
  URLSearchParams,
  (patch: Record<string, string | undefined>, opts?: { replace?: boolean }) => void,
] {
  const search = useSearch();
  const [, navigate] = useLocation();
  const params = useMemo(() => new URLSearchParams(search), [search]);
  const set = useCallback(
    (patch: Record<string, string | undefined>, opts: { replace?: boolean } = {}) => {
      const next = new URLSearchParams(window.location.search);
      for (const [k, v] of Object.entries(patch)) {
        if (v === undefined || v === '') next.delete(k);
        else next.set(k, v);
      }
      const qs = next.toString();
      navigate(qs ? `?${qs}` : '', { replace: opts.replace ?? false });
    },
    [navigate],
  );
  return [params, set];
}
