import { useEffect } from 'react';
import { api } from '../api/client.ts';
import { describeError } from '../api/errors.ts';
import { Link } from '../components/link.tsx';
import { ErrorMessage, Loading } from '../components/status.tsx';
import { useAsync } from '../hooks/use-async.ts';
import { useLive } from '../hooks/use-live.ts';
import { useTitle } from '../hooks/use-title.ts';
import { toast } from '../hooks/use-toast.ts';
import { clockOf, entryLine, requestStatusText, requestView } from '../programming.ts';

/**
 * The signed-in user's requests, newest first, each with its state as the scheduler last said
 * it over the event stream (pending, planned at about HH:MM, played, removed and why).
 */
export default function MyRequestsPage() {
  useTitle('My requests');
  const updates = useLive((s) => s.requests);
  const mine = useAsync((signal) => api.myRequests(signal), []);
  const requests = mine.data?.requests ?? [];

  // A request this page has not listed yet (made in another tab) comes with a reload.
  const unknown = Object.keys(updates).some(
    (id) => mine.data && !requests.some((r) => r.id === Number(id)),
  );
  useEffect(() => {
    if (unknown) mine.reload();
  }, [unknown, mine.reload]);

  const cancel = async (id: number) => {
    try {
      await api.removeRequest(id);
      toast('Request withdrawn.');
      mine.reload();
    } catch (error) {
      toast(describeError(error), 'error');
    }
  };

  return (
    <section className="page" aria-labelledby="requests-heading">
      <div className="page-head">
        <h1 id="requests-heading">My requests</h1>
        <Link to="/library" className="button small">
          Request a track
        </Link>
      </div>
      {mine.error ? <ErrorMessage error={mine.error} onRetry={mine.reload} /> : null}
      {mine.loading && !mine.data ? <Loading label="Loading your requests…" /> : null}
      {mine.data && requests.length === 0 ? (
        <p className="empty">
          You have made no requests yet. Find a track in the <Link to="/library">library</Link> and
          press Request.
        </p>
      ) : null}
      {requests.length > 0 ? (
        <div className="table-wrap card">
          <table className="table" data-testid="my-requests">
            <thead>
              <tr>
                <th scope="col">Track</th>
                <th scope="col">Requested</th>
                <th scope="col">Status</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {requests.map((request) => {
                const view = requestView(request, updates[request.id]);
                return (
                  <tr key={request.id} data-testid="request-row">
                    <td>{entryLine(request)}</td>
                    <td className="num">{clockOf(Date.parse(request.requestedAt))}</td>
                    <td>
                      <span className={`request-status status-${view.status}`} role="status">
                        {requestStatusText(view)}
                      </span>
                    </td>
                    <td className="actions-col">
                      {view.status === 'pending' ? (
                        <button
                          type="button"
                          className="button small ghost"
                          onClick={() => cancel(request.id)}
                        >
                          Withdraw
                        </button>
                      ) : null}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}
