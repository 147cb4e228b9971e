import { type FormEvent, type ReactNode, useEffect, useRef } from 'react';

/**
 * A modal built on <dialog>: the browser traps focus, closes on Escape and restores focus to
 * where it was, so none of that is ours to get wrong.
 */
export function Dialog({
  open,
  title,
  onClose,
  children,
}: {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog ref={ref} className="dialog" aria-label={open ? title : undefined} onClose={onClose}>
      {open ? (
        <>
          <h2 className="dialog-title">{title}</h2>
          {children}
        </>
      ) : null}
    </dialog>
  );
}

/** "Are you sure?" with the action named on its button. */
export function ConfirmDialog({
  open,
  title,
  message,
  confirmLabel,
  danger = false,
  onConfirm,
  onClose,
}: {
  open: boolean;
  title: string;
  message: ReactNode;
  confirmLabel: string;
  danger?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onConfirm();
    onClose();
  };
  return (
    <Dialog open={open} title={title} onClose={onClose}>
      <form onSubmit={submit}>
        <p>{message}</p>
        <div className="dialog-actions">
          <button type="button" className="button ghost" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className={danger ? 'button danger' : 'button primary'}>
            {confirmLabel}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
