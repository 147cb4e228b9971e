/**
 * Previous / next with "page X of Y" for a page of a list as the api answers it; hidden until
 * it has one and when everything fits on one page.
 */
export function Pagination({
  of,
  onPage,
  label = 'Pages',
}: {
  of: { page: number; limit: number; total: number } | null | undefined;
  onPage: (page: number) => void;
  label?: string;
}) {
  if (!of) return null;
  const { page, limit, total } = of;
  const pages = Math.max(1, Math.ceil(total / limit));
  if (pages <= 1) return null;
  const first = (page - 1) * limit + 1;
  const last = Math.min(total, page * limit);
  return (
    <nav className="pagination" aria-label={label}>
      <button
        type="button"
        className="button small"
        disabled={page <= 1}
        onClick={() => onPage(page - 1)}
      >
        Previous
      </button>
      <span aria-live="polite">
        {first.toLocaleString()}–{last.toLocaleString()} of {total.toLocaleString()} · page {page}{' '}
        of {pages}
      </span>
      <button
        type="button"
        className="button small"
        disabled={page >= pages}
        onClick={() => onPage(page + 1)}
      >
        Next
      </button>
    </nav>
  );
}
