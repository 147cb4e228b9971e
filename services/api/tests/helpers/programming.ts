import type { Bus, Timeline, TimelineEntry } from '@radio/core';
import type { Express } from 'express';
import request from 'supertest';
import { BASE, PASSWORD } from './test-api.ts';

/**
 * The scheduler's side of the programming commands, registered in the test on the api's bus
 * (the scheduler is another process; this answers as it would): counts reloads and answers
 * `schedule.timeline` with the plan the test sets.
 */
export interface ScheduleAnswers {
  /** Every `schedule.reload` received. */
  readonly reloads: number;
  /** The `hours` of every `schedule.timeline` received. */
  readonly timelineRequests: number[];
  timeline: Timeline;
  /** Resolves once `count` reloads in all have arrived. */
  waitForReloads(count: number, timeoutMs?: number): Promise<void>;
  stop(): void;
}

export function answerSchedule(bus: Bus, timeline: Timeline = timelineOf([])): ScheduleAnswers {
  let reloads = 0;
  const waiters: Array<{ count: number; wake: () => void }> = [];
  const answers: ScheduleAnswers = {
    get reloads() {
      return reloads;
    },
    timelineRequests: [],
    timeline,
    waitForReloads(count, timeoutMs = 5000) {
      if (reloads >= count) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`${reloads} reloads, expected ${count}`)),
          timeoutMs,
        );
        waiters.push({
          count,
          wake: () => {
            clearTimeout(timer);
            resolve();
          },
        });
      });
    },
    stop: () => {},
  };
  answers.stop = bus.handleCommands({
    'schedule.reload': () => {
      reloads += 1;
      for (const waiter of waiters.filter((each) => reloads >= each.count)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.wake();
      }
      return { revision: reloads };
    },
    'schedule.timeline': (payload) => {
      answers.timelineRequests.push(payload.hours);
      return answers.timeline;
    },
  });
  return answers;
}

let revision = 0;

export function timelineOf(entries: TimelineEntry[], next = ++revision): Timeline {
  return { revision: next, plannedAt: Date.now(), cause: 'start', entries };
}

/** A planned track entry starting at `at`, 3 minutes long. */
export function trackEntry(
  id: number,
  at: number,
  fields: Partial<TimelineEntry> = {},
): TimelineEntry {
  return {
    at,
    end: at + 180_000,
    source: 'rotation',
    track: { id, title: `Track ${id}`, artist: `Artist ${id}`, album: null, duration: 180 },
    playlist: null,
    dj: null,
    scheduleId: null,
    songRequestId: null,
    requestId: null,
    interrupts: false,
    jingle: false,
    reason: 'rotation',
    ...fields,
  };
}

/** The session cookie of a login, for clients that are not supertest (the event stream). */
export async function sessionCookie(app: Express, username: string): Promise<string> {
  const res = await request(app).post(`${BASE}/auth/login`).send({ username, password: PASSWORD });
  if (res.status !== 200) throw new Error(`login of ${username} failed: ${res.status}`);
  const cookies = res.headers['set-cookie'] as unknown as string[];
  return cookies.map((cookie) => cookie.split(';')[0]).join('; ');
}
