// The draft: a Draft badge with the count of pending operations, the list (undo one, discard all), and Save. A
// save the server refuses (the draft would add validation errors) says so with the errors; nothing is written.
import { useId, useState } from 'react';
import type { ConfigTarget, PatchOperation, PatchResult } from '../../api/config-studio';
import { ErrorBanner } from '../../components/error-banner';
import { shellWord } from '../../components/shell-words';
import { pointerOf } from './draft';
import { describeOperation } from './values';

export interface DraftBarProps {
  target: ConfigTarget;
  ops: PatchOperation[];
  onUndo: (index: number) => void;
  onDiscard: () => void;
  /** Absent for a file that cannot be saved from the browser. */
  onSave?: () => void;
  saving: boolean;
  saveError: Error | null;
  lastSave: PatchResult | null;
  onSelectPath: (path: string) => void;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export function DraftBar({
  target,
  ops,
  onUndo,
  onDiscard,
  onSave,
  saving,
  saveError,
  lastSave,
  onSelectPath,
}: DraftBarProps) {
  const [open, setOpen] = useState(false);
  const listId = useId();
  const refused = lastSave && !lastSave.saved ? lastSave : null;
  return (
    <div className="draft">
      <div className="draft__bar">
        {ops.length > 0 ? (
          <button
            type="button"
            className="draft-badge"
            aria-expanded={open}
            aria-controls={listId}
            onClick={() => setOpen((o) => !o)}
          >
            <span className="draft-badge__label">Draft</span>
            <span className="draft-badge__count">{plural(ops.length, 'pending operation')}</span>
          </button>
        ) : (
          <span className="muted" role="status">
            {lastSave?.saved ? `Saved ${lastSave.file}` : 'No pending changes'}
          </span>
        )}
        <span className="draft__spacer" />
        {ops.length > 0 && (
          <button type="button" onClick={onDiscard}>
            Discard all
          </button>
        )}
        {onSave ? (
          <button type="button" className="primary" disabled={ops.length === 0 || saving} onClick={onSave}>
            {saving ? 'Saving…' : 'Save'}
          </button>
        ) : (
          <span className="muted draft__nosave" title="hub.config.yaml has no HTTP write route">
            {target === 'appconfig' && ops.length > 0 ? 'save with the CLI (below)' : ''}
          </span>
        )}
      </div>
      {ops.length > 0 && open && (
        <ol id={listId} className="draft__list" aria-label="Pending operations">
          {ops.map((o, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: an operation's place in the draft is its identity.
            <li key={i}>
              <button type="button" className="link" onClick={() => onSelectPath(o.path)}>
                <code>{describeOperation(o)}</code>
              </button>
              <button
                type="button"
                className="field__small"
                aria-label={`Undo operation ${i + 1}: ${describeOperation(o)}`}
                onClick={() => onUndo(i)}
              >
                Undo
              </button>
            </li>
          ))}
        </ol>
      )}
      {target === 'appconfig' && ops.length > 0 && open && <CliCommands ops={ops} />}
      {saveError && <ErrorBanner error={saveError} />}
      {refused && (
        <div className="draft-errors" role="alert">
          <h3>
            Save refused: the draft would add{' '}
            {plural(refused.validation_errors.filter((e) => e.new !== false).length, 'validation error')}:
            nothing was written
          </h3>
          <ul>
            {refused.validation_errors
              .filter((e) => e.new !== false)
              .map((e, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: errors have no identity.
                <li key={i}>
                  {e.line !== undefined && <span className="draft-errors__line">line {e.line}</span>}
                  <code>{pointerOf(e.path) || '/'}</code> <span>{e.message}</span>{' '}
                  <span className="draft-errors__rule">[{e.rule}]</span>
                </li>
              ))}
          </ul>
        </div>
      )}
    </div>
  );
}

/** The draft of hub.config.yaml as `hub appconfig patch` commands (it saves one set or unset at a time). */
function CliCommands({ ops }: { ops: PatchOperation[] }) {
  const lines = ops.map((o) => {
    const dotted = o.path.startsWith('/') ? o.path.slice(1).split('/').join('.') : o.path;
    if (o.op === 'set')
      return `hub appconfig patch --op set --path ${dotted} --value ${shellWord(typeof o.value === 'string' ? o.value : JSON.stringify(o.value))} --save`;
    if (o.op === 'unset') return `hub appconfig patch --op unset --path ${dotted} --save`;
    return `# ${o.op} ${o.path}: edit hub.config.yaml by hand (appconfig patch sets or unsets one key)`;
  });
  return (
    <div className="draft__cli">
      <p className="muted">hub.config.yaml is saved from the command line:</p>
      <pre>{lines.join('\n')}</pre>
    </div>
  );
}
