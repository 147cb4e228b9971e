import {
  daysToMask,
  expandSchedules,
  findOverlap,
  maskToDays,
  type ScheduleTiming,
} from '@radio/core';
import type {
  CreateScheduleBody,
  OccurrenceDto,
  ScheduleDto,
  UpdateScheduleBody,
} from '../dtos/schedules.dto.ts';
import { scheduleProblems } from '../dtos/schedules.dto.ts';
import type { AuthUser } from '../dtos/users.dto.ts';
import { ApiError } from '../errors.ts';
import type { AuditRepository } from '../repositories/audit.repository.ts';
import type { PlaylistsRepository } from '../repositories/playlists.repository.ts';
import type {
  ScheduleRow,
  SchedulesRepository,
  ScheduleValues,
} from '../repositories/schedules.repository.ts';
import type { UsersRepository } from '../repositories/users.repository.ts';
import type { ProgrammingChanges } from './programming-changes.ts';

export interface SchedulesServiceDeps {
  schedules: SchedulesRepository;
  playlists: PlaylistsRepository;
  users: UsersRepository;
  audit: AuditRepository;
  changes: ProgrammingChanges;
  timeZone: string;
}

const DAY_NAMES = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

/** With its names, where the entry reads as what the week calendar shows. */
interface TimedRow extends ScheduleTiming {
  row: ScheduleRow;
}

function timingOf(row: ScheduleRow): TimedRow {
  return {
    id: row.id,
    days: row.days,
    startTime: row.start_time,
    endTime: row.end_time,
    startDate: row.start_date,
    endDate: row.end_date,
    priority: row.priority,
    row,
  };
}

function named(id: number | null, name: string | null): { id: number; name: string } | null {
  return id === null ? null : { id, name: name ?? `#${id}` };
}

function toScheduleDto(row: ScheduleRow): ScheduleDto {
  return {
    id: row.id,
    playlistId: row.playlist_id,
    djUserId: row.dj_user_id,
    title: row.title,
    days: maskToDays(row.days),
    startTime: row.start_time,
    endTime: row.end_time,
    startDate: row.start_date,
    endDate: row.end_date,
    priority: row.priority,
    startMode: row.start_mode,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    playlist: named(row.playlist_id, row.playlist_name),
    dj: named(row.dj_user_id, row.dj_name),
  };
}

/** "entry 12 (Morning show: playlist Morning mix), Mon Tue 06:00-10:00, priority 0". */
function describeEntry(row: ScheduleRow): string {
  const what = row.playlist_id !== null ? `playlist ${row.playlist_name}` : `DJ ${row.dj_name}`;
  const label = row.title ? `${row.title}: ${what}` : what;
  const days = maskToDays(row.days)
    .map((day) => DAY_NAMES[day - 1])
    .join(' ');
  const dates =
    row.start_date || row.end_date
      ? `, from ${row.start_date ?? 'the start'} to ${row.end_date ?? 'open end'}`
      : '';
  return `entry ${row.id} (${label}), ${days} ${row.start_time}-${row.end_time}${dates}, priority ${row.priority}`;
}

function valuesOf(entry: CreateScheduleBody): ScheduleValues {
  return {
    playlist_id: entry.playlistId,
    dj_user_id: entry.djUserId,
    title: entry.title,
    days: daysToMask(entry.days),
    start_time: entry.startTime,
    end_time: entry.endTime,
    start_date: entry.startDate,
    end_date: entry.endDate,
    priority: entry.priority,
    start_mode: entry.startMode,
  };
}

/** The stored entry as a full body, for a PATCH to change. */
function bodyOf(row: ScheduleRow): CreateScheduleBody {
  const dto = toScheduleDto(row);
  return {
    playlistId: dto.playlistId,
    djUserId: dto.djUserId,
    title: dto.title,
    days: dto.days,
    startTime: dto.startTime,
    endTime: dto.endTime,
    startDate: dto.startDate,
    endDate: dto.endDate,
    priority: dto.priority,
    startMode: dto.startMode,
  };
}

/**
 * The station's week: playlists' spans and DJs' show slots in STATION_TIMEZONE. Entries of the
 * same priority may not share a minute; the 409 names the other entry. Every change reaches
 * the scheduler (`schedule.reload`) and the audit log.
 */
export class SchedulesService {
  readonly #deps: SchedulesServiceDeps;

  constructor(deps: SchedulesServiceDeps) {
    this.#deps = deps;
  }

  async list(): Promise<{ schedules: ScheduleDto[]; timeZone: string }> {
    const rows = await this.#deps.schedules.list();
    return { schedules: rows.map(toScheduleDto), timeZone: this.#deps.timeZone };
  }

  /** Every occurrence in [from, to) (epoch ms), DST-correct in the station's zone. */
  async occurrences(from: number, to: number): Promise<{ occurrences: OccurrenceDto[] }> {
    const rows = await this.#deps.schedules.list();
    const spans = expandSchedules(rows.map(timingOf), from, to, this.#deps.timeZone);
    return {
      occurrences: spans.map(({ entry: { row }, start, end }) => ({
        scheduleId: row.id,
        start: new Date(start).toISOString(),
        end: new Date(end).toISOString(),
        title: row.title,
        playlist: named(row.playlist_id, row.playlist_name),
        dj: named(row.dj_user_id, row.dj_name),
        priority: row.priority,
        startMode: row.start_mode,
      })),
    };
  }

  async create(user: AuthUser, body: CreateScheduleBody): Promise<ScheduleDto> {
    const values = valuesOf(body);
    await this.#check(values, null);
    const id = await this.#deps.schedules.create(values);
    const row = await this.#row(id);
    await this.#changed(user, 'schedule.create', row, { entry: toScheduleDto(row) });
    return toScheduleDto(row);
  }

  async update(user: AuthUser, id: number, body: UpdateScheduleBody): Promise<ScheduleDto> {
    const old = await this.#row(id);
    const patch = Object.fromEntries(
      Object.entries(body).filter(([, value]) => value !== undefined),
    );
    const merged = { ...bodyOf(old), ...patch } as CreateScheduleBody;
    const problems = scheduleProblems(merged);
    if (problems.length > 0) throw new ApiError('API_VALIDATION', `body: ${problems.join('; ')}`);
    const values = valuesOf(merged);
    await this.#check(values, id);
    await this.#deps.schedules.update(id, values);
    const row = await this.#row(id);
    await this.#changed(user, 'schedule.update', row, {
      old: toScheduleDto(old),
      new: toScheduleDto(row),
    });
    return toScheduleDto(row);
  }

  async delete(user: AuthUser, id: number): Promise<void> {
    const row = await this.#row(id);
    await this.#deps.schedules.delete(id);
    await this.#changed(user, 'schedule.delete', row, { entry: toScheduleDto(row) });
  }

  /** What the entry plays exists, and it overlaps no entry of its priority. */
  async #check(values: ScheduleValues, id: number | null): Promise<void> {
    const { playlists, users, schedules } = this.#deps;
    if (values.playlist_id !== null && !(await playlists.findById(values.playlist_id))) {
      throw new ApiError('API_PLAYLIST_NOT_FOUND', `no playlist ${values.playlist_id}`);
    }
    if (values.dj_user_id !== null) {
      const dj = await users.findById(values.dj_user_id);
      if (!dj) throw new ApiError('API_USER_NOT_FOUND', `no user ${values.dj_user_id}`);
      if (dj.role === 'listener') {
        throw new ApiError(
          'API_DJ_ROLE_REQUIRED',
          `${dj.username} is a listener: give them the dj role first`,
        );
      }
    }
    const candidate: ScheduleTiming = {
      id: id ?? 0,
      days: values.days,
      startTime: values.start_time,
      endTime: values.end_time,
      startDate: values.start_date,
      endDate: values.end_date,
      priority: values.priority,
    };
    const other = findOverlap(candidate, (await schedules.list()).map(timingOf));
    if (other) {
      throw new ApiError(
        'SCHEDULE_OVERLAP',
        `this overlaps ${describeEntry(other.row)}: give one of them another priority or other times`,
        { details: { otherId: other.id } },
      );
    }
  }

  async #row(id: number): Promise<ScheduleRow> {
    const row = await this.#deps.schedules.findById(id);
    if (!row) throw new ApiError('API_SCHEDULE_NOT_FOUND');
    return row;
  }

  async #changed(
    user: AuthUser,
    action: string,
    row: ScheduleRow,
    details: Record<string, unknown>,
  ): Promise<void> {
    await this.#deps.audit.record({
      user: { id: user.id, username: user.username },
      action,
      target: `schedule ${row.id}`,
      details,
    });
    this.#deps.changes.reload('schedule');
  }
}
