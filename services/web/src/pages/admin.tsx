import { FallbackBanner } from '../components/fallback-banner.tsx';
import { Link } from '../components/link.tsx';
import { useTitle } from '../hooks/use-title.ts';
import { AuditTab } from './admin/audit-tab.tsx';
import { DjAccountsTab } from './admin/dj-accounts-tab.tsx';
import { LibraryTab } from './admin/library-tab.tsx';
import { ListenersTab } from './admin/listeners-tab.tsx';
import { RequestsTab } from './admin/requests-tab.tsx';
import { StoragePanel } from './admin/storage-panel.tsx';
import { SystemTab } from './admin/system-tab.tsx';
import { UsersTab } from './admin/users-tab.tsx';
import { WebhooksTab } from './admin/webhooks-tab.tsx';

const TABS = [
  { id: 'users', label: 'Users' },
  { id: 'library', label: 'Library' },
  { id: 'system', label: 'System' },
  { id: 'listeners', label: 'Listeners' },
  { id: 'audit', label: 'Audit log' },
  { id: 'webhooks', label: 'Webhooks' },
  { id: 'djs', label: 'DJs' },
  { id: 'requests', label: 'Requests' },
] as const;

export default function AdminPage({ tab }: { tab: string }) {
  const current = TABS.find((t) => t.id === tab) ?? TABS[0];
  useTitle(`Admin: ${current.label}`);
  return (
    <section className="page" aria-labelledby="admin-heading">
      <div className="page-head">
        <h1 id="admin-heading">Admin</h1>
      </div>
      <nav className="tabs" aria-label="Admin sections">
        {TABS.map((t) => (
          <Link
            key={t.id}
            to={`/admin/${t.id}`}
            aria-current={t.id === current.id ? 'page' : undefined}
          >
            {t.label}
          </Link>
        ))}
      </nav>
      <FallbackBanner />
      {current.id === 'users' ? <UsersTab /> : null}
      {current.id === 'library' ? (
        <div className="stack">
          <StoragePanel />
          <LibraryTab />
        </div>
      ) : null}
      {current.id === 'system' ? <SystemTab /> : null}
      {current.id === 'listeners' ? <ListenersTab /> : null}
      {current.id === 'audit' ? <AuditTab /> : null}
      {current.id === 'webhooks' ? <WebhooksTab /> : null}
      {current.id === 'djs' ? <DjAccountsTab /> : null}
      {current.id === 'requests' ? <RequestsTab /> : null}
    </section>
  );
}
