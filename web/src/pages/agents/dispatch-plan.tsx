// The dispatch plan of a template for a chosen repository (GET /v3/agents/templates/{id}/dispatch-plan, a pure
// read): whether the agent is installed, how to launch it, the context it reads first and what it must not touch.
import { type FormEvent, useId, useMemo, useState } from 'react';
import {
  type DispatchPlan,
  type PlanQuery,
  type TemplateSummary,
  useDispatchPlan,
  VENDOR_LABELS,
} from '../../api/agents';
import { useRepos } from '../../api/workspace';
import { Badge } from '../../components/badge';
import { QueryState } from '../../components/query-state';
import { RelativeTime } from '../../components/relative-time';
import { inFolder } from '../../components/shell-words';

function Command({ text, label }: { text: string; label: string }) {
  return (
    <pre className="command" title={label}>
      <code>{text}</code>
    </pre>
  );
}

function PlanView({ plan }: { plan: DispatchPlan }) {
  const own = plan.launch[plan.vendor];
  const others = Object.values(plan.launch).filter((l) => l.vendor !== plan.vendor);
  const where = plan.repo ? `${plan.project}/${plan.repo}` : (plan.project ?? 'the workspace');
  return (
    <div className="plan" aria-live="polite">
      <p>
        <strong>{plan.template.label}</strong> for {VENDOR_LABELS[plan.vendor] ?? plan.vendor} in{' '}
        <code>{where}</code>: {plan.task}
      </p>
      {plan.warnings.map((w) => (
        <p key={w} className="warn-note">
          {w}
        </p>
      ))}
      <h4>Install</h4>
      <p>
        {plan.install.installed ? (
          <Badge tone="ok">installed ({plan.install.installed_in})</Badge>
        ) : (
          <Badge tone="warn">not installed</Badge>
        )}{' '}
        <code>{plan.install.path}</code>
      </p>
      {/* The command installs where it runs (project scope: the nearest git repository), so it names the folder. */}
      {plan.install.needed && (
        <Command label="Install command" text={inFolder(plan.install.command, plan.install.cwd)} />
      )}
      <h4>Launch</h4>
      {own?.command ? (
        <Command label="Launch command" text={inFolder(own.command, own.cwd)} />
      ) : (
        <p>{own?.text}</p>
      )}
      {own && (
        <p className="muted small">
          {own.command ? own.text : ''} Source: {own.source}
        </p>
      )}
      {others.length > 0 && (
        <details>
          <summary>Other vendors ({others.length})</summary>
          <ul className="plan__others">
            {others.map((l) => (
              <li key={l.vendor}>
                <strong>{VENDOR_LABELS[l.vendor] ?? l.vendor}</strong>:{' '}
                <code>{l.command ? inFolder(l.command, l.cwd) : l.text}</code>
              </li>
            ))}
          </ul>
        </details>
      )}
      <h4>Context first (tier {plan.handoff.tier})</h4>
      <Command label="Context pack command" text={plan.handoff.context_pack_command} />
      <Command label="Hand-off prompt command" text={plan.handoff.prompt_command} />
      <details>
        <summary>Hand-off prompt</summary>
        <pre className="preview__content">{plan.handoff.prompt}</pre>
      </details>
      <h4>Out of scope</h4>
      <ul>
        <li>{plan.out_of_scope.repositories.count} other repositories</li>
        {plan.out_of_scope.claims.map((c) => (
          <li key={c.claim_id}>
            <code>{c.patterns.join(', ')}</code> claimed by <strong>{c.agent_id}</strong>, expires{' '}
            <RelativeTime iso={c.expires_at} empty="never" />
          </li>
        ))}
        {plan.out_of_scope.limits.map((l) => (
          <li key={l}>{l}</li>
        ))}
      </ul>
      {plan.missing_profile_skills && plan.missing_profile_skills.length > 0 && (
        <>
          <h4>Missing profile skills</h4>
          <p>{plan.missing_profile_skills.join(', ')}</p>
          {plan.profile_apply_command && (
            <Command label="Profile apply command" text={plan.profile_apply_command} />
          )}
        </>
      )}
    </div>
  );
}

/** `platform/identity` -> project and repo; `platform` -> project only; empty -> the workspace. */
export function targetOf(value: string): { project?: string; repo?: string } {
  const v = value.trim();
  if (!v) return {};
  const slash = v.indexOf('/');
  if (slash < 0) return { project: v };
  return { project: v.slice(0, slash), repo: v.slice(slash + 1) || undefined };
}

export function DispatchPlanPanel({ template, vendor }: { template: TemplateSummary; vendor: string }) {
  const id = useId();
  const repos = useRepos();
  const [target, setTarget] = useState('');
  const [task, setTask] = useState('');
  const [asked, setAsked] = useState<Omit<PlanQuery, 'vendor'> | undefined>(undefined);
  const query = asked ? { ...asked, vendor } : undefined;
  const plan = useDispatchPlan(template.id, query);
  const options = useMemo(() => {
    const rows = repos.data?.repos ?? [];
    return [...new Set(rows.map((r) => r.project)), ...rows.map((r) => r.id)];
  }, [repos.data]);
  const needs =
    template.scope === 'repo' ? 'a repository' : template.scope === 'project' ? 'a project' : undefined;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setAsked({ ...targetOf(target), ...(task.trim() ? { task: task.trim() } : {}) });
  };
  return (
    <section className="detail__section" aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`}>Dispatch plan</h3>
      <form className="plan-form" onSubmit={submit}>
        <label htmlFor={`${id}-target`}>
          Repository{needs ? '' : ' (optional)'}
          <input
            id={`${id}-target`}
            list={`${id}-targets`}
            value={target}
            placeholder="project/repo"
            required={needs !== undefined}
            onChange={(e) => setTarget(e.target.value)}
          />
        </label>
        <datalist id={`${id}-targets`}>
          {options.map((o) => (
            <option key={o} value={o} />
          ))}
        </datalist>
        <label htmlFor={`${id}-task`}>
          Task
          <input
            id={`${id}-task`}
            value={task}
            maxLength={2000}
            placeholder={template.name}
            onChange={(e) => setTask(e.target.value)}
          />
        </label>
        <button type="submit">Show plan</button>
      </form>
      {needs && !asked && (
        <p className="muted">
          This template is {template.scope}-scoped: choose {needs}.
        </p>
      )}
      {query && (
        <QueryState query={plan} label="Planning…">
          {(p) => <PlanView plan={p} />}
        </QueryState>
      )}
    </section>
  );
}
