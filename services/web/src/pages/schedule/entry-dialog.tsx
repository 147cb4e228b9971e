import { type FormEvent, useId, useState } from 'react';
import { api } from '../../api/client.ts';
import type { Schedule, ScheduleInput, StartMode } from '../../api/types.ts';
import { Dialog } from '../../components/dialog.tsx';
import { FormError } from '../../components/status.tsx';
import { useAsync } from '../../hooks/use-async.ts';
import { useSubmit } from '../../hooks/use-submit.ts';
import { toast } from '../../hooks/use-toast.ts';
import { formatHm, parseHm } from './calendar.ts';

export const DAY_LABELS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

export interface Choice {
  id: number;
  name: string;
}

/** What the form holds: an entry being made (no id) or changed. */
export interface EntryDraft {
  id: number | null;
  what: 'playlist' | 'dj';
  playlistId: number | null;
  djUserId: number | null;
  title: string;
  days: number[];
  startTime: string;
  endTime: string;
  startDate: string;
  endDate: string;
  priority: number;
  startMode: StartMode;
}

/** A new entry of an hour from `minutes` after midnight on `days`, of a playlist if given. */
export function newDraft(
  days: number[],
  minutes: number,
  playlistId: number | null = null,
): EntryDraft {
  return {
    id: null,
    what: 'playlist',
    playlistId,
    djUserId: null,
    title: '',
    days,
    startTime: formatHm(minutes),
    endTime: formatHm(minutes + 60),
    startDate: '',
    endDate: '',
    priority: 0,
    startMode: 'after_track',
  };
}

/** The playlists and DJs an entry may name (admins only: DJs do not edit). */
export function useEntryChoices(enabled: boolean) {
  return useAsync(
    async (signal): Promise<{ playlists: Choice[]; djs: Choice[] }> => {
      if (!enabled) return { playlists: [], djs: [] };
      const [playlists, djs, admins] = await Promise.all([
        api.playlists({ scope: 'all', limit: 200 }, signal),
        api.users({ role: 'dj', limit: 200 }, signal),
        api.users({ role: 'admin', limit: 200 }, signal),
      ]);
      return {
        playlists: playlists.items.map((p) => ({ id: p.id, name: p.name })),
        djs: [...djs.items, ...admins.items].map((u) => ({ id: u.id, name: u.username })),
      };
    },
    [enabled],
  );
}

export function draftOf(schedule: Schedule): EntryDraft {
  return {
    id: schedule.id,
    what: schedule.djUserId === null ? 'playlist' : 'dj',
    playlistId: schedule.playlistId,
    djUserId: schedule.djUserId,
    title: schedule.title ?? '',
    days: schedule.days,
    startTime: schedule.startTime,
    endTime: schedule.endTime,
    startDate: schedule.startDate ?? '',
    endDate: schedule.endDate ?? '',
    priority: schedule.priority,
    startMode: schedule.startMode,
  };
}

/** The body the api takes, or what is wrong with the form. */
function inputOf(draft: EntryDraft): ScheduleInput | string {
  const chosen = draft.what === 'playlist' ? draft.playlistId : draft.djUserId;
  if (chosen === null) return draft.what === 'playlist' ? 'Choose a playlist.' : 'Choose a DJ.';
  if (draft.days.length === 0) return 'Choose at least one day.';
  if (parseHm(draft.startTime) === null || parseHm(draft.endTime) === null) {
    return 'Give the start and end as HH:MM.';
  }
  return {
    playlistId: draft.what === 'playlist' ? chosen : null,
    djUserId: draft.what === 'dj' ? chosen : null,
    title: draft.title.trim() || null,
    days: [...draft.days].sort((a, b) => a - b),
    startTime: draft.startTime,
    endTime: draft.endTime,
    startDate: draft.startDate || null,
    endDate: draft.endDate || null,
    priority: draft.priority,
    startMode: draft.startMode,
  };
}

interface EntryDialogProps {
  draft: EntryDraft | null;
  playlists: Choice[];
  djs: Choice[];
  canEdit: boolean;
  onClose(): void;
  onSaved(): void;
}

/** Creates, changes or deletes a schedule entry; read-only for DJs. */
export function EntryDialog(props: EntryDialogProps) {
  const { draft } = props;
  const title = !draft
    ? ''
    : draft.id === null
      ? 'New schedule entry'
      : props.canEdit
        ? 'Edit schedule entry'
        : 'Schedule entry';
  return (
    <Dialog open={draft !== null} title={title} onClose={props.onClose}>
      {draft ? <EntryForm key={draft.id ?? 'new'} {...props} draft={draft} /> : null}
    </Dialog>
  );
}

function EntryForm(props: EntryDialogProps & { draft: EntryDraft }) {
  const [draft, setDraft] = useState(props.draft);
  const { busy, error, setError, run } = useSubmit();
  const ids = useId();
  const set = (changes: Partial<EntryDraft>) => setDraft((d) => ({ ...d, ...changes }));
  const readOnly = !props.canEdit;

  const save = async (event: FormEvent) => {
    event.preventDefault();
    const input = inputOf(draft);
    if (typeof input === 'string') {
      setError(input);
      return;
    }
    await run(async () => {
      if (draft.id === null) await api.createSchedule(input);
      else await api.updateSchedule(draft.id, input);
      toast(draft.id === null ? 'Schedule entry created.' : 'Schedule entry saved.');
      props.onSaved();
    });
  };

  const remove = async () => {
    const { id } = draft;
    if (id === null) return;
    await run(async () => {
      await api.deleteSchedule(id);
      toast('Schedule entry deleted.');
      props.onSaved();
    });
  };

  const toggleDay = (day: number, on: boolean) =>
    set({ days: on ? [...new Set([...draft.days, day])] : draft.days.filter((d) => d !== day) });

  return (
    <form onSubmit={save} className="schedule-form">
      <fieldset disabled={readOnly || busy}>
        <div className="field">
          <span className="field-label" id={`${ids}-what`}>
            What plays
          </span>
          <div className="button-row" role="radiogroup" aria-labelledby={`${ids}-what`}>
            <label className="radio">
              <input
                type="radio"
                name="what"
                checked={draft.what === 'playlist'}
                onChange={() => set({ what: 'playlist' })}
              />
              Playlist
            </label>
            <label className="radio">
              <input
                type="radio"
                name="what"
                checked={draft.what === 'dj'}
                onChange={() => set({ what: 'dj' })}
              />
              DJ show
            </label>
          </div>
        </div>
        <ChoiceField
          id={`${ids}-choice`}
          label={draft.what === 'playlist' ? 'Playlist' : 'DJ'}
          value={draft.what === 'playlist' ? draft.playlistId : draft.djUserId}
          choices={draft.what === 'playlist' ? props.playlists : props.djs}
          onChange={(id) => set(draft.what === 'playlist' ? { playlistId: id } : { djUserId: id })}
        />
        <div className="field">
          <label htmlFor={`${ids}-title`}>Title (optional)</label>
          <input
            id={`${ids}-title`}
            value={draft.title}
            maxLength={200}
            onChange={(e) => set({ title: e.target.value })}
          />
        </div>
        <fieldset className="field days-field">
          <legend>Days</legend>
          {DAY_LABELS.map((label, index) => (
            <label key={label} className="checkbox">
              <input
                type="checkbox"
                checked={draft.days.includes(index + 1)}
                onChange={(e) => toggleDay(index + 1, e.target.checked)}
              />
              {label}
            </label>
          ))}
        </fieldset>
        <TimeFields ids={ids} draft={draft} set={set} />
      </fieldset>
      <FormError error={error} />
      <div className="dialog-actions">
        {draft.id !== null && !readOnly ? (
          <button type="button" className="button danger ghost" onClick={remove} disabled={busy}>
            Delete
          </button>
        ) : null}
        <button type="button" className="button ghost" onClick={props.onClose}>
          {readOnly ? 'Close' : 'Cancel'}
        </button>
        {readOnly ? null : (
          <button type="submit" className="button primary" disabled={busy}>
            {draft.id === null ? 'Create' : 'Save'}
          </button>
        )}
      </div>
    </form>
  );
}

function ChoiceField(props: {
  id: string;
  label: string;
  value: number | null;
  choices: Choice[];
  onChange(id: number | null): void;
}) {
  return (
    <div className="field">
      <label htmlFor={props.id}>{props.label}</label>
      <select
        id={props.id}
        value={props.value ?? ''}
        onChange={(e) => props.onChange(e.target.value ? Number(e.target.value) : null)}
      >
        <option value="">Choose…</option>
        {props.choices.map((choice) => (
          <option key={choice.id} value={choice.id}>
            {choice.name}
          </option>
        ))}
      </select>
    </div>
  );
}

/** Start and end, the date range, the priority and how the entry starts. */
function TimeFields({
  ids,
  draft,
  set,
}: {
  ids: string;
  draft: EntryDraft;
  set(changes: Partial<EntryDraft>): void;
}) {
  return (
    <>
      <div className="field-row">
        <div className="field">
          <label htmlFor={`${ids}-start`}>Start time</label>
          <input
            id={`${ids}-start`}
            type="time"
            required
            value={draft.startTime}
            onChange={(e) => set({ startTime: e.target.value })}
          />
        </div>
        <div className="field">
          <label htmlFor={`${ids}-end`}>End time</label>
          <input
            id={`${ids}-end`}
            type="time"
            required
            value={draft.endTime}
            onChange={(e) => set({ endTime: e.target.value })}
          />
        </div>
      </div>
      <p className="muted small">An end before the start runs past midnight.</p>
      <div className="field-row">
        <div className="field">
          <label htmlFor={`${ids}-from`}>From date (optional)</label>
          <input
            id={`${ids}-from`}
            type="date"
            value={draft.startDate}
            onChange={(e) => set({ startDate: e.target.value })}
          />
        </div>
        <div className="field">
          <label htmlFor={`${ids}-until`}>Until date (optional)</label>
          <input
            id={`${ids}-until`}
            type="date"
            value={draft.endDate}
            onChange={(e) => set({ endDate: e.target.value })}
          />
        </div>
      </div>
      <div className="field-row">
        <div className="field">
          <label htmlFor={`${ids}-priority`}>Priority</label>
          <input
            id={`${ids}-priority`}
            type="number"
            min={-100}
            max={100}
            step={1}
            value={draft.priority}
            onChange={(e) => set({ priority: Number(e.target.value) || 0 })}
          />
        </div>
        <div className="field">
          <label htmlFor={`${ids}-mode`}>Start mode</label>
          <select
            id={`${ids}-mode`}
            value={draft.startMode}
            onChange={(e) => set({ startMode: e.target.value as StartMode })}
          >
            <option value="after_track">After the track</option>
            <option value="interrupt">Interrupt (fade out)</option>
          </select>
        </div>
      </div>
    </>
  );
}
