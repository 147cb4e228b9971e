import { type FormEvent, useId, useState } from 'react';
import { ApiError, describeError } from '../api/errors.ts';
import { Link } from '../components/link.tsx';
import { FormError } from '../components/status.tsx';
import { checkCredentials } from '../credentials.ts';
import { useSession } from '../hooks/use-session.ts';
import { useTitle } from '../hooks/use-title.ts';
import { toast } from '../hooks/use-toast.ts';
import { navigate, useLocation } from '../router.ts';
import { session } from '../session.ts';

function safeNext(search: string): string {
  const next = new URLSearchParams(search).get('next');
  // Only paths of this site: never an absolute URL someone put in a link.
  return next?.startsWith('/') && !next.startsWith('//') ? next : '/';
}

export function SignInPage({ mode }: { mode: 'signin' | 'register' }) {
  const register = mode === 'register';
  useTitle(register ? 'Create an account' : 'Sign in');
  const { user, status } = useSession();
  const { search } = useLocation();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const ids = { user: useId(), pass: useId(), hint: useId(), error: useId() };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problem = checkCredentials(mode, username, password);
    if (problem) {
      setError(problem);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const signedIn = register
        ? await session.register(username.trim(), password)
        : await session.signIn(username.trim(), password);
      toast(register ? `Welcome, ${signedIn.username}!` : `Signed in as ${signedIn.username}.`);
      navigate(safeNext(search));
    } catch (reason) {
      setPassword('');
      setError(
        reason instanceof ApiError && reason.code === 'API_USERNAME_TAKEN'
          ? `The user name "${username.trim()}" is taken. Pick another one.`
          : describeError(reason),
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="page narrow" aria-labelledby="signin-heading">
      <div className="card auth-card">
        <h1 id="signin-heading">{register ? 'Create an account' : 'Sign in'}</h1>
        {user && status === 'ready' ? (
          <p className="notice">
            You are signed in as <strong>{user.username}</strong>.
          </p>
        ) : null}
        <form onSubmit={submit} noValidate aria-describedby={error ? ids.error : undefined}>
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
              maxLength={register ? 32 : 200}
            />
          </div>
          <div className="field">
            <label htmlFor={ids.pass}>Password</label>
            <input
              id={ids.pass}
              name="password"
              type="password"
              autoComplete={register ? 'new-password' : 'current-password'}
              value={password}
              onChange={(event) => setPassword(event.target.value)}
              required
              aria-describedby={register ? ids.hint : undefined}
            />
            {register ? (
              <p id={ids.hint} className="hint">
                At least 8 characters.
              </p>
            ) : null}
          </div>
          <FormError id={ids.error} error={error} />
          <button type="submit" className="button primary wide" disabled={busy}>
            {busy
              ? register
                ? 'Creating…'
                : 'Signing in…'
              : register
                ? 'Create account'
                : 'Sign in'}
          </button>
        </form>
        <p className="muted switch-mode">
          {register ? (
            <>
              Have an account? <Link to={`/signin${search}`}>Sign in</Link>
            </>
          ) : (
            <>
              New here? <Link to={`/register${search}`}>Create an account</Link>
            </>
          )}
        </p>
      </div>
    </section>
  );
}
