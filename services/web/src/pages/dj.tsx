import { useState } from 'react';
import { api } from '../api/client.ts';
import { describeError } from '../api/errors.ts';
import type { DjAccount, LiveConnection } from '../api/types.ts';
import { Link } from '../components/link.tsx';
import { ErrorMessage, Loading } from '../components/status.tsx';
import { useAsync } from '../hooks/use-async.ts';
import { useTitle } from '../hooks/use-title.ts';
import { toast } from '../hooks/use-toast.ts';
import { LiveNow } from './live/live-now.tsx';
import { PasswordDialog } from './live/password-dialog.tsx';

const PASSWORD_HINT = '<your broadcast password>';

function Setting({ name, value }: { name: string; value: string }) {
  return (
    <>
      <dt>{name}</dt>
      <dd>
        <code>{value}</code>
      </dd>
    </>
  );
}

/** The settings to type into butt, Mixxx and ffmpeg, with this station's values filled in. */
function ConnectionSettings({
  account,
  connection,
  password,
}: {
  account: DjAccount;
  connection: LiveConnection;
  password: string | null;
}) {
  const host = window.location.hostname;
  const secret = password ?? PASSWORD_HINT;
  const user = account.broadcastUsername;
  const ffmpeg =
    `ffmpeg -re -i show.mp3 -c:a libmp3lame -b:a 192k -content_type audio/mpeg -f mp3 ` +
    `icecast://${user}:${secret}@${host}:${connection.port}${connection.mount}`;
  return (
    <section className="card" aria-labelledby="connection-heading">
      <h2 id="connection-heading">Connection settings</h2>
      <dl className="settings" aria-label="Connection settings">
        <Setting name="Server type" value="Icecast 2" />
        <Setting name="Host" value={host} />
        <Setting name="Port" value={String(connection.port)} />
        <Setting name="Mount" value={connection.mount} />
        <Setting name="User" value={user} />
        <Setting
          name="Password"
          value={password ?? 'your broadcast password (generate a new one below if lost)'}
        />
        <Setting name="Formats" value={connection.formats.join(', ')} />
      </dl>
      <h3>butt</h3>
      <p>
        Settings → Main → Server → Add: type <em>Icecast</em>, address <code>{host}</code>, port{' '}
        <code>{connection.port}</code>, password, Icecast mountpoint <code>live</code>, Icecast user{' '}
        <code>{user}</code>. Titles you set in butt go on air.
      </p>
      <h3>Mixxx</h3>
      <p>
        Preferences → Live Broadcasting: type <em>Icecast 2</em>, host <code>{host}</code>, port{' '}
        <code>{connection.port}</code>, mount <code>{connection.mount}</code>, login{' '}
        <code>{user}</code>, password; MP3 or Ogg Vorbis.
      </p>
      <h3>ffmpeg</h3>
      <pre className="command">{ffmpeg}</pre>
      <p className="muted small">
        A client that can only send the user <code>source</code> logs in with the password{' '}
        <code>
          {user}:{secret}
        </code>
        . With no title sent, listeners see <em>Live: {account.displayName}</em>.
      </p>
    </section>
  );
}

/** A DJ's own page: its broadcast credentials, who is live, and the way to go live. */
export default function DjPage() {
  useTitle('DJ');
  const mine = useAsync((signal) => api.myDjAccount(signal), []);
  const [password, setPassword] = useState<string | null>(null);
  const [shown, setShown] = useState(false);
  const account = mine.data?.account ?? null;

  const regenerate = async () => {
    try {
      const updated = await api.regenerateMyDjPassword();
      setPassword(updated.password);
      setShown(true);
    } catch (reason) {
      toast(describeError(reason), 'error');
    }
  };

  return (
    <section className="page" aria-labelledby="dj-heading">
      <div className="page-head">
        <h1 id="dj-heading">DJ</h1>
        <div className="row-actions">
          <Link to="/go-live" className="button primary">
            Go live
          </Link>
          <Link to="/recordings" className="button ghost">
            Recordings
          </Link>
        </div>
      </div>
      <div className="stack">
        <LiveNow />
        {mine.error ? <ErrorMessage error={mine.error} onRetry={mine.reload} /> : null}
        {mine.loading && !mine.data ? <Loading inline /> : null}
        {mine.data && !account ? (
          <section className="card">
            <h2>No broadcast credentials yet</h2>
            <p>
              An admin gives them on the Admin page (DJs tab). Then your connection settings show
              here.
            </p>
          </section>
        ) : null}
        {mine.data && account ? (
          <>
            <ConnectionSettings
              account={account}
              connection={mine.data.connection}
              password={password}
            />
            <section className="card" aria-labelledby="password-heading">
              <h2 id="password-heading">Broadcast password</h2>
              <p>
                {account.enabled
                  ? 'Lost it? A new one replaces it at once (a show on air goes on).'
                  : 'Your DJ account is disabled: ask an admin to enable it.'}
                {account.recordShows ? ' Your shows are recorded.' : ''}
              </p>
              <button type="button" className="button" onClick={regenerate}>
                Generate a new password
              </button>
            </section>
          </>
        ) : null}
      </div>
      <PasswordDialog
        password={shown ? password : null}
        username={account?.broadcastUsername ?? ''}
        onClose={() => setShown(false)}
      />
    </section>
  );
}
