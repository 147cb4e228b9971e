import type { ReactNode } from 'react';
import { describeError } from '../api/errors.ts';

/** A spinner with words for screen readers. */
export function Loading({
  label = 'Loading…',
  inline = false,
}: {
  label?: string;
  inline?: boolean;
}) {
  return (
    <div className={inline ? 'loading loading-inline' : 'loading'} role="status">
      <span className="spinner" aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}

/** An error that says what went wrong and, when given, offers to try again. */
export function ErrorMessage({
  error,
  onRetry,
  title,
}: {
  error: unknown;
  onRetry?: () => void;
  title?: string;
}) {
  return (
    <div className="error-box" role="alert">
      <div>
        {title ? <strong>{title}: </strong> : null}
        {describeError(error)}
      </div>
      {onRetry ? (
        <button type="button" className="button small" onClick={onRetry}>
          Try again
        </button>
      ) : null}
    </div>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="empty">{children}</p>;
}

/** What is wrong with a form, said where the form is and announced at once. */
export function FormError({ error, id }: { error: string | null; id?: string }) {
  if (!error) return null;
  return (
    <p id={id} className="form-error" role="alert">
      {error}
    </p>
  );
}
