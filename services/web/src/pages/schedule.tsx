import { useMemo, useState } from 'react';
import { api } from '../api/client.ts';
import { describeError } from '../api/errors.ts';
import type { Occurrence, Schedule } from '../api/types.ts';
import { ErrorMessage, Loading } from '../components/status.tsx';
import { useAsync } from '../hooks/use-async.ts';
import { useSession } from '../hooks/use-session.ts';
import { useTitle } from '../hooks/use-title.ts';
import { toast } from '../hooks/use-toast.ts';
import { setSearchParams, useLocation } from '../router.ts';
import { hasRole } from '../session.ts';
import {
  addDays,
  entrySpan,
  layoutWeek,
  moveSchedule,
  type Span,
  todayIn,
  wallClock,
  weekday,
  weekStart,
} from './schedule/calendar.ts';
import {
  draftOf,
  EntryDialog,
  type EntryDraft,
  newDraft,
  useEntryChoices,
} from './schedule/entry-dialog.tsx';
import { ScheduleTabs } from './schedule/tabs.tsx';
import { type MoveDelta, WeekGrid } from './schedule/week-grid.tsx';

const BROWSER_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

function weekLabel(monday: string): string {
  const format = (date: string) =>
    new Date(`${date}T12:00:00Z`).toLocaleDateString(undefined, {
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      timeZone: 'UTC',
    });
  return `${format(monday)} – ${format(addDays(monday, 6))}`;
}

export default function SchedulePage() {
  useTitle('Schedule');
  const { user } = useSession();
  const canEdit = hasRole(user, 'admin');
  const { search } = useLocation();
  // The station's zone once the schedule has come (its wall clock is the calendar's).
  const [zone, setZone] = useState(BROWSER_ZONE);
  const today = todayIn(zone, Date.now());
  const asked = new URLSearchParams(search).get('week');
  const monday = weekStart(asked && /^\d{4}-\d{2}-\d{2}$/.test(asked) ? asked : today);
  const [draft, setDraft] = useState<EntryDraft | null>(null);

  // A day more on each side than the week: the station's zone may be a day off UTC.
  const data = useAsync(
    async (signal) => {
      const [occurrences, schedules] = await Promise.all([
        api.occurrences(
          { from: `${addDays(monday, -1)}T00:00:00Z`, to: `${addDays(monday, 8)}T00:00:00Z` },
          signal,
        ),
        api.schedules(signal),
      ]);
      setZone(schedules.timeZone);
      return { occurrences: occurrences.occurrences, schedules: schedules.schedules };
    },
    [monday],
  );
  const choices = useEntryChoices(canEdit);

  const byId = useMemo(
    () => new Map<number, Schedule>((data.data?.schedules ?? []).map((s) => [s.id, s])),
    [data.data],
  );
  const blocks = useMemo(() => {
    const spanOf = (occurrence: Occurrence): Span => {
      const schedule = byId.get(occurrence.scheduleId);
      if (schedule) return entrySpan(Date.parse(occurrence.start), schedule);
      return {
        start: wallClock(occurrence.start, zone),
        end: wallClock(occurrence.end, zone),
      };
    };
    return layoutWeek(data.data?.occurrences ?? [], monday, spanOf);
  }, [data.data, byId, monday, zone]);

  const create = (day: string, minutes: number) => setDraft(newDraft([weekday(day)], minutes));

  const open = (occurrence: Occurrence) => {
    const schedule = byId.get(occurrence.scheduleId);
    if (schedule) setDraft(draftOf(schedule));
  };

  const move = async (occurrence: Occurrence, delta: MoveDelta) => {
    const schedule = byId.get(occurrence.scheduleId);
    if (!schedule) return;
    try {
      await api.updateSchedule(schedule.id, moveSchedule(schedule, delta));
      toast('Schedule entry moved.');
    } catch (reason) {
      toast(describeError(reason), 'error');
    }
    data.reload();
  };

  return (
    <section className="page" aria-labelledby="schedule-heading">
      <div className="page-head">
        <h1 id="schedule-heading">Schedule</h1>
        <div className="button-row">
          <button
            type="button"
            className="button small"
            onClick={() => setSearchParams({ week: addDays(monday, -7) })}
          >
            ← Previous week
          </button>
          <button
            type="button"
            className="button small ghost"
            onClick={() => setSearchParams({ week: null })}
          >
            This week
          </button>
          <button
            type="button"
            className="button small"
            onClick={() => setSearchParams({ week: addDays(monday, 7) })}
          >
            Next week →
          </button>
          {canEdit ? (
            <button
              type="button"
              className="button small primary"
              onClick={() => create(monday === weekStart(today) ? today : monday, 20 * 60)}
            >
              New entry
            </button>
          ) : null}
        </div>
      </div>
      <ScheduleTabs current="week" />
      <p className="muted" data-testid="schedule-week">
        Week of {weekLabel(monday)}, in the station’s time{data.data ? ` (${zone})` : ''}.{' '}
        {canEdit
          ? 'Click an empty hour to add an entry; drag an entry to move it.'
          : 'Only admins change the schedule.'}
      </p>
      {data.error ? <ErrorMessage error={data.error} onRetry={data.reload} /> : null}
      {choices.error ? <ErrorMessage error={choices.error} onRetry={choices.reload} /> : null}
      {data.loading && !data.data ? <Loading label="Loading the schedule…" /> : null}
      <WeekGrid
        monday={monday}
        today={today}
        blocks={blocks}
        canEdit={canEdit}
        onCreate={create}
        onOpen={open}
        onMove={move}
      />
      <EntryDialog
        draft={draft}
        playlists={choices.data?.playlists ?? []}
        djs={choices.data?.djs ?? []}
        canEdit={canEdit}
        onClose={() => setDraft(null)}
        onSaved={() => {
          setDraft(null);
          data.reload();
        }}
      />
    </section>
  );
}
