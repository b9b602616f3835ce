import type { DeclaredCommand } from '../repo-commands/index.js';
import type { RepoCard } from './card.js';
import type { CardEdge, CardEdges } from './card-edges.js';
import type { WorkspaceMap } from './map.js';
import type { ContextPack, PackDigest } from './pack.js';

/** Keys of the envelope; every other key of a pack is a compile section. */
const ENVELOPE = new Set([
  'ok',
  'tier',
  'workspace_name',
  'map',
  'cards',
  'digest',
  'dropped_sections',
  'max_tokens',
  'token_estimate',
]);

// Text from checkouts (READMEs, commit subjects) may hold terminal control sequences: printed, never obeyed.
// biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to remove them
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
const clean = (s: string) => s.replace(CONTROL, '');
const cell = (s: string) =>
  clean(s)
    .replace(/\|/g, '\\|')
    .replace(/\s*\n\s*/g, ' ');

/** An inline code span that survives backticks in the text. */
function code(s: string): string {
  const text = clean(s).replace(/\s*\n\s*/g, ' ');
  const runs = text.match(/`+/g) ?? [];
  const fence = '`'.repeat(Math.max(0, ...runs.map((r) => r.length)) + 1);
  return fence.length > 1 || text.startsWith('`') || text.endsWith('`')
    ? `${fence} ${text} ${fence}`
    : `${fence}${text}${fence}`;
}

const tagText = (tags: Record<string, unknown> | undefined) =>
  tags
    ? Object.entries(tags)
        .map(([k, v]) => (v === true ? k : `${k}=${String(v)}`))
        .join(', ')
    : '';

const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function mapLines(map: WorkspaceMap): string[] {
  const out = ['## Map', ''];
  const c = map.counts;
  out.push(
    `Root ${code(map.root)}, manifest ${code(map.manifest)}: ${count(c.projects, 'project')}, ${count(c.repos, 'repository', 'repositories')}, ${count(c.components, 'component')}${map.active_project ? `; active project ${map.active_project}` : ''}.`,
  );
  if (map.projects.length > 0) {
    out.push('');
    for (const p of map.projects) {
      const extra = [p.description ? clean(p.description) : '', tagText(p.tags)].filter(Boolean).join(' · ');
      out.push(
        `- **${cell(p.name)}** (${count(p.repo_count, 'repository', 'repositories')})${extra ? `: ${extra}` : ''}`,
      );
    }
  }
  if (map.repos.length > 0) {
    out.push('', '| repository | path | status | tags |', '|---|---|---|---|');
    for (const r of map.repos)
      out.push(
        `| ${cell(`${r.project}/${r.repo}`)} | ${cell(r.path)} | ${r.status} | ${cell(tagText(r.tags))} |`,
      );
  }
  const last = map.offset + map.repos.length;
  out.push(
    '',
    `Repositories ${map.repos.length ? `${map.offset + 1}-${last}` : 'none'} of ${map.total}${map.next_offset !== null ? `; the next page starts at --map-offset ${map.next_offset}` : ''}.`,
  );
  return out;
}

function commandLine(c: DeclaredCommand): string {
  const what = c.kind ?? c.name ?? 'command';
  const named = c.kind && c.name ? ` (${cell(c.name)})` : '';
  return `- ${what}${named}: ${code(c.command)}${c.dir ? ` in ${code(c.dir)}` : ''}, from ${code(c.source)}`;
}

function edgeLine(e: CardEdge, arrow: string): string {
  const ends =
    e.from_component || e.to_component
      ? `component ${e.from_component ?? '(repository)'} -> ${e.to_component ?? '(repository)'}`
      : '';
  const why = [
    e.source,
    e.label ? clean(e.label) : '',
    e.relationship_id ? `relationship ${e.relationship_id}` : '',
    e.status ? e.status : '',
    ends,
    e.evidence ? `${code(e.evidence)}${e.evidence_count ? ` and ${e.evidence_count - 1} more` : ''}` : '',
  ]
    .filter(Boolean)
    .join('; ');
  return `- ${arrow} ${cell(e.repo)} ${e.type} (${why})`;
}

/** Lines for a repository's (or a component's) edges: what it depends on, then what depends on it. */
function edgeLines(edges: CardEdges): string[] {
  const out: string[] = [];
  for (const [dir, list, total, arrow, title] of [
    ['out', edges.out, edges.out_total, '->', 'Depends on or calls'],
    ['in', edges.in, edges.in_total, '<-', 'Used by'],
  ] as const) {
    if (list.length === 0) {
      out.push(
        `${title}: nothing ${dir === 'out' ? 'in the workspace graph' : 'the workspace graph knows of'}.`,
      );
      continue;
    }
    out.push(`${title}:`, ...list.map((e) => edgeLine(e, arrow)));
    if (total !== undefined) out.push(`- ... ${total - list.length} more`);
  }
  return out;
}

function cardLines(card: RepoCard): string[] {
  const out = [`## ${cell(`${card.project}/${card.repo}`)}`, ''];
  const git = card.is_git_repo
    ? [
        `branch ${card.branch ?? '(detached)'}`,
        card.dirty ? `${card.changes} uncommitted change(s)` : 'clean',
        card.ahead ? `${card.ahead} ahead` : '',
        card.behind ? `${card.behind} behind` : '',
      ]
        .filter(Boolean)
        .join(', ')
    : card.exists
      ? 'not a git repository'
      : 'not checked out';
  out.push(`${code(card.path)}: ${card.status}, ${git}.`);
  if (card.last_commit)
    out.push(
      `Head ${card.last_commit.sha} "${clean(card.last_commit.subject)}"${card.head_commit_age_days !== null ? `, ${card.head_commit_age_days} day(s) old` : ''}${card.earlier_subjects?.length ? `; before it: ${card.earlier_subjects.map((s) => `"${clean(s)}"`).join(', ')}` : ''}.`,
    );
  if (card.description) out.push(`Description: ${clean(card.description)}`);
  if (card.readme) out.push(`README: ${clean(card.readme)}`);
  if (card.agent_instructions) out.push(`Instructions: ${clean(card.agent_instructions)}`);
  if (card.url)
    out.push(
      `URL: ${clean(card.url)}${card.default_branch ? ` (default branch ${card.default_branch})` : ''}`,
    );
  if (card.tags) out.push(`Tags: ${tagText(card.tags)}`);
  if (card.stack_hints.length)
    out.push(
      `Stack: ${card.stack_hints.map((h) => (typeof h === 'string' ? h : `${h.stack} (${clean(h.file)})`)).join(', ')}`,
    );
  if (card.ci)
    out.push(
      `CI: ${card.ci.provider ?? 'unknown'}${card.ci.config ? ` ${code(card.ci.config)}` : ''} (${card.ci.source})${card.ci.workflows?.length ? `, workflows ${card.ci.workflows.map(clean).join(', ')}` : ''}`,
    );
  if (card.health_flags.length) out.push(`Flags: ${card.health_flags.join(', ')}`);
  if (card.agent_files?.length) out.push(`Agent files: ${card.agent_files.map(clean).join(', ')}`);
  if (card.top_level?.length) out.push(`Top level: ${card.top_level.map(clean).join(', ')}`);
  if (card.error) out.push(`Error: ${clean(card.error)}`);
  if (card.commands) {
    out.push('', '### Commands', '');
    if (card.commands.length === 0) out.push('None declared.');
    out.push(...card.commands.map(commandLine));
    if (card.commands_total !== undefined)
      out.push(`- ... ${card.commands_total - card.commands.length} more`);
  }
  if (card.edges) out.push('', '### Edges', '', ...edgeLines(card.edges));
  if (card.components?.length) {
    out.push('', '### Components', '');
    for (const c of card.components) {
      const about = [c.kind, Array.isArray(c.language) ? c.language.join('/') : c.language]
        .filter(Boolean)
        .join(', ');
      out.push(`- ${cell(c.name)} ${code(c.path)}${about ? `: ${about}` : ''}`);
    }
    if (card.components_total !== undefined)
      out.push(`- ... ${card.components_total - card.components.length} more`);
  }
  return out;
}

function digestLines(d: PackDigest): string[] {
  const out = [
    '## Changes since the last session',
    '',
    d.first_session
      ? 'First session: no earlier boundary.'
      : `Since ${d.since}${d.manifest_changed ? '; the manifest changed' : ''}.`,
  ];
  if (d.active_objective_id) out.push(`Active objective: ${d.active_objective_id}.`);
  for (const c of d.repo_changes) {
    const subjects = c.recent_subjects?.length
      ? `: ${c.recent_subjects.map((s) => `"${clean(s)}"`).join(', ')}`
      : '';
    out.push(
      `- ${cell(c.repository)}: ${c.commit_count} commit(s)${subjects}${c.dirty ? '; uncommitted changes' : ''}${c.error ? `; ${clean(c.error)}` : ''}`,
    );
  }
  out.push(`${d.unchanged} repositories unchanged.`);
  return out;
}

const isCommandList = (v: unknown): v is DeclaredCommand[] =>
  Array.isArray(v) && v.every((x) => typeof x === 'object' && x !== null && 'command' in x && 'source' in x);
const isEdges = (v: unknown): v is CardEdges =>
  typeof v === 'object' &&
  v !== null &&
  Array.isArray((v as CardEdges).out) &&
  Array.isArray((v as CardEdges).in);

const isScalar = (v: unknown) => v === null || ['string', 'number', 'boolean'].includes(typeof v);

/** One line per field: scalars and lists of scalars as text, anything deeper as compact JSON. */
function fieldLines(value: Record<string, unknown>): string[] {
  return Object.entries(value).map(([k, v]) => {
    if (isScalar(v)) return `- ${k}: ${clean(String(v))}`;
    if (Array.isArray(v) && v.every(isScalar))
      return `- ${k}: ${v.length ? v.map((x) => clean(String(x))).join(', ') : '(none)'}`;
    if (Array.isArray(v) && v.length > 0)
      return [`- ${k}:`, ...v.map((x) => `  - ${code(JSON.stringify(x))}`)].join('\n');
    return `- ${k}: ${code(JSON.stringify(v))}`;
  });
}

/** A compile section: commands and edges as lists, an object field by field, anything else as its JSON. */
function sectionLines(key: string, value: unknown): string[] {
  const out = [`## ${key}`, ''];
  if (value === null) out.push('Dropped to fit the budget.');
  else if (isCommandList(value)) out.push(...(value.length ? value.map(commandLine) : ['None declared.']));
  else if (isEdges(value)) out.push(...edgeLines(value));
  else if (typeof value === 'object' && !Array.isArray(value))
    out.push(...fieldLines(value as Record<string, unknown>));
  else out.push(`- ${code(JSON.stringify(value))}`);
  return out;
}

/** The three-line summary of a pack: size and budget, the map page, and what the cards and budget left out. */
export function packSummary(p: ContextPack): string {
  const map = p.map;
  return [
    `tier ${p.tier} pack of ${p.workspace_name ?? 'workspace'}: ${p.token_estimate} tokens${p.max_tokens ? ` (max ${p.max_tokens})` : ''}${p.digest ? `, ${p.digest.repo_changes.length} changed repo(s) since ${p.digest.since ?? 'the beginning'}` : ''}`,
    map
      ? `map: ${map.repos.length} of ${map.total} repos from ${map.offset}${map.next_offset !== null ? `, next page --map-offset ${map.next_offset}` : ''}; cards: ${p.cards.length ? p.cards.map((c) => `${c.project}/${c.repo}`).join(', ') : 'none'}`
      : `cards: ${p.cards.length ? p.cards.map((c) => `${c.project}/${c.repo}`).join(', ') : 'none'}`,
    `dropped: ${p.dropped_sections.length ? p.dropped_sections.join(', ') : 'nothing'}`,
  ].join('\n');
}

/**
 * A pack as Markdown for a person: compile sections, the map, one section per card (its commands and edges
 * included), the digest; then the summary. The content is the fitted pack's, so the budget's drops show here
 * too (the budget counts the JSON, not this text).
 */
export function packMarkdown(p: ContextPack): string {
  const out = [`# Context pack: ${cell(p.workspace_name ?? 'workspace')} (tier ${p.tier})`];
  for (const [key, value] of Object.entries(p)) {
    if (ENVELOPE.has(key) || key === 'compiled_context') continue;
    out.push('', ...sectionLines(key, value));
  }
  if (p.map) out.push('', ...mapLines(p.map));
  for (const card of p.cards) out.push('', ...cardLines(card));
  if (p.digest) out.push('', ...digestLines(p.digest));
  out.push('', '---', '', packSummary(p));
  return out.join('\n');
}
