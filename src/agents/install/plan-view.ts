import { createTwoFilesPatch } from 'diff';
import type { FileWritePlan } from './file-writer.js';

/** Content larger than this is left out of a dry run's answer (the patch still shows what changes). */
export const MAX_SHOWN_CONTENT = 64 * 1024;

/** A planned file as the surfaces show it. */
export interface FileWriteView {
  path: string;
  action: FileWritePlan['action'];
  reason: string;
  rule?: string;
  forceable?: boolean;
  /** Size of the content written (or that would be). */
  bytes: number;
  /** With detail: the content (up to 64 KiB), and for a file that exists the unified diff from it. */
  content?: string;
  content_omitted?: boolean;
  patch?: string;
}

/** The view of a plan; `detail` (dry runs, conflicts) adds the content and the patch. */
export function viewPlan(plan: FileWritePlan, opts: { detail: boolean }): FileWriteView {
  const view: FileWriteView = {
    path: plan.path,
    action: plan.action,
    reason: plan.reason,
    ...(plan.rule ? { rule: plan.rule, forceable: plan.forceable ?? false } : {}),
    bytes: Buffer.byteLength(plan.content),
  };
  if (!opts.detail || plan.action === 'unchanged') return view;
  if (view.bytes <= MAX_SHOWN_CONTENT) view.content = plan.content;
  else view.content_omitted = true;
  const before = plan.previous?.toString('utf8');
  if (before !== undefined && plan.forceable !== false)
    view.patch = createTwoFilesPatch(plan.path, plan.path, before, plan.content, 'on disk', 'hub', {
      context: 2,
    });
  return view;
}
