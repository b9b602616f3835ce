import type { VendorSpec } from '../vendors.js';
import { type AnswerFacts, checkAnswers } from './answers.js';
import { renderFile, type View } from './engine.js';
import { checkFrontMatter, type FrontMatter, frontMatterFor, withFrontMatter } from './front-matter.js';
import type { ResolvedTemplate } from './resolve.js';
import { BODY_FILE, FRAGMENT_FILE } from './schema.js';

export interface RenderedTemplate {
  template_id: string;
  vendor: string | null;
  /** The artifact's path relative to the vendor's folder (`<id>.md`, `<id>.agent.md`, `<id>/SKILL.md`). */
  filename: string;
  frontMatter: FrontMatter;
  body: string;
  /** The whole file: front-matter, then the body. */
  content: string;
  /** The AGENTS.md fragment, when the template has one and it renders to something. */
  fragment?: string;
  answers: Record<string, string>;
  defaulted: string[];
}

/** The view a `.tpl` renders with: built-ins, then the answers (input names never shadow built-ins). */
export function templateView(
  t: ResolvedTemplate,
  answers: Record<string, string>,
  vendor?: VendorSpec,
): View {
  const m = t.manifest;
  return {
    ...answers,
    id: m.id,
    name: m.name,
    description: m.description,
    scope: m.scope,
    category: m.ui.category,
    vendor: vendor?.id ?? '',
    vendor_label: vendor?.label ?? '',
    vendor_is_agent: vendor?.kind === 'agent',
    vendor_is_skill: vendor?.kind === 'skill',
  };
}

/** The file name a vendor gives this template's artifact. */
export function artifactName(id: string, vendor?: VendorSpec): string {
  if (!vendor) return `${id}.md`;
  return vendor.kind === 'skill' ? `${id}/SKILL.md` : `${id}${vendor.agentSuffix ?? '.md'}`;
}

/**
 * Renders a template for a vendor (or for export without one): answers checked and defaulted, body and fragment
 * rendered (unknown variables refused before rendering), the vendor's front-matter built and checked.
 */
export function renderTemplate(
  t: ResolvedTemplate,
  answers: Readonly<Record<string, unknown>> | undefined,
  opts: { vendor?: VendorSpec; facts?: AnswerFacts } = {},
): RenderedTemplate {
  const checked = checkAnswers(t, answers, opts.facts);
  const view = templateView(t, checked.values, opts.vendor);
  const body = renderFile(t, BODY_FILE, view);
  const frontMatter = frontMatterFor(t.manifest, opts.vendor);
  checkFrontMatter(frontMatter, opts.vendor, t.id, t.files.get(BODY_FILE)!.shown);
  const fragmentText = t.files.has(FRAGMENT_FILE) ? renderFile(t, FRAGMENT_FILE, view) : undefined;
  const fragment = fragmentText !== undefined && fragmentText.trim() !== '' ? fragmentText : undefined;
  return {
    template_id: t.id,
    vendor: opts.vendor?.id ?? null,
    filename: artifactName(t.id, opts.vendor),
    frontMatter,
    body,
    content: withFrontMatter(frontMatter, body),
    ...(fragment !== undefined ? { fragment } : {}),
    answers: checked.values,
    defaulted: checked.defaulted,
  };
}
