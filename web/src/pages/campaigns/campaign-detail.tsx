// One campaign: what it changes and why (goal, reference implementation, objective, board item, selection), its
// progress, the open merge requests and the blocked rows with their cause, the land preview, every row, and the
// lessons. Everything from GET /v3/ops/campaigns/{slug}/status; text from the file is shown as text, and only
// http(s) URLs become links.
import { useId, useState } from 'react';
import type { CampaignStatusAnswer } from '../../api/campaigns';
import { Badge } from '../../components/badge';
import { RelativeTime } from '../../components/relative-time';
import { SafeLink } from '../../components/safe-link';
import { CAMPAIGN_TONE } from './campaign-list';
import { LandPreview } from './land-preview';
import { Progress } from './progress';
import { RowsTable } from './rows-table';

/** Lessons shown at first; Show more adds as many again (a campaign holds up to 1,000). */
const LESSON_PAGE = 50;

function Facts({ v }: { v: CampaignStatusAnswer }) {
  const tags = Object.entries(v.selection?.tags ?? {});
  return (
    <dl className="cmp-facts">
      {v.reference_impl && (
        <div>
          <dt>Reference implementation</dt>
          <dd>
            <code>{v.reference_impl}</code>
          </dd>
        </div>
      )}
      {v.objective_id && (
        <div>
          <dt>Objective</dt>
          <dd>
            <code>{v.objective_id}</code>
          </dd>
        </div>
      )}
      {v.work_item && (
        <div>
          <dt>Board item</dt>
          <dd>
            {v.work_item.url ? (
              <SafeLink url={v.work_item.url} label={`#${v.work_item.id}`} />
            ) : (
              `#${v.work_item.id}`
            )}
            {v.work_item.state && <span className="muted"> {v.work_item.state}</span>}
          </dd>
        </div>
      )}
      {(v.selection?.query || tags.length > 0) && (
        <div>
          <dt>Selection</dt>
          <dd>
            {v.selection.query && <code>{v.selection.query}</code>}{' '}
            {tags.map(([k, val]) => (
              <code key={k} className="cmp-tag">
                {k}={String(val)}
              </code>
            ))}
          </dd>
        </div>
      )}
      <div>
        <dt>File</dt>
        <dd>
          <code>{v.file}</code>
        </dd>
      </div>
      {v.updated && (
        <div>
          <dt>Updated</dt>
          <dd>
            <RelativeTime iso={v.updated} />
          </dd>
        </div>
      )}
    </dl>
  );
}

function OpenMergeRequests({ items }: { items: CampaignStatusAnswer['open_mrs'] }) {
  const id = useId();
  return (
    <section className="panel" aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`}>
        Open merge requests <span className="muted">({items.length})</span>
      </h3>
      {items.length === 0 ? (
        <p className="muted">No row has an open merge request.</p>
      ) : (
        <ul className="cmp-items">
          {items.map((m) => (
            <li key={m.repo}>
              <code>{m.repo}</code>{' '}
              {m.mr ? <SafeLink url={m.mr} /> : <span className="muted">no URL recorded</span>}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function BlockedRows({ items }: { items: CampaignStatusAnswer['blocked'] }) {
  const id = useId();
  return (
    <section className="panel" aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`}>
        Blocked <span className="muted">({items.length})</span>
      </h3>
      {items.length === 0 ? (
        <p className="muted">No row is blocked.</p>
      ) : (
        <ul className="cmp-items">
          {items.map((b) => (
            <li key={b.repo}>
              <code>{b.repo}</code>{' '}
              {b.note ?? (b.landing_cause ? null : <span className="muted">no note</span>)}
              {b.landing_cause && (
                <span className="cmp-cause-line">
                  landing would stop: <code>{b.landing_cause}</code>
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function Lessons({ lessons }: { lessons: CampaignStatusAnswer['lessons'] }) {
  const id = useId();
  const [shown, setShown] = useState(LESSON_PAGE);
  return (
    <section className="panel" aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`}>
        Lessons <span className="muted">({lessons.length})</span>
      </h3>
      {lessons.length === 0 ? (
        <p className="muted">No lessons yet.</p>
      ) : (
        <ol className="cmp-lessons" aria-label="Lessons">
          {lessons.slice(0, shown).map((l, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: lessons are append-only; the index is their number.
            <li key={i}>
              <p className="cmp-lesson__text">{l.text}</p>
              <p className="muted cmp-lesson__meta">
                {l.repo && <code>{l.repo}</code>} {l.by && <>by {l.by}</>}{' '}
                {l.recorded_at && <RelativeTime iso={l.recorded_at} />}
              </p>
            </li>
          ))}
        </ol>
      )}
      {lessons.length > shown && (
        <button type="button" onClick={() => setShown((n) => n + LESSON_PAGE)}>
          Show more ({lessons.length - shown} more)
        </button>
      )}
    </section>
  );
}

export function CampaignDetail({ v }: { v: CampaignStatusAnswer }) {
  const id = useId();
  return (
    <article className="cmp-detail" aria-labelledby={`${id}-title`}>
      <header className="cmp-detail__head">
        <h2 id={`${id}-title`}>
          {v.title} <Badge tone={CAMPAIGN_TONE[v.status]}>{v.status}</Badge>
        </h2>
        <p className="muted">
          <code>{v.slug}</code>
        </p>
        <Progress counts={v} legend />
      </header>
      {v.goal ? (
        <section className="cmp-goal" aria-label="Goal">
          <h3>Goal</h3>
          <p>{v.goal}</p>
        </section>
      ) : (
        <p className="muted">No goal written.</p>
      )}
      <Facts v={v} />
      {v.mr_hints.length > 0 && (
        <p className="cmp-note">
          Objectives name merge requests their rows do not:{' '}
          {v.mr_hints.map((h) => (
            <span key={h.repo}>
              <code>{h.repo}</code> <SafeLink url={h.mr_url} />{' '}
            </span>
          ))}
        </p>
      )}
      <div className="cmp-pair">
        <OpenMergeRequests items={v.open_mrs} />
        <BlockedRows items={v.blocked} />
      </div>
      <LandPreview landing={v.landing} allMerged={v.merged_count === v.repo_count} />
      <RowsTable rows={v.repos} />
      <Lessons lessons={v.lessons} />
    </article>
  );
}
