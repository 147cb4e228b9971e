import { type FormEvent, useId, useMemo, useState } from 'react';
import { api } from '../api/client.ts';
import { ReportChart } from '../components/report-chart.tsx';
import { ErrorMessage, Loading } from '../components/status.tsx';
import { formatLongDuration } from '../format.ts';
import { useAsync } from '../hooks/use-async.ts';
import { useTitle } from '../hooks/use-title.ts';
import { setSearchParams, useLocation } from '../router.ts';
import {
  CLIENT_FAMILIES,
  CLIENT_NAMES,
  type ClientFamily,
  filterQuery,
  isFiltered,
  NO_FILTERS,
  type ReportFilters,
  readReportFilters,
} from './reports/filters.ts';
import {
  countryName,
  fromLocalInput,
  lastPeriod,
  MAX_PLAYS_MS,
  type Period,
  PRESETS,
  toLocalInput,
} from './reports/range.ts';
import {
  ClientTable,
  CountryTable,
  formatHours,
  type ListenersReport,
  MountTable,
  PlaysTable,
  type RowPick,
} from './reports/tables.tsx';

const isoOf = (period: Period) => ({
  from: new Date(period.from).toISOString(),
  to: new Date(period.to).toISOString(),
});

/** The period: presets, or any start and end typed in local time. */
function PeriodPicker({ period, onChange }: { period: Period; onChange: (p: Period) => void }) {
  const fromId = useId();
  const toId = useId();
  const [from, setFrom] = useState(() => toLocalInput(period.from));
  const [to, setTo] = useState(() => toLocalInput(period.to));
  const [error, setError] = useState<string | null>(null);
  const choose = (next: Period) => {
    setFrom(toLocalInput(next.from));
    setTo(toLocalInput(next.to));
    setError(null);
    onChange(next);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next = { from: fromLocalInput(from), to: fromLocalInput(to) };
    if (Number.isNaN(next.from) || Number.isNaN(next.to)) setError('Give a start and an end.');
    else if (next.from >= next.to) setError('The start must come before the end.');
    else choose(next);
  };
  return (
    <form className="button-row report-period" onSubmit={submit} aria-label="Period">
      {PRESETS.map((preset) => (
        <button
          key={preset.label}
          type="button"
          className="button small"
          onClick={() => choose(lastPeriod(preset.ms))}
        >
          Last {preset.label}
        </button>
      ))}
      <div className="field compact inline">
        <label htmlFor={fromId}>From</label>
        <input
          id={fromId}
          type="datetime-local"
          value={from}
          onChange={(e) => setFrom(e.target.value)}
        />
      </div>
      <div className="field compact inline">
        <label htmlFor={toId}>To</label>
        <input id={toId} type="datetime-local" value={to} onChange={(e) => setTo(e.target.value)} />
      </div>
      <button type="submit" className="button small primary">
        Show
      </button>
      {error ? (
        <span className="form-error" role="alert">
          {error}
        </span>
      ) : null}
    </form>
  );
}

/** Sets filters in the URL (null removes one), which reloads the report. */
const setFilters = (patch: Partial<ReportFilters>) => setSearchParams(patch);

/** A filter's choices: the unfiltered report's groups, and the chosen one if they lack it. */
function choices<T extends string>(groups: readonly T[], current: T | null): T[] {
  return current === null || groups.includes(current) ? [...groups] : [current, ...groups];
}

/** One filter: "All …" (null) or one of `options`. */
function FilterSelect({
  label,
  all,
  value,
  options,
  onChange,
}: {
  label: string;
  all: string;
  value: string | null;
  options: readonly { value: string; label: string }[];
  onChange(value: string | null): void;
}) {
  const id = useId();
  return (
    <div className="field compact inline">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        value={value ?? ''}
        onChange={(event) => onChange(event.target.value || null)}
      >
        <option value="">{all}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/**
 * The mount, country and client filters. Their choices come from the unfiltered report of the
 * period (`groups`); the unknown country is not offered, as the api filters on a code only.
 */
function FilterPicker({
  filters,
  groups,
}: {
  filters: ReportFilters;
  groups: ListenersReport | null | undefined;
}) {
  const mounts = choices(groups?.byMount.map((row) => row.mount) ?? [], filters.mount);
  const countries = choices(
    groups?.byCountry.flatMap((row) => (row.country === null ? [] : [row.country])) ?? [],
    filters.country,
  ).sort((a, b) => countryName(a).localeCompare(countryName(b)));
  const clients = choices(groups?.byClient.map((row) => row.client) ?? [], filters.client).sort(
    (a, b) => CLIENT_FAMILIES.indexOf(a) - CLIENT_FAMILIES.indexOf(b),
  );
  return (
    // biome-ignore lint/a11y/useSemanticElements: a group of selects, not a form to submit
    <div className="button-row report-filters" role="group" aria-label="Filters">
      <FilterSelect
        label="Mount"
        all="All mounts"
        value={filters.mount}
        options={mounts.map((mount) => ({ value: mount, label: mount }))}
        onChange={(mount) => setFilters({ mount })}
      />
      <FilterSelect
        label="Country"
        all="All countries"
        value={filters.country}
        options={countries.map((code) => ({ value: code, label: countryName(code) }))}
        onChange={(country) => setFilters({ country })}
      />
      <FilterSelect
        label="Client"
        all="All clients"
        value={filters.client}
        options={clients.map((client) => ({ value: client, label: CLIENT_NAMES[client] }))}
        onChange={(client) => setFilters({ client: client as ClientFamily | null })}
      />
    </div>
  );
}

/** What the report is filtered to, in words ("Germany · Apps"), and a way back to all of it. */
function FilterLine({ filters }: { filters: ReportFilters }) {
  if (!isFiltered(filters)) return null;
  const parts = [
    filters.country === null ? null : countryName(filters.country),
    filters.client === null ? null : CLIENT_NAMES[filters.client],
    filters.mount,
  ].filter((part) => part !== null);
  return (
    <p className="report-filtered">
      <span>
        Showing only <strong data-filtered>{parts.join(' · ')}</strong>
      </span>
      <button type="button" className="button small" onClick={() => setFilters(NO_FILTERS)}>
        Clear filters
      </button>
    </p>
  );
}

function Figures({ report }: { report: ListenersReport }) {
  // Unique counts merged from sketches are estimates (about 1 %): say so rather than imply
  // an exact figure.
  const unique = (count: number) =>
    `${report.uniquesEstimated ? '≈ ' : ''}${count.toLocaleString()}`;
  const figures: [string, string][] = [
    ['Peak', report.peak.listeners.toLocaleString()],
    ['Cume', unique(report.cume)],
    ['AQH', report.averageQuarterHour.toLocaleString()],
    ['Listening hours', formatHours(report.listeningHours)],
    ['Average session', formatLongDuration(report.averageSessionSeconds)],
    ['Sessions', report.sessions.toLocaleString()],
    ['Unique 24 hours', unique(report.uniqueListeners.day)],
    ['Unique 7 days', unique(report.uniqueListeners.week)],
    ['Unique 30 days', unique(report.uniqueListeners.month)],
  ];
  return (
    <dl className="stats" aria-label="Figures">
      {figures.map(([name, value]) => (
        <div key={name} data-figure={name}>
          <dt>{name}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function ListenersSection({
  report,
  filters,
}: {
  report: ListenersReport;
  filters: ReportFilters;
}) {
  const pick = (key: keyof ReportFilters): RowPick => ({
    current: filters[key],
    onPick: (value) => setFilters({ [key]: value }),
  });
  return (
    <>
      <section className="card" aria-labelledby="report-listeners">
        <div className="section-head">
          <h2 id="report-listeners">Listeners over time</h2>
          <span className="muted small">
            per {report.step}; peak {report.peak.listeners} at{' '}
            {new Date(report.peak.at).toLocaleString()}
          </span>
        </div>
        <ReportChart series={report.series} from={report.from} to={report.to} step={report.step} />
        <Figures report={report} />
        <p className="muted small">
          AQH: the average over the quarter hours of the listeners who listened at least 5 minutes
          in each. Cume: the listeners of the whole period.
          {report.uniquesEstimated
            ? ' ≈: counted from hourly summaries, within about 1 % of the exact figure.'
            : null}
        </p>
      </section>
      <div className="split even">
        <section className="card" aria-labelledby="report-countries">
          <h2 id="report-countries">Countries</h2>
          <CountryTable rows={report.byCountry} pick={pick('country')} />
        </section>
        <div className="stack">
          <section className="card" aria-labelledby="report-clients">
            <h2 id="report-clients">Clients</h2>
            <ClientTable rows={report.byClient} pick={pick('client')} />
          </section>
          <section className="card" aria-labelledby="report-mounts">
            <h2 id="report-mounts">Mounts</h2>
            <MountTable rows={report.byMount} pick={pick('mount')} />
          </section>
        </div>
      </div>
    </>
  );
}

function PlaysSection({ period, filtered }: { period: Period; filtered: boolean }) {
  const tooLong = period.to - period.from > MAX_PLAYS_MS;
  const plays = useAsync(
    (signal) =>
      tooLong ? Promise.resolve({ plays: [] }) : api.tracksReport(isoOf(period), signal),
    [period.from, period.to],
  );
  return (
    <section className="card report-plays" aria-labelledby="report-plays">
      <div className="section-head">
        <h2 id="report-plays">Tracks</h2>
        {tooLong ? null : (
          <a className="button small" href={api.playsCsvUrl(isoOf(period))} download>
            Download CSV
          </a>
        )}
      </div>
      {filtered && !tooLong ? (
        <p className="muted small">
          The tracks and the CSV count every listener: the filters do not apply to them.
        </p>
      ) : null}
      {tooLong ? (
        <p className="muted">Choose at most 31 days to see each play and download the log.</p>
      ) : plays.error ? (
        <ErrorMessage error={plays.error} onRetry={plays.reload} />
      ) : plays.data ? (
        <PlaysTable plays={plays.data.plays} />
      ) : (
        <Loading label="Counting each play's listeners…" />
      )}
    </section>
  );
}

/**
 * Who listened: the audience over a period, by country, client and mount, and per track. The
 * filters live in the URL (`?country=DE&client=app`), so a reload or a shared link shows the same.
 */
export default function ReportsPage() {
  useTitle('Reports');
  const [period, setPeriod] = useState(() => lastPeriod(PRESETS[0].ms));
  const { search } = useLocation();
  const filters = useMemo(() => readReportFilters(search), [search]);
  const filtered = isFiltered(filters);
  // The whole report: shown when nothing is filtered, and the filters' choices always.
  const all = useAsync(
    (signal) => api.listenersReport(isoOf(period), signal),
    [period.from, period.to],
  );
  const only = useAsync(
    (signal) =>
      filtered
        ? api.listenersReport({ ...isoOf(period), ...filterQuery(filters) }, signal)
        : Promise.resolve(null),
    [period.from, period.to, filters.mount, filters.country, filters.client],
  );
  const report = filtered ? only : all;
  // Just filtered: the whole report stays, dimmed, until the filtered one arrives.
  const shown = filtered ? (only.data ?? all.data) : all.data;
  return (
    <section className="page" aria-labelledby="reports-heading">
      <div className="page-head">
        <h1 id="reports-heading">Reports</h1>
      </div>
      <div className="report-controls">
        <PeriodPicker period={period} onChange={setPeriod} />
        <FilterPicker filters={filters} groups={all.data} />
      </div>
      <FilterLine filters={filters} />
      <div
        className={`stack report-body${report.loading ? ' stale' : ''}`}
        aria-busy={report.loading}
      >
        {report.error ? (
          <ErrorMessage error={report.error} onRetry={report.reload} />
        ) : shown ? (
          <ListenersSection report={shown} filters={filters} />
        ) : (
          <Loading label="Reading the listener sessions…" />
        )}
        <PlaysSection period={period} filtered={filtered} />
      </div>
    </section>
  );
}
