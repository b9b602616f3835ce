// First version of the Terrain page (the terrain engineer replaces it): the manifest-level terrain's counts.
import { useRoute } from '../../api/query';
import { QueryState } from '../../components/query-state';

interface Terrain {
  total: number;
  node_count: number;
  projects: Array<{ name: string; repo_count: number }>;
}

export default function TerrainPage() {
  const terrain = useRoute<Terrain>('/v3/ops/terrain', { detail: 'manifest' });
  return (
    <section>
      <h1>Terrain</h1>
      <QueryState query={terrain} label="Loading the terrain…">
        {(t) => (
          <>
            <p>{t.total} repositories</p>
            <ul>
              {t.projects.map((p) => (
                <li key={p.name}>
                  {p.name}: {p.repo_count}
                </li>
              ))}
            </ul>
          </>
        )}
      </QueryState>
    </section>
  );
}
