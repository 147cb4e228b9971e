import { Link } from '../../components/link.tsx';

/** The two views of programming: the week's entries and the plan track by track. */
export function ScheduleTabs({ current }: { current: 'week' | 'timeline' }) {
  return (
    <nav className="tabs" aria-label="Schedule views">
      <Link to="/schedule" aria-current={current === 'week' ? 'page' : undefined}>
        Week
      </Link>
      <Link to="/schedule/timeline" aria-current={current === 'timeline' ? 'page' : undefined}>
        Timeline
      </Link>
    </nav>
  );
}
