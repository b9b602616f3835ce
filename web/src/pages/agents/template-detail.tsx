// One template: what it is, its rendered artifact for each of the eight vendors, a dispatch plan for a chosen
// repository, and the team overlay init (a write, confirmed first).
import { useId, useState } from 'react';
import { type TemplateSummary, useOverlayInit, usePreview, VENDOR_LABELS } from '../../api/agents';
import { Badge } from '../../components/badge';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { QueryState } from '../../components/query-state';
import { commandLine } from '../../components/shell-words';
import { useSearchState } from '../../components/use-search-state';
import { DispatchPlanPanel } from './dispatch-plan';
import { SOURCE_TONE } from './templates-tab';

function VendorPicker({
  vendors,
  value,
  onChange,
}: {
  vendors: readonly string[];
  value: string;
  onChange: (v: string) => void;
}) {
  const name = useId();
  return (
    <fieldset className="vendor-picker">
      <legend>Vendor</legend>
      {vendors.map((v) => (
        <label key={v} className="vendor-picker__option">
          <input type="radio" name={name} value={v} checked={v === value} onChange={() => onChange(v)} />
          {VENDOR_LABELS[v] ?? v}
        </label>
      ))}
    </fieldset>
  );
}

/**
 * `hub agent create` in both scopes, complete (the CLI requires `--scope`): project scope installs into the git
 * repository of the folder it runs in, so it is labelled as such (the dispatch plan gives it with the `cd`); user
 * scope runs anywhere.
 */
function InstallCommands({ template, vendor }: { template: TemplateSummary; vendor: string }) {
  const create = (scope: 'project' | 'user') =>
    commandLine([
      'hub',
      'agent',
      'create',
      template.id,
      '--vendor',
      vendor,
      '--scope',
      scope,
      template.recommended_skills.length > 0 && '--install-skills',
    ]);
  return (
    <dl className="install-commands">
      <dt>Install in a repository (run in its checkout)</dt>
      <dd>
        <code data-testid="install-project">{create('project')}</code>
      </dd>
      <dt>Install for yourself, in every repository (your home folder)</dt>
      <dd>
        <code data-testid="install-user">{create('user')}</code>
      </dd>
    </dl>
  );
}

function Preview({ id, vendor }: { id: string; vendor: string }) {
  const preview = usePreview(id, vendor);
  return (
    <QueryState query={preview} label={`Rendering for ${VENDOR_LABELS[vendor] ?? vendor}…`}>
      {(p) => (
        <div className="preview">
          <p className="preview__file">
            <code>{p.filename}</code> <Badge>{p.source}</Badge>
            {p.defaulted.length > 0 && (
              <span className="muted"> defaults used for: {p.defaulted.join(', ')}</span>
            )}
          </p>
          <section
            className="preview__content"
            // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be focusable to scroll by keyboard.
            tabIndex={0}
            aria-label={`Preview of ${p.filename}`}
          >
            <pre>{p.content}</pre>
          </section>
          {p.fragment && (
            <details>
              <summary>AGENTS.md fragment</summary>
              <pre className="preview__content">{p.fragment}</pre>
            </details>
          )}
        </div>
      )}
    </QueryState>
  );
}

function OverlayInit({ template }: { template: TemplateSummary }) {
  const [open, setOpen] = useState(false);
  const [mode, setMode] = useState<'full' | 'minimal'>('full');
  const [force, setForce] = useState(false);
  const init = useOverlayInit();
  const modeName = useId();
  return (
    <section className="detail__section" aria-labelledby={`${modeName}-h`}>
      <h3 id={`${modeName}-h`}>Team overlay</h3>
      <p className="muted">
        Scaffolds <code>.hub-agents/{template.id}/</code> in the workspace (committed with it) so the team can
        change this template.{' '}
        {template.overlay_paths.length > 0 && <>Overlays in effect: {template.overlay_paths.join(', ')}.</>}
      </p>
      <button
        type="button"
        onClick={() => {
          init.reset();
          setOpen(true);
        }}
      >
        Create team overlay…
      </button>
      {init.isSuccess && !open && (
        <p className="ok-note" role="status">
          Wrote {init.data.relative} ({init.data.mode}): {init.data.written.join(', ')}
        </p>
      )}
      <ConfirmDialog
        open={open}
        title={`Create the team overlay of ${template.id}?`}
        confirmLabel="Create overlay"
        busy={init.isPending}
        error={init.error ?? undefined}
        onCancel={() => setOpen(false)}
        onConfirm={() => init.mutate({ id: template.id, mode, force }, { onSuccess: () => setOpen(false) })}
      >
        <p>
          hub writes <code>.hub-agents/{template.id}/</code> in the workspace folder. A folder that already
          holds files is refused unless you overwrite it.
        </p>
        <fieldset>
          <legend>Mode</legend>
          <label>
            <input type="radio" name={modeName} checked={mode === 'full'} onChange={() => setMode('full')} />{' '}
            full: template.yaml and every .tpl it uses
          </label>
          <label>
            <input
              type="radio"
              name={modeName}
              checked={mode === 'minimal'}
              onChange={() => setMode('minimal')}
            />{' '}
            minimal: a stub template.yaml and body.md.tpl
          </label>
        </fieldset>
        <label className="inline">
          <input type="checkbox" checked={force} onChange={(e) => setForce(e.target.checked)} /> Overwrite
          files already there (force)
        </label>
      </ConfirmDialog>
    </section>
  );
}

function Facts({ t }: { t: TemplateSummary }) {
  const list = (xs: readonly string[]) => (xs.length > 0 ? xs.join(', ') : '—');
  return (
    <dl className="facts">
      <dt>Category</dt>
      <dd>{t.ui.category}</dd>
      <dt>Scope</dt>
      <dd>{t.scope}</dd>
      <dt>Archetype</dt>
      <dd>{t.archetype}</dd>
      <dt>Status, version</dt>
      <dd>
        {t.status} {t.version}
      </dd>
      <dt>Recommended skills</dt>
      <dd>{list(t.recommended_skills)}</dd>
      <dt>Delegates to</dt>
      <dd>{list(t.delegates_to)}</dd>
      <dt>Inputs</dt>
      <dd>
        {t.inputs.length === 0
          ? '—'
          : t.inputs.map((i) => (
              <span key={i.name} className="facts__input" title={i.question ?? i.description}>
                <code>{i.name}</code>
                {i.default !== undefined && <span className="muted">={i.default}</span>}
              </span>
            ))}
      </dd>
      <dt>MCP tools</dt>
      <dd className="facts__tools">{list(t.mcp_tools)}</dd>
    </dl>
  );
}

export function TemplateDetail({
  template,
  vendors,
}: {
  template: TemplateSummary;
  vendors: readonly string[];
}) {
  const [params, setParams] = useSearchState();
  const vendor = vendors.find((v) => v === params.get('vendor')) ?? vendors[0] ?? 'claude_code';
  return (
    <article className="detail" aria-labelledby="template-title">
      <header className="detail__header">
        <h2 id="template-title">{template.name}</h2>
        <code>{template.id}</code>
        <Badge tone={SOURCE_TONE[template.source] ?? 'neutral'}>{template.source}</Badge>
        <Badge>{template.scope}</Badge>
      </header>
      <p>{template.description}</p>
      <Facts t={template} />
      <section className="detail__section" aria-labelledby="preview-h">
        <h3 id="preview-h">Preview</h3>
        <VendorPicker
          vendors={vendors}
          value={vendor}
          onChange={(v) => setParams({ vendor: v }, { replace: true })}
        />
        <InstallCommands template={template} vendor={vendor} />
        <Preview id={template.id} vendor={vendor} />
      </section>
      <DispatchPlanPanel template={template} vendor={vendor} />
      <OverlayInit template={template} />
    </article>
  );
}
