/**
 * A failed request: the api's `{"error":{"code","message"}}` with its status, or one of our
 * own codes when the api could not be reached (`WEB_NETWORK`) or answered something else.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly code: string;
  /** Seconds from `Retry-After`, when the answer had one (429, 503). */
  readonly retryAfter: number | null;

  constructor(status: number, code: string, message: string, retryAfter: number | null = null) {
    super(message);
    this.status = status;
    this.code = code;
    this.retryAfter = retryAfter;
  }
}

/** Words a person can act on, for any error a request may end with. */
export function describeError(error: unknown): string {
  if (!(error instanceof ApiError)) {
    if (error instanceof DOMException && error.name === 'AbortError') return 'Cancelled.';
    return error instanceof Error ? error.message : 'Something went wrong.';
  }
  const wait = error.retryAfter !== null ? ` Try again in ${formatWait(error.retryAfter)}.` : '';
  switch (error.code) {
    case 'WEB_NETWORK':
      return 'Cannot reach the station. Check your connection and try again.';
    case 'API_INVALID_CREDENTIALS':
      return 'Wrong user name or password.';
    case 'API_WRONG_PASSWORD':
      return 'The current password is wrong.';
    case 'API_USERNAME_TAKEN':
      return 'That user name is taken. Pick another one.';
    case 'API_RATE_LIMITED':
      return `Too many attempts.${wait || ' Wait a few minutes and try again.'}`;
    case 'API_ACCOUNT_DISABLED':
      return 'This account is disabled. Ask an admin to enable it.';
    case 'API_SETUP_CODE_INVALID':
      return 'That setup code is not right. Copy it again from the station’s console or log.';
    case 'API_SETUP_DONE':
      return 'This station already has an admin. Sign in with that account.';
    case 'API_REGISTRATION_CLOSED':
      return 'Registration is closed on this station. Ask an admin for an account.';
    case 'API_UNAUTHENTICATED':
      return 'Your session has ended. Sign in again.';
    case 'API_FORBIDDEN':
      return 'Your role does not allow this.';
    case 'API_LAST_ADMIN':
      return 'The station needs at least one active admin.';
    case 'API_SCHEDULER_UNAVAILABLE':
    case 'API_BUS_UNAVAILABLE':
      return `The player is not answering right now.${wait || ' Try again in a moment.'}`;
    case 'API_VALIDATION':
      // `body.name: must not be empty` names the field as the form shows it.
      return sentence(error.message.replace(/\b(body|query|params)\./g, ''));
    default:
      return sentence(error.message);
  }
}

function formatWait(seconds: number): string {
  if (seconds < 90) return `${Math.max(1, Math.round(seconds))} s`;
  return `${Math.round(seconds / 60)} min`;
}

function sentence(text: string): string {
  const trimmed = text.trim();
  if (!trimmed) return 'Something went wrong.';
  const capital = trimmed[0]?.toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}
