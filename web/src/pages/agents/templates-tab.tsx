// Templates: the catalog grouped by category (the taxonomy's order), and the chosen template's detail.
import { useId } from 'react';
import { type Catalog, type TemplateSummary, useCatalog } from '../../api/agents';
import { Badge } from '../../components/badge';
import { QueryState } from '../../components/query-state';
import { useSearchState } from '../../components/use-search-state';
import { TemplateDetail } from './template-detail';

export const SOURCE_TONE = { bundled: 'neutral', overlay: 'info', merged: 'warn' } as const;

/** Categories in catalog order, each with its templates by sort order then name. */
export function byCategory(catalog: Catalog): Array<{ name: string; templates: TemplateSummary[] }> {
  const byId = new Map(catalog.templates.map((t) => [t.id, t]));
  const seen = new Set<string>();
  const groups = [...catalog.taxonomy.categories]
    .sort((a, b) => a.sort_order - b.sort_order || a.name.localeCompare(b.name))
    .map((c) => ({
      name: c.name,
      templates: c.templates.flatMap((id) => {
        const t = byId.get(id);
        if (!t) return [];
        seen.add(id);
        return [t];
      }),
    }));
  // A template the taxonomy does not place (should not happen) still shows, under its own category.
  const rest = catalog.templates.filter((t) => !seen.has(t.id));
  if (rest.length > 0) groups.push({ name: 'Other', templates: rest });
  return groups.filter((g) => g.templates.length > 0);
}

function CatalogList({
  catalog,
  selected,
  onSelect,
}: {
  catalog: Catalog;
  selected: string | undefined;
  onSelect: (id: string) => void;
}) {
  const id = useId();
  return (
    <nav className="catalog" aria-label="Templates by category">
      {byCategory(catalog).map((g, i) => (
        <section key={g.name} className="catalog__group" aria-labelledby={`${id}-${i}`}>
          <h2 id={`${id}-${i}`} className="catalog__category">
            {g.name} <span className="muted">({g.templates.length})</span>
          </h2>
          <ul>
            {g.templates.map((t) => (
              <li key={t.id}>
                <button
                  type="button"
                  className="catalog__item"
                  aria-current={t.id === selected ? 'true' : undefined}
                  onClick={() => onSelect(t.id)}
                >
                  <span className="catalog__name">
                    {t.name} <Badge>{t.scope}</Badge>
                  </span>
                  <span className="catalog__meta">
                    <code>{t.id}</code>
                    <Badge tone={SOURCE_TONE[t.source] ?? 'neutral'}>{t.source}</Badge>
                  </span>
                </button>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </nav>
  );
}

export function TemplatesTab() {
  const catalog = useCatalog();
  const [params, setParams] = useSearchState();
  return (
    <QueryState query={catalog} label="Loading the agent template catalog…">
      {(c) => {
        const selected = c.templates.find((t) => t.id === params.get('template')) ?? c.templates[0];
        return (
          <div className="templates">
            {c.problems.length > 0 && (
              <div className="templates__problems" role="alert">
                <strong>Overlay problems</strong>
                <ul>
                  {c.problems.map((p) => (
                    <li key={`${p.file ?? ''}:${p.line ?? ''}:${p.message}`}>
                      {p.file ? <code>{`${p.file}${p.line ? `:${p.line}` : ''}`}</code> : null} {p.message}
                    </li>
                  ))}
                </ul>
              </div>
            )}
            <CatalogList
              catalog={c}
              selected={selected?.id}
              onSelect={(id) => setParams({ template: id }, { replace: true })}
            />
            {selected ? (
              <TemplateDetail key={selected.id} template={selected} vendors={c.taxonomy.vendors} />
            ) : (
              <p className="muted">The catalog has no templates.</p>
            )}
          </div>
        );
      }}
    </QueryState>
  );
}
