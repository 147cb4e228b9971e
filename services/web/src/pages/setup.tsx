import { type FormEvent, useId, useState } from 'react';
import { ApiError, describeError } from '../api/errors.ts';
import { RadioIcon } from '../components/icons.tsx';
import { FormError } from '../components/status.tsx';
import { Toasts } from '../components/toasts.tsx';
import { useTitle } from '../hooks/use-title.ts';
import { toast } from '../hooks/use-toast.ts';
import { navigate, useLocation } from '../router.ts';
import { session } from '../session.ts';
import { afterSetup, checkSetup } from '../setup.ts';

/** The first-admin form: the station's setup code, then the admin's name and password. */
function SetupForm() {
  const { pathname } = useLocation();
  const [code, setCode] = useState('');
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);
  const ids = {
    code: useId(),
    codeHint: useId(),
    user: useId(),
    pass: useId(),
    passHint: useId(),
    confirm: useId(),
    error: useId(),
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problem = checkSetup(code, username, password, confirmation);
    if (problem) {
      setError(problem);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const admin = await session.setUp(code.trim(), username.trim(), password);
      toast(`Welcome, ${admin.username}! You are the admin of this station.`);
      navigate(afterSetup(pathname));
    } catch (reason) {
      setError(describeError(reason));
      if (reason instanceof ApiError && reason.code === 'API_SETUP_DONE') setDone(true);
    } finally {
      setBusy(false);
    }
  };

  const signIn = () => {
    session.setupDone();
    navigate('/signin');
  };

  return (
    <form onSubmit={submit} noValidate aria-describedby={error ? ids.error : undefined}>
      <div className="field">
        <label htmlFor={ids.code}>Setup code</label>
        <input
          id={ids.code}
          name="setup-code"
          className="setup-code"
          autoComplete="one-time-code"
          autoCapitalize="none"
          spellCheck={false}
          value={code}
          onChange={(event) => setCode(event.target.value)}
          required
          maxLength={128}
          aria-describedby={ids.codeHint}
        />
        <p id={ids.codeHint} className="hint">
          Printed in the station’s console and log at first start; under Docker Compose,{' '}
          <code>pnpm radioctl status</code> shows it.
        </p>
      </div>
      <div className="field">
        <label htmlFor={ids.user}>User name</label>
        <input
          id={ids.user}
          name="username"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          value={username}
          onChange={(event) => setUsername(event.target.value)}
          required
          maxLength={32}
        />
      </div>
      <div className="field">
        <label htmlFor={ids.pass}>Password</label>
        <input
          id={ids.pass}
          name="password"
          type="password"
          autoComplete="new-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          required
          aria-describedby={ids.passHint}
        />
        <p id={ids.passHint} className="hint">
          At least 8 characters; a long one is best, this account can do everything.
        </p>
      </div>
      <div className="field">
        <label htmlFor={ids.confirm}>Password again</label>
        <input
          id={ids.confirm}
          name="password-confirmation"
          type="password"
          autoComplete="new-password"
          value={confirmation}
          onChange={(event) => setConfirmation(event.target.value)}
          required
        />
      </div>
      <FormError id={ids.error} error={error} />
      {done ? (
        <button type="button" className="button primary wide" onClick={signIn}>
          Go to sign in
        </button>
      ) : (
        <button type="submit" className="button primary wide" disabled={busy}>
          {busy ? 'Creating…' : 'Create the admin account'}
        </button>
      )}
    </form>
  );
}

/**
 * The app's first screen while the station has no admin: whoever holds the setup code the
 * station printed at start becomes its admin. Nothing else is reachable until then, so the
 * page stands alone, without the navigation.
 */
export default function SetupPage() {
  useTitle('Set up your station');
  return (
    <div className="app">
      <header className="topbar">
        <span className="brand">
          <RadioIcon size={24} />
          <span>Radio</span>
        </span>
      </header>
      <main id="main" className="main" tabIndex={-1}>
        <section className="page narrow" aria-labelledby="setup-heading">
          <div className="card auth-card">
            <h1 id="setup-heading">Set up your station</h1>
            <p className="muted">
              This station has no admin yet. Enter its setup code and choose the admin’s user name
              and password; you are signed in as soon as it is made.
            </p>
            <SetupForm />
          </div>
        </section>
      </main>
      <Toasts />
    </div>
  );
}
