import { type FormEvent, useId, useState } from 'react';
import { api } from '../../api/client.ts';
import type { PlaylistDetail, Schedule, StartMode } from '../../api/types.ts';
import { Link } from '../../components/link.tsx';
import { ErrorMessage, FormError } from '../../components/status.tsx';
import { useAsync } from '../../hooks/use-async.ts';
import { useSession } from '../../hooks/use-session.ts';
import { useSubmit } from '../../hooks/use-submit.ts';
import { toast } from '../../hooks/use-toast.ts';
import {
  describeDays,
  describeKind,
  fromLocalInput,
  intervalField,
  KIND_LABELS,
  type PlaylistKind,
  toLocalInput,
} from '../../programming.ts';
import { hasRole } from '../../session.ts';
import { todayIn, weekday } from '../schedule/calendar.ts';
import {
  draftOf,
  EntryDialog,
  type EntryDraft,
  newDraft,
  useEntryChoices,
} from '../schedule/entry-dialog.tsx';

type Programming = Pick<
  PlaylistDetail,
  'onAir' | 'kind' | 'order' | 'weight' | 'jingle' | 'interval' | 'playAt' | 'startMode'
>;
type PlayOrder = Programming['order'];

const ORDER_LABELS: Record<PlayOrder, string> = {
  shuffle: 'Shuffle (no repeats in a round)',
  random: 'Random',
  sequential: 'In order',
};

function programmingOf(playlist: PlaylistDetail): Programming {
  const { onAir, kind, order, weight, jingle, interval, playAt, startMode } = playlist;
  return { onAir, kind, order, weight, jingle, interval, playAt, startMode };
}

/** An entry's days, times, date range, priority and start in words. */
function describeEntry(entry: Schedule): string {
  const range =
    entry.startDate || entry.endDate
      ? ` (${entry.startDate ?? '…'} to ${entry.endDate ?? '…'})`
      : '';
  return [
    `${describeDays(entry.days)} ${entry.startTime}–${entry.endTime}${range}`,
    entry.title ? `“${entry.title}”` : null,
    entry.priority ? `priority ${entry.priority}` : null,
    entry.startMode === 'interrupt' ? 'interrupts' : null,
  ]
    .filter(Boolean)
    .join(' · ');
}

/**
 * The playlist's schedule entries in words (DJs and admins), with the way to the calendar.
 * Whoever may change the calendar adds, edits and deletes them here in the calendar's dialog,
 * this playlist preselected.
 */
function ScheduleEntries({ playlist }: { playlist: PlaylistDetail }) {
  const { user } = useSession();
  const canEdit = hasRole(user, 'admin');
  const schedules = useAsync((signal) => api.schedules(signal), []);
  const choices = useEntryChoices(canEdit);
  const [draft, setDraft] = useState<EntryDraft | null>(null);
  const mine = (schedules.data?.schedules ?? [])
    .filter((s) => s.playlistId === playlist.id)
    .sort(
      (a, b) => Math.min(...a.days) - Math.min(...b.days) || a.startTime.localeCompare(b.startTime),
    );
  const zone = schedules.data?.timeZone;
  // This playlist is always a choice, even past the first page of playlists.
  const listed = choices.data?.playlists ?? [];
  const playlists = listed.some((p) => p.id === playlist.id)
    ? listed
    : [{ id: playlist.id, name: playlist.name }, ...listed];

  const add = () => {
    const today = zone ? weekday(todayIn(zone, Date.now())) : 1;
    setDraft(newDraft([today], 20 * 60, playlist.id));
  };

  return (
    <div className="schedule-entries" data-testid="playlist-schedule">
      <div className="section-head">
        <h3>Schedule</h3>
        {canEdit ? (
          <button type="button" className="button small" onClick={add}>
            Add a schedule entry
          </button>
        ) : null}
      </div>
      {schedules.error ? <ErrorMessage error={schedules.error} onRetry={schedules.reload} /> : null}
      {choices.error ? <ErrorMessage error={choices.error} onRetry={choices.reload} /> : null}
      {schedules.data && mine.length === 0 ? (
        <p className="muted">
          No schedule entries: as a rotation playlist on air it takes part in the default rotation.
        </p>
      ) : null}
      {mine.length > 0 ? (
        <ul className="schedule-entry-list">
          {mine.map((entry) => {
            const words = describeEntry(entry);
            return (
              <li key={entry.id} data-schedule-id={entry.id}>
                <span>{words}</span>
                {canEdit ? (
                  <button
                    type="button"
                    className="button small ghost"
                    aria-label={`Edit the schedule entry ${words}`}
                    onClick={() => setDraft(draftOf(entry))}
                  >
                    Edit
                  </button>
                ) : null}
              </li>
            );
          })}
        </ul>
      ) : null}
      <p className="muted small">
        {zone ? `Times are the station’s (${zone}). ` : ''}
        <Link to="/schedule">Open the week calendar</Link>
      </p>
      <EntryDialog
        draft={draft}
        playlists={playlists}
        djs={choices.data?.djs ?? []}
        canEdit={canEdit}
        onClose={() => setDraft(null)}
        onSaved={() => {
          setDraft(null);
          schedules.reload();
        }}
      />
    </div>
  );
}

function Summary({ values }: { values: Programming }) {
  return (
    <p data-testid="programming-summary">
      {values.onAir ? <span className="badge badge-live">on air</span> : 'Not on air'} ·{' '}
      {describeKind(values.kind, values.interval)} · {ORDER_LABELS[values.order]} · weight{' '}
      {values.weight}
      {values.jingle ? ' · jingle' : ''}
      {values.kind === 'once_at' && values.playAt
        ? ` · at ${new Date(values.playAt).toLocaleString()}`
        : ''}
    </p>
  );
}

/**
 * How the station programs the playlist: on air, kind, order, weight, jingle, interval, time,
 * start mode. Admins change it; everyone who sees the playlist reads it.
 */
export function ProgrammingPart({
  playlist,
  onChange,
}: {
  playlist: PlaylistDetail;
  onChange: (next: PlaylistDetail) => void;
}) {
  const { user } = useSession();
  const isAdmin = hasRole(user, 'admin');
  return (
    <section className="card" aria-labelledby="programming-heading">
      <h2 id="programming-heading">Programming</h2>
      {isAdmin ? (
        <ProgrammingForm key={playlist.updatedAt} playlist={playlist} onChange={onChange} />
      ) : (
        <Summary values={programmingOf(playlist)} />
      )}
      {hasRole(user, 'dj') ? <ScheduleEntries playlist={playlist} /> : null}
    </section>
  );
}

function ProgrammingForm({
  playlist,
  onChange,
}: {
  playlist: PlaylistDetail;
  onChange: (next: PlaylistDetail) => void;
}) {
  const [values, setValues] = useState(programmingOf(playlist));
  const { busy, error, run } = useSubmit();
  const ids = useId();
  const set = (changes: Partial<Programming>) => setValues((v) => ({ ...v, ...changes }));
  const interval = intervalField(values.kind);

  const save = (event: FormEvent) => {
    event.preventDefault();
    return run(async () => {
      onChange(
        await api.updatePlaylist(playlist.id, {
          ...values,
          interval: interval ? values.interval : null,
          playAt: values.kind === 'once_at' ? values.playAt : null,
        }),
      );
      toast('Programming saved.');
    });
  };

  return (
    <form className="form-grid programming-form" onSubmit={save}>
      <div className="button-row">
        <label className="switch" htmlFor={`${ids}-on`}>
          <input
            id={`${ids}-on`}
            type="checkbox"
            role="switch"
            checked={values.onAir}
            aria-checked={values.onAir}
            onChange={(e) => set({ onAir: e.target.checked })}
          />
          <span>On air</span>
        </label>
        <label className="checkbox">
          <input
            type="checkbox"
            checked={values.jingle}
            onChange={(e) => set({ jingle: e.target.checked })}
          />
          Jingle (no crossfade, not in the history)
        </label>
      </div>
      <div className="field-row">
        <div className="field">
          <label htmlFor={`${ids}-kind`}>Kind</label>
          <select
            id={`${ids}-kind`}
            value={values.kind}
            onChange={(e) => {
              const kind = e.target.value as PlaylistKind;
              const range = intervalField(kind);
              set({ kind, interval: range ? (values.interval ?? range.min) : null });
            }}
          >
            {Object.entries(KIND_LABELS).map(([kind, label]) => (
              <option key={kind} value={kind}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${ids}-order`}>Order</label>
          <select
            id={`${ids}-order`}
            value={values.order}
            onChange={(e) => set({ order: e.target.value as PlayOrder })}
          >
            {Object.entries(ORDER_LABELS).map(([order, label]) => (
              <option key={order} value={order}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${ids}-weight`}>Weight (1-100)</label>
          <input
            id={`${ids}-weight`}
            type="number"
            min={1}
            max={100}
            required
            value={values.weight}
            onChange={(e) => set({ weight: Number(e.target.value) })}
          />
        </div>
      </div>
      <KindFields ids={ids} values={values} set={set} />
      <FormError error={error} />
      <div className="button-row">
        <button type="submit" className="button primary" disabled={busy}>
          Save programming
        </button>
      </div>
    </form>
  );
}

/** The fields only some kinds have: the interval, the time of a once_at, the start mode. */
function KindFields({
  ids,
  values,
  set,
}: {
  ids: string;
  values: Programming;
  set(changes: Partial<Programming>): void;
}) {
  const interval = intervalField(values.kind);
  const timed = values.kind === 'hourly_at' || values.kind === 'once_at';
  if (!interval && !timed) return null;
  return (
    <div className="field-row">
      {interval ? (
        <div className="field">
          <label htmlFor={`${ids}-interval`}>{interval.label}</label>
          <input
            id={`${ids}-interval`}
            type="number"
            min={interval.min}
            max={interval.max}
            required
            value={values.interval ?? ''}
            onChange={(e) =>
              set({ interval: e.target.value === '' ? null : Number(e.target.value) })
            }
          />
        </div>
      ) : null}
      {values.kind === 'once_at' ? (
        <div className="field">
          <label htmlFor={`${ids}-at`}>Play at</label>
          <input
            id={`${ids}-at`}
            type="datetime-local"
            required
            value={toLocalInput(values.playAt)}
            onChange={(e) => set({ playAt: fromLocalInput(e.target.value) })}
          />
        </div>
      ) : null}
      {timed ? (
        <div className="field">
          <label htmlFor={`${ids}-mode`}>Start mode</label>
          <select
            id={`${ids}-mode`}
            value={values.startMode}
            onChange={(e) => set({ startMode: e.target.value as StartMode })}
          >
            <option value="after_track">After the current track</option>
            <option value="interrupt">Interrupt (fade out at the time)</option>
          </select>
        </div>
      ) : null}
    </div>
  );
}
