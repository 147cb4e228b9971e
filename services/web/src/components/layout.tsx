import type { ReactNode } from 'react';
import { describeError } from '../api/errors.ts';
import { useLive } from '../hooks/use-live.ts';
import { useSession } from '../hooks/use-session.ts';
import { toast } from '../hooks/use-toast.ts';
import { navigate, useLocation } from '../router.ts';
import { hasRole, session } from '../session.ts';
import { RadioIcon } from './icons.tsx';
import { Link } from './link.tsx';
import { PlayerBar } from './player-bar.tsx';
import { Toasts } from './toasts.tsx';

function ConnectionBadge() {
  const connection = useLive((s) => s.connection);
  const label =
    connection === 'open' ? 'Live' : connection === 'connecting' ? 'Connecting' : 'Reconnecting';
  return (
    <span className={`connection connection-${connection}`} role="status" title="Live updates">
      <span className="connection-dot" aria-hidden="true" />
      {label}
    </span>
  );
}

export function Layout({ children }: { children: ReactNode }) {
  const { user } = useSession();
  const { pathname } = useLocation();

  const signOut = async () => {
    try {
      await session.signOut();
      toast('Signed out.');
      navigate('/');
    } catch (error) {
      toast(describeError(error), 'error');
    }
  };

  return (
    <div className="app">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <Link to="/" className="brand" aria-label="Radio: listen">
          <RadioIcon size={24} />
          <span>Radio</span>
        </Link>
        <nav className="nav" aria-label="Main">
          <Link to="/" nav="exact">
            Listen
          </Link>
          {user ? (
            <>
              <Link to="/library" nav="prefix">
                Library
              </Link>
              <Link to="/playlists" nav="prefix">
                Playlists
              </Link>
              <Link to="/requests" nav="prefix">
                Requests
              </Link>
            </>
          ) : null}
          {hasRole(user, 'dj') ? (
            <>
              <Link to="/control" nav="prefix">
                Control
              </Link>
              <Link to="/upload" nav="prefix">
                Upload
              </Link>
              <Link to="/trash" nav="prefix">
                Trash
              </Link>
              <Link to="/dj" nav="prefix">
                DJ
              </Link>
              <Link to="/reports" nav="prefix">
                Reports
              </Link>
              <Link to="/schedule" nav="prefix">
                Schedule
              </Link>
            </>
          ) : null}
          {hasRole(user, 'admin') ? (
            <Link to="/admin" nav="prefix">
              Admin
            </Link>
          ) : null}
        </nav>
        <div className="account">
          <ConnectionBadge />
          {user ? (
            <>
              <span className="account-name">
                {user.username} <span className={`badge badge-${user.role}`}>{user.role}</span>
              </span>
              <button type="button" className="button small ghost" onClick={signOut}>
                Sign out
              </button>
            </>
          ) : (
            <Link to="/signin" className="button small primary">
              Sign in
            </Link>
          )}
        </div>
      </header>
      <main id="main" className="main" tabIndex={-1}>
        {children}
      </main>
      {pathname === '/' ? null : <PlayerBar />}
      <Toasts />
    </div>
  );
}
