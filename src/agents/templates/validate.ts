import { HubError } from '../../infra/index.js';
import { VENDOR_IDS, VENDORS } from '../vendors.js';
import { checkTemplateFile } from './engine.js';
import type { TemplateRoots } from './layers.js';
import { renderTemplate } from './render.js';
import {
  locate,
  type ResolvedTemplate,
  resolveTemplate,
  type TemplateIssue,
  type TemplateSource,
  templateIds,
} from './resolve.js';
import { BODY_FILE, BUILTIN_VARIABLES, checkTemplateId } from './schema.js';

export interface TemplateValidation {
  id: string;
  source?: TemplateSource;
  ok: boolean;
  issues: TemplateIssue[];
}

export interface ValidationReport {
  ok: boolean;
  templates: TemplateValidation[];
  /** Folders that are not templates (a bad name, a symlink out of the workspace). */
  problems: Array<{ file: string; message: string }>;
}

/** Issues a thrown error carries (the list of a template error, else the error itself). */
function issuesOf(err: HubError): TemplateIssue[] {
  const d = (err.details ?? {}) as { issues?: TemplateIssue[]; file?: string; line?: number; rule?: string };
  if (Array.isArray(d.issues) && d.issues.length > 0 && typeof d.issues[0]?.file === 'string')
    return d.issues;
  return [
    {
      file: d.file ?? '',
      ...(d.line ? { line: d.line } : {}),
      message: err.message,
      rule: d.rule ?? err.code,
    },
  ];
}

function checkTemplate(
  t: ResolvedTemplate,
  known: readonly string[],
  tools?: ReadonlySet<string>,
): TemplateIssue[] {
  const m = t.manifest;
  const issues: TemplateIssue[] = [];
  const declared = new Set<string>([...BUILTIN_VARIABLES, ...Object.keys(m.inputs)]);
  // The template's own files, every layer; bundled partials are checked where they are included.
  const own = new Set<string>([BODY_FILE]);
  for (const layer of t.layers) for (const name of layer.tpl.keys()) own.add(name);
  for (const name of [...own].sort()) issues.push(...checkTemplateFile(t, name, declared).issues);
  m.delegates_to.forEach((d, i) => {
    if (!known.includes(d))
      issues.push({
        ...locate(t.layers, ['delegates_to', i]),
        field: `delegates_to[${i}]`,
        message: `no agent template '${d}'`,
        rule: 'known_template',
      });
  });
  if (tools)
    m.mcp_tools.forEach((tool, i) => {
      if (!tools.has(tool))
        issues.push({
          ...locate(t.layers, ['mcp_tools', i]),
          field: `mcp_tools[${i}]`,
          message: `hub has no MCP tool '${tool}'`,
          rule: 'known_mcp_tool',
        });
    });
  if (issues.length > 0) return issues;
  // Every vendor renders: front-matter rules per vendor. Required answers without a default get a placeholder.
  const answers = Object.fromEntries(
    Object.entries(m.inputs)
      .filter(([, i]) => i.required && i.default === undefined)
      .map(([name]) => [name, `<${name}>`]),
  );
  for (const v of [undefined, ...VENDOR_IDS]) {
    try {
      renderTemplate(t, answers, {
        vendor: v ? VENDORS[v] : undefined,
        facts: { workspace_name: 'workspace' },
      });
    } catch (err) {
      if (!(err instanceof HubError)) throw err;
      issues.push(...issuesOf(err).map((i) => ({ ...i, message: `${v ?? 'export'}: ${i.message}` })));
      break;
    }
  }
  return issues;
}

const key = (i: TemplateIssue) => `${i.file}:${i.line}:${i.column}:${i.message}`;

/**
 * `agent validate`: each template (or the one named) loads and merges, its `.tpl` files parse and use only declared
 * variables and existing partials, `delegates_to` names templates that exist, `mcp_tools` names tools hub has (when
 * `tools` is given), and it renders for every vendor with front-matter that vendor accepts.
 */
export function validateTemplates(
  roots: TemplateRoots,
  opts: { id?: string; tools?: ReadonlySet<string> } = {},
): ValidationReport {
  const { ids, problems } = templateIds(roots);
  const wanted = opts.id === undefined ? ids : [checkTemplateId(opts.id)];
  const templates: TemplateValidation[] = [];
  for (const id of wanted) {
    let t: ResolvedTemplate;
    try {
      t = resolveTemplate(id, roots);
    } catch (err) {
      if (!(err instanceof HubError) || (opts.id !== undefined && err.code === 'not_found')) throw err;
      templates.push({ id, ok: false, issues: issuesOf(err) });
      continue;
    }
    const seen = new Set<string>();
    const issues = checkTemplate(t, ids, opts.tools).filter((i) => !seen.has(key(i)) && seen.add(key(i)));
    templates.push({ id, source: t.source, ok: issues.length === 0, issues });
  }
  const folderProblems =
    opts.id === undefined ? problems.map((p) => ({ file: p.folder, message: p.message })) : [];
  return {
    ok: templates.every((t) => t.ok) && folderProblems.length === 0,
    templates,
    problems: folderProblems,
  };
}
