// A modal confirmation for writes (native <dialog>: focus moves into it and stays there, Escape cancels, the page
// behind is inert). The confirm button shows the action's own words; an error from the write stays in the dialog.
import { type ReactNode, useEffect, useId, useRef } from 'react';
import { ErrorBanner } from './error-banner';
import './confirm-dialog.css';

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  confirmLabel: string;
  /** `danger` for a destructive or refusing action. */
  tone?: 'default' | 'danger';
  busy?: boolean;
  error?: unknown;
  onConfirm: () => void;
  onCancel: () => void;
  children?: ReactNode;
}

export function ConfirmDialog({
  open,
  title,
  confirmLabel,
  tone = 'default',
  busy,
  error,
  onConfirm,
  onCancel,
  children,
}: ConfirmDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      className="confirm-dialog"
      aria-labelledby={`${id}-title`}
      onCancel={(e) => {
        e.preventDefault();
        if (!busy) onCancel();
      }}
    >
      <form
        method="dialog"
        onSubmit={(e) => {
          e.preventDefault();
          if (!busy) onConfirm();
        }}
      >
        <h2 id={`${id}-title`}>{title}</h2>
        <div className="confirm-dialog__body">{children}</div>
        {error !== undefined && error !== null && <ErrorBanner error={error} />}
        <div className="confirm-dialog__actions">
          <button type="button" onClick={onCancel} disabled={busy}>
            Cancel
          </button>
          <button
            type="submit"
            className={`button--${tone === 'danger' ? 'danger' : 'primary'}`}
            disabled={busy}
          >
            {busy ? 'Working…' : confirmLabel}
          </button>
        </div>
      </form>
    </dialog>
  );
}
