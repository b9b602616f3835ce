// First version of the Agents page (the agents engineer replaces it): the template catalog's names.
import { useRoute } from '../../api/query';
import { QueryState } from '../../components/query-state';

interface Catalog {
  templates: Array<{ id: string; name: string; description: string }>;
}

export default function AgentsPage() {
  const catalog = useRoute<Catalog>('/v3/agents/catalog');
  return (
    <section>
      <h1>Agents</h1>
      <QueryState query={catalog} label="Loading the agent catalog…">
        {(c) => (
          <ul>
            {c.templates.map((t) => (
              <li key={t.id}>
                <strong>{t.name}</strong> <code>{t.id}</code>
              </li>
            ))}
          </ul>
        )}
      </QueryState>
    </section>
  );
}
