import type { ReactNode } from 'react';
import type { ResponseOf } from '../../api/paths.ts';
import { Empty } from '../../components/status.tsx';
import { formatTime, trackLine } from '../../format.ts';
import { CLIENT_NAMES } from './filters.ts';
import { countryName, flagOf } from './range.ts';

export type ListenersReport = ResponseOf<'get', '/reports/listeners'>;
export type PlayReport = ResponseOf<'get', '/reports/tracks'>['plays'][number];

interface Group {
  sessions: number;
  listeners: number;
  hours: number;
}

export const formatHours = (hours: number) =>
  hours.toLocaleString(undefined, { maximumFractionDigits: hours < 10 ? 2 : 1 });

/** Picking a table's row filters the report to that group (not set: rows are not buttons). */
export interface RowPick {
  /** The filter this table sets, as the row keys give it; null when it is not set. */
  current: string | null;
  onPick: (key: string) => void;
}

/** A table of groups (countries, clients, mounts): sessions, listeners, hours. */
function GroupTable({
  label,
  column,
  rows,
  pick,
}: {
  label: string;
  column: string;
  /** `pickable: false`: a group the report cannot be filtered to (the unknown country). */
  rows: { key: string; name: ReactNode; plain: string; group: Group; pickable?: boolean }[];
  pick?: RowPick | undefined;
}) {
  if (rows.length === 0) return <Empty>No listeners in this period.</Empty>;
  return (
    <div className="table-wrap">
      <table className="table" aria-label={label}>
        <thead>
          <tr>
            <th scope="col">{column}</th>
            <th scope="col" className="num">
              Sessions
            </th>
            <th scope="col" className="num">
              Listeners
            </th>
            <th scope="col" className="num">
              Hours
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map(({ key, name, plain, group, pickable = true }) => (
            <tr key={key} data-key={key}>
              <td>
                {pick && pickable && pick.current !== key ? (
                  <button
                    type="button"
                    className="pick-button"
                    title={`Show only ${plain}`}
                    onClick={() => pick.onPick(key)}
                  >
                    {name}
                  </button>
                ) : (
                  name
                )}
              </td>
              <td className="num">{group.sessions.toLocaleString()}</td>
              <td className="num">{group.listeners.toLocaleString()}</td>
              <td className="num">{formatHours(group.hours)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The world table: each country by name with its flag. */
export function CountryTable({
  rows,
  pick,
}: {
  rows: ListenersReport['byCountry'];
  pick?: RowPick | undefined;
}) {
  return (
    <GroupTable
      label="Listeners by country"
      column="Country"
      pick={pick}
      rows={rows.map((row) => ({
        key: row.country ?? 'unknown',
        plain: row.country === null ? 'unknown' : countryName(row.country),
        // The api filters on a country code only: the unknown country cannot be chosen.
        pickable: row.country !== null,
        name:
          row.country === null ? (
            <span className="muted">Unknown</span>
          ) : (
            <>
              <span aria-hidden="true">{flagOf(row.country)}</span> {countryName(row.country)}
            </>
          ),
        group: row,
      }))}
    />
  );
}

export function ClientTable({
  rows,
  pick,
}: {
  rows: ListenersReport['byClient'];
  pick?: RowPick | undefined;
}) {
  return (
    <GroupTable
      label="Listeners by client"
      column="Client"
      pick={pick}
      rows={rows.map((row) => ({
        key: row.client,
        name: CLIENT_NAMES[row.client],
        plain: CLIENT_NAMES[row.client],
        group: row,
      }))}
    />
  );
}

export function MountTable({
  rows,
  pick,
}: {
  rows: ListenersReport['byMount'];
  pick?: RowPick | undefined;
}) {
  return (
    <GroupTable
      label="Listeners by mount"
      column="Mount"
      pick={pick}
      rows={rows.map((row) => ({
        key: row.mount,
        name: <code>{row.mount}</code>,
        plain: row.mount,
        group: row,
      }))}
    />
  );
}

const count = (value: number | null) => (value === null ? '–' : value.toLocaleString());

/** Each play with its audience: at start, at end, and who left while it played. */
export function PlaysTable({ plays }: { plays: readonly PlayReport[] }) {
  if (plays.length === 0) return <Empty>Nothing was played in this period.</Empty>;
  return (
    <div className="table-wrap">
      <table className="table" aria-label="Listeners per track">
        <thead>
          <tr>
            <th scope="col">Played</th>
            <th scope="col">Track</th>
            <th scope="col" className="num">
              At start
            </th>
            <th scope="col" className="num">
              At end
            </th>
            <th scope="col" className="num">
              Left during
            </th>
            <th scope="col" className="num">
              Tune-out
            </th>
          </tr>
        </thead>
        <tbody>
          {plays.map((play) => {
            const share =
              play.leftDuring === null || !play.listeners
                ? null
                : Math.round((play.leftDuring / play.listeners) * 100);
            return (
              <tr key={play.playedAt}>
                <td>
                  <time dateTime={play.playedAt}>
                    {new Date(play.playedAt).toLocaleDateString(undefined, {
                      month: 'short',
                      day: 'numeric',
                    })}{' '}
                    {formatTime(play.playedAt)}
                  </time>
                </td>
                <td>{trackLine(play.track)}</td>
                <td className="num">{count(play.listenersAtStart)}</td>
                <td className="num">{count(play.listenersAtEnd)}</td>
                <td className="num">{count(play.leftDuring)}</td>
                <td className="num">{share === null ? '–' : `${share} %`}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
