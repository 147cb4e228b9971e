import { Dialog } from '../../components/dialog.tsx';

/** A broadcast password, shown once right after it was generated: the api never shows it again. */
export function PasswordDialog({
  password,
  username,
  onClose,
}: {
  password: string | null;
  username: string;
  onClose: () => void;
}) {
  return (
    <Dialog open={password !== null} title="Broadcast password" onClose={onClose}>
      <p>
        Copy it now into the DJ's source client (user <code>{username}</code>): it is not shown
        again. It is not the password of the web app.
      </p>
      <input
        className="secret"
        readOnly
        aria-label="Broadcast password"
        value={password ?? ''}
        onFocus={(e) => e.target.select()}
      />
      <div className="dialog-actions">
        <button type="button" className="button primary" onClick={onClose}>
          Done
        </button>
      </div>
    </Dialog>
  );
}
