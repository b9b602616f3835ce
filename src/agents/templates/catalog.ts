import { VENDOR_IDS } from '../vendors.js';
import type { TemplateRoots } from './layers.js';
import { listTemplates, type ResolvedTemplate, type TemplateSource } from './resolve.js';
import { ARCHETYPES, TEMPLATE_SCOPES, type TemplateManifest } from './schema.js';

export interface CatalogEntry {
  id: string;
  name: string;
  description: string;
  archetype: TemplateManifest['archetype'];
  scope: TemplateManifest['scope'];
  status: TemplateManifest['status'];
  version: string;
  source: TemplateSource;
  /** The overlay folders in effect (relative to the workspace root), committed before local. */
  overlay_paths: string[];
  ui: TemplateManifest['ui'];
  recommended_skills: string[];
  external_skills: TemplateManifest['external_skills'];
  mcp_tools: string[];
  delegates_to: string[];
  /** Templates that delegate to this one (from their delegates_to). */
  delegated_by: string[];
  inputs: Array<{
    name: string;
    question: string;
    default?: string;
    default_from?: string;
    required: boolean;
  }>;
  /** Vendors the template has front-matter hints for (every vendor renders). */
  vendor_hints: string[];
}

export interface TemplateCatalog {
  schema_version: 1;
  templates: CatalogEntry[];
  taxonomy: {
    categories: Array<{ name: string; sort_order: number; templates: string[] }>;
    scopes: Array<{ name: string; templates: string[] }>;
    archetypes: Array<{ name: string; templates: string[] }>;
    sources: Array<{ name: TemplateSource; templates: string[] }>;
    vendors: string[];
  };
  /** Templates or folders that could not be read, with the file and line. */
  problems: Array<{ id?: string; file?: string; line?: number; message: string; rule: string }>;
}

export function catalogEntry(t: ResolvedTemplate, all: readonly ResolvedTemplate[]): CatalogEntry {
  const m = t.manifest;
  return {
    id: t.id,
    name: m.name,
    description: m.description,
    archetype: m.archetype,
    scope: m.scope,
    status: m.status,
    version: m.version,
    source: t.source,
    overlay_paths: t.layers.filter((l) => l.origin !== 'bundled').map((l) => l.shownDir),
    ui: m.ui,
    recommended_skills: m.recommended_skills,
    external_skills: m.external_skills,
    mcp_tools: m.mcp_tools,
    delegates_to: m.delegates_to,
    delegated_by: all.filter((o) => o.manifest.delegates_to.includes(t.id)).map((o) => o.id),
    inputs: Object.entries(m.inputs).map(([name, i]) => ({
      name,
      question: i.question,
      ...(i.default !== undefined ? { default: String(i.default) } : {}),
      ...(i.default_from ? { default_from: i.default_from } : {}),
      required: i.required,
    })),
    vendor_hints: Object.keys(m.vendors).sort(),
  };
}

const group = <K extends string>(names: readonly K[], key: (t: CatalogEntry) => K, entries: CatalogEntry[]) =>
  names.map((name) => ({ name, templates: entries.filter((e) => key(e) === name).map((e) => e.id) }));

/** The catalog: every template (sorted by ui.sort_order, then id) with its source, and the taxonomy. */
export function templateCatalog(roots: TemplateRoots): TemplateCatalog {
  const { templates, problems } = listTemplates(roots);
  const entries = templates.map((t) => catalogEntry(t, templates));
  const categories: TemplateCatalog['taxonomy']['categories'] = [];
  for (const e of entries) {
    const found = categories.find((c) => c.name === e.ui.category);
    if (found) found.templates.push(e.id);
    else categories.push({ name: e.ui.category, sort_order: e.ui.sort_order, templates: [e.id] });
  }
  return {
    schema_version: 1,
    templates: entries,
    taxonomy: {
      categories,
      scopes: group(TEMPLATE_SCOPES, (e) => e.scope, entries),
      archetypes: group(ARCHETYPES, (e) => e.archetype, entries),
      sources: group(['bundled', 'overlay', 'merged'] as const, (e) => e.source, entries),
      vendors: [...VENDOR_IDS],
    },
    problems,
  };
}
