import { lazy, type ReactNode, Suspense, useEffect, useRef } from 'react';
import type { Role } from './api/types.ts';
import { Layout } from './components/layout.tsx';
import { Link } from './components/link.tsx';
import { Loading } from './components/status.tsx';
import { useMediaSession } from './hooks/use-media-session.ts';
import { useSession } from './hooks/use-session.ts';
import { useStreaming } from './hooks/use-streaming.ts';
import { useTitle } from './hooks/use-title.ts';
import { ListenPage } from './pages/listen.tsx';
import { SignInPage } from './pages/sign-in.tsx';
import { matchRoute, useLocation } from './router.ts';
import { ROUTES, type RouteName } from './routes.ts';
import { hasRole } from './session.ts';

// The pages behind a sign-in load on demand: the Listen page stays small and quick.
const LibraryPage = lazy(() => import('./pages/library.tsx'));
const PlaylistsPage = lazy(() => import('./pages/playlists.tsx'));
const PlaylistPage = lazy(() => import('./pages/playlist.tsx'));
const ControlPage = lazy(() => import('./pages/control.tsx'));
const TrashPage = lazy(() => import('./pages/trash.tsx'));
const UploadPage = lazy(() => import('./pages/upload.tsx'));
const AdminPage = lazy(() => import('./pages/admin.tsx'));
const DjPage = lazy(() => import('./pages/dj.tsx'));
const GoLivePage = lazy(() => import('./pages/go-live.tsx'));
const RecordingsPage = lazy(() => import('./pages/recordings.tsx'));
const ReportsPage = lazy(() => import('./pages/reports.tsx'));
const SchedulePage = lazy(() => import('./pages/schedule.tsx'));
const TimelinePage = lazy(() => import('./pages/timeline.tsx'));
const MyRequestsPage = lazy(() => import('./pages/requests.tsx'));
// Shown once in a station's life: never part of the first page's download.
const SetupPage = lazy(() => import('./pages/setup.tsx'));

function NotFound() {
  useTitle('Not found');
  return (
    <section className="page narrow">
      <h1>Page not found</h1>
      <p>There is nothing at this address.</p>
      <Link to="/" className="button primary">
        Go to Listen
      </Link>
    </section>
  );
}

/** Shows `children` only to a signed-in user with `role` (or higher). */
function Guard({ need, children }: { need: Role; children: ReactNode }) {
  const { status, user, expired } = useSession();
  const { pathname, search } = useLocation();
  if (status === 'loading') return <Loading label="Checking your session…" />;
  if (!user) {
    const next = encodeURIComponent(`${pathname}${search}`);
    return (
      <section className="page narrow">
        <h1>Sign in to continue</h1>
        <p>{expired ? 'Your session has ended.' : 'This page is for signed-in listeners.'}</p>
        <Link to={`/signin?next=${next}`} className="button primary">
          Sign in
        </Link>
      </section>
    );
  }
  if (!hasRole(user, need)) {
    return (
      <section className="page narrow">
        <h1>Not for your role</h1>
        <p>
          This page is for {need === 'admin' ? 'admins' : 'DJs and admins'}. You are signed in as a{' '}
          {user.role}.
        </p>
      </section>
    );
  }
  return <>{children}</>;
}

function Page({ name, params }: { name: RouteName | null; params: Record<string, string> }) {
  switch (name) {
    case 'listen':
      return <ListenPage />;
    case 'signin':
      return <SignInPage key="signin" mode="signin" />;
    case 'register':
      return <SignInPage key="register" mode="register" />;
    case 'library':
      return (
        <Guard need="listener">
          <LibraryPage />
        </Guard>
      );
    case 'playlists':
      return (
        <Guard need="listener">
          <PlaylistsPage />
        </Guard>
      );
    case 'playlist':
      return (
        <Guard need="listener">
          <PlaylistPage id={Number(params.id)} />
        </Guard>
      );
    case 'control':
      return (
        <Guard need="dj">
          <ControlPage />
        </Guard>
      );
    case 'trash':
      return (
        <Guard need="dj">
          <TrashPage />
        </Guard>
      );
    case 'upload':
      return (
        <Guard need="dj">
          <UploadPage />
        </Guard>
      );
    case 'dj':
      return (
        <Guard need="dj">
          <DjPage />
        </Guard>
      );
    case 'golive':
      return (
        <Guard need="dj">
          <GoLivePage />
        </Guard>
      );
    case 'recordings':
      return (
        <Guard need="dj">
          <RecordingsPage />
        </Guard>
      );
    case 'reports':
      return (
        <Guard need="dj">
          <ReportsPage />
        </Guard>
      );
    case 'schedule':
      return (
        <Guard need="dj">
          <SchedulePage />
        </Guard>
      );
    case 'timeline':
      return (
        <Guard need="dj">
          <TimelinePage />
        </Guard>
      );
    case 'requests':
      return (
        <Guard need="listener">
          <MyRequestsPage />
        </Guard>
      );
    case 'admin':
      return (
        <Guard need="admin">
          <AdminPage tab={params.tab ?? 'users'} />
        </Guard>
      );
    default:
      return <NotFound />;
  }
}

export function App() {
  const { pathname } = useLocation();
  const match = matchRoute(ROUTES, pathname);
  const { setupRequired } = useSession();
  useStreaming();
  useMediaSession();

  // After moving to another page, focus goes to its content so a screen reader starts there.
  const first = useRef(true);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on each change of page
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    document.getElementById('main')?.focus({ preventScroll: true });
  }, [pathname]);

  if (setupRequired) {
    return (
      <Suspense fallback={<Loading label="Loading the page…" />}>
        <SetupPage />
      </Suspense>
    );
  }
  return (
    <Layout>
      <Suspense fallback={<Loading label="Loading the page…" />}>
        <Page name={match?.name ?? null} params={match?.params ?? {}} />
      </Suspense>
    </Layout>
  );
}
