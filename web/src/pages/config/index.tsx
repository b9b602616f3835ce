// First version of Config Studio (the config engineer replaces it): which manifest is served and its size.
import { useRoute } from '../../api/query';
import { QueryState } from '../../components/query-state';

interface HubConfigView {
  file: string;
  repo_count: number;
  view: string;
}

export default function ConfigPage() {
  const config = useRoute<HubConfigView>('/v3/config/hub');
  return (
    <section>
      <h1>Config Studio</h1>
      <QueryState query={config} label="Loading the manifest…">
        {(c) => (
          <p>
            Manifest <code>{c.file}</code> with {c.repo_count} repositories.
          </p>
        )}
      </QueryState>
    </section>
  );
}
