import { type Catalog, didYouMean, suggestionText } from '../catalog/index.js';
import { HubError } from '../infra/index.js';
import type { SourceIssue } from '../model/index.js';
import { type CampaignFileProblem, type CampaignPlace, listCampaignFiles, readCampaign } from './files.js';
import { type Campaign, ROW_KEYS, rowRef } from './schema.js';

export type ProblemSeverity = 'error' | 'warning' | 'info';

export interface CampaignProblem {
  severity: ProblemSeverity;
  rule: string;
  /** Where in the document (`repos[2].repo`), `(file)` for the file itself. */
  path: string;
  message: string;
  line?: number;
}

/** The check of one campaign file. */
export interface CampaignCheck {
  slug: string;
  file: string;
  /** No error (warnings and infos do not make it invalid). */
  valid: boolean;
  problems: CampaignProblem[];
}

const isUrl = (s: string) => /^https?:\/\/\S+$/i.test(s);

/** What a loaded campaign says that the manifest does not back, and what hub reads differently. */
export function checkCampaign(
  campaign: Campaign,
  catalog: Catalog,
  extra: { legacy?: Array<{ path: string; was: string; now: string }>; unknown_keys?: string[] } = {},
): CampaignProblem[] {
  const problems: CampaignProblem[] = [];
  const known = catalog.repos.filter((r) => r.kind === 'workspace').map((r) => r.id);
  const knownSet = new Set(known);
  const missing = (path: string, ref: string) => {
    const suggestions = didYouMean(ref, known);
    problems.push({
      severity: 'error',
      rule: 'known_repository',
      path,
      message: `${path}: no repository '${ref}' in the manifest${suggestionText(suggestions)}`,
    });
  };
  const seen = new Map<string, number>();
  campaign.repos.forEach((row, i) => {
    const ref = rowRef(row);
    if (!knownSet.has(ref)) missing(`repos[${i}]`, ref);
    const first = seen.get(ref);
    if (first !== undefined)
      problems.push({
        severity: 'error',
        rule: 'duplicate_row',
        path: `repos[${i}]`,
        message: `repos[${i}]: ${ref} is already repos[${first}]; a repository has one row`,
      });
    else seen.set(ref, i);
    if (row.mr !== undefined && !isUrl(row.mr))
      problems.push({
        severity: 'warning',
        rule: 'mr_url',
        path: `repos[${i}].mr`,
        message: `repos[${i}].mr: '${row.mr.slice(0, 80)}' is not an http(s) URL`,
      });
    for (const k of Object.keys(row))
      if (!ROW_KEYS.has(k))
        problems.push({
          severity: 'warning',
          rule: 'unknown_key',
          path: `repos[${i}].${k}`,
          message: `repos[${i}]: unknown key '${k}' (kept as it is; the format has ${[...ROW_KEYS].join(', ')})`,
        });
  });
  if (campaign.reference_impl !== undefined && !knownSet.has(campaign.reference_impl))
    missing('reference_impl', campaign.reference_impl);
  for (const k of extra.unknown_keys ?? [])
    problems.push({
      severity: 'warning',
      rule: 'unknown_key',
      path: k,
      message: `unknown key '${k}' (kept as it is; a typo of a field hub reads?)`,
    });
  for (const l of extra.legacy ?? [])
    problems.push({
      severity: 'info',
      rule: 'legacy_spelling',
      path: l.path,
      message: `${l.path}: ${l.was} is an older spelling, read as ${l.now}; the next save writes it so`,
    });
  return problems;
}

function errorProblems(err: unknown): CampaignProblem[] {
  if (!(err instanceof HubError)) throw err;
  const issues = err.details?.issues as SourceIssue[] | undefined;
  if (Array.isArray(issues) && issues.length > 0)
    return issues.map((i) => ({
      severity: 'error' as const,
      rule: i.rule,
      path: i.path || '(file)',
      message: `${i.path ? `${i.path}: ` : ''}${i.message}`,
      ...(i.line === undefined ? {} : { line: i.line }),
    }));
  return [
    {
      severity: 'error',
      rule: String(err.details?.rule ?? err.code),
      path: String(err.details?.field ?? '(file)'),
      message: err.message,
      ...(typeof err.details?.line === 'number' ? { line: err.details.line } : {}),
    },
  ];
}

/** Checks one campaign file: a file that does not read or parse is a problem of its check, never a throw. */
export function checkCampaignFile(place: CampaignPlace, slug: string, catalog: Catalog): CampaignCheck {
  let problems: CampaignProblem[];
  let file = `${slug}.yml`;
  try {
    const loaded = readCampaign(place, slug);
    file = loaded.file;
    problems = checkCampaign(loaded.campaign, catalog, loaded);
  } catch (err) {
    if (err instanceof HubError && err.code === 'not_found') throw err;
    problems = errorProblems(err);
    const f = err instanceof HubError ? err.details?.file : undefined;
    if (typeof f === 'string') file = f;
  }
  return { slug, file, valid: !problems.some((p) => p.severity === 'error'), problems };
}

/** Checks every campaign file (or one); files left out of the listing are checks that failed. */
export function checkCampaigns(
  place: CampaignPlace,
  catalog: Catalog,
  slug?: string,
): { valid: boolean; campaigns: CampaignCheck[]; skipped: CampaignFileProblem[] } {
  if (slug !== undefined) {
    const one = checkCampaignFile(place, slug, catalog);
    return { valid: one.valid, campaigns: [one], skipped: [] };
  }
  const { files, problems } = listCampaignFiles(place);
  const campaigns = files.map((f) => checkCampaignFile(place, f.slug, catalog));
  return {
    valid: campaigns.every((c) => c.valid) && problems.length === 0,
    campaigns,
    skipped: problems,
  };
}
