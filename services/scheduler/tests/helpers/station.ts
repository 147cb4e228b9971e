import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { type Bus, createLogger, createMemoryBus, type Logger, locateFfmpeg } from '@radio/core';
import { generateTestLibrary, type TestLibrary } from '@radio/core/test-audio';
import { createDb, type DbHandle, migrateToLatest } from '@radio/db';
import { createStreamServer, type StreamServer } from '@radio/stream';
import { createScheduler, type Scheduler, type SchedulerOptions } from '../../src/index.ts';
import { ControlClient } from './control-client.ts';

export const SOURCE_PASSWORD = 'test-source-pw';
export const ADMIN = { user: 'admin', password: 'test-admin-pw' };
export const ffmpegPath = locateFfmpeg().path;

export interface StationOptions {
  crossfadeSeconds?: number;
  /** Length of each generated track (short: tests must be quick). */
  trackSeconds?: number;
  scheduler?: Partial<SchedulerOptions>;
  logger?: Logger;
  /** Start with an empty music folder (no generated library). */
  emptyLibrary?: boolean;
  /** Reuse a folder and database (a restart of the scheduler). */
  reuse?: { dir: string; fixtures: TestLibrary };
}

/**
 * A whole station for a test: a temp folder with a generated library, SQLite, the in-process
 * bus, the real stream server on a free port and the scheduler pushing to it. `stop` closes
 * everything it started, in reverse order.
 */
export class TestStation {
  readonly dir: string;
  readonly music: string;
  readonly fixtures: TestLibrary;
  readonly db: DbHandle;
  readonly bus: Bus;
  stream: StreamServer;
  scheduler: Scheduler;
  readonly #clients: ControlClient[] = [];
  readonly #logger: Logger;
  readonly #ownsDir: boolean;
  readonly #schedulerOptions: SchedulerOptions;
  /** Warnings and errors the station logged (a failing test can print them). */
  readonly warnings: string[];

  private constructor(parts: {
    dir: string;
    fixtures: TestLibrary;
    db: DbHandle;
    bus: Bus;
    stream: StreamServer;
    scheduler: Scheduler;
    logger: Logger;
    ownsDir: boolean;
    schedulerOptions: SchedulerOptions;
    warnings: string[];
  }) {
    this.dir = parts.dir;
    this.music = join(parts.dir, 'music');
    this.fixtures = parts.fixtures;
    this.db = parts.db;
    this.bus = parts.bus;
    this.stream = parts.stream;
    this.scheduler = parts.scheduler;
    this.#logger = parts.logger;
    this.#ownsDir = parts.ownsDir;
    this.#schedulerOptions = parts.schedulerOptions;
    this.warnings = parts.warnings;
  }

  static async start(options: StationOptions = {}): Promise<TestStation> {
    const warnings: string[] = [];
    const logger =
      options.logger ??
      createLogger({
        service: 'test',
        level: 'warn',
        destination: new Writable({
          write(chunk: Buffer, _encoding, done) {
            warnings.push(chunk.toString().trim());
            done();
          },
        }),
      });
    const dir = options.reuse?.dir ?? (await mkdtemp(join(tmpdir(), 'sched-station-')));
    const fixtures =
      options.reuse?.fixtures ??
      (options.emptyLibrary
        ? { dir: join(dir, 'music'), valid: [], corrupt: '', empty: '' }
        : await generateTestLibrary(join(dir, 'music'), {
            ffmpegPath,
            durationSeconds: options.trackSeconds ?? 3,
          }));
    const db = await createDb(`sqlite:${join(dir, 'radio.db')}`);
    await migrateToLatest(db.db);
    const bus = createMemoryBus({ logger });
    const stream = createStreamServer(
      {
        host: '127.0.0.1',
        port: 0,
        adminUser: ADMIN.user,
        adminPassword: ADMIN.password,
        sourcePassword: SOURCE_PASSWORD,
      },
      { logger },
    );
    await stream.start();
    const schedulerOptions: SchedulerOptions = {
      musicDir: join(dir, 'music'),
      streamUrl: stream.url,
      sourcePassword: SOURCE_PASSWORD,
      admin: ADMIN,
      controlHost: '127.0.0.1',
      controlPort: 0,
      crossfadeSeconds: options.crossfadeSeconds ?? 0,
      ffmpegPath,
      ...options.scheduler,
    };
    const scheduler = createScheduler(schedulerOptions, { db, bus, logger });
    const station = new TestStation({
      dir,
      fixtures,
      db,
      bus,
      stream,
      scheduler,
      logger,
      ownsDir: !options.reuse,
      schedulerOptions,
      warnings,
    });
    try {
      await scheduler.start();
    } catch (error) {
      await station.stop();
      throw error;
    }
    return station;
  }

  get streamUrl(): string {
    return this.stream.url;
  }

  async control(): Promise<ControlClient> {
    const client = await ControlClient.connect(this.scheduler.controlPort);
    this.#clients.push(client);
    return client;
  }

  /** One command on a fresh connection. */
  async command(line: string): Promise<string> {
    const client = await this.control();
    try {
      return await client.command(line);
    } finally {
      client.close();
    }
  }

  /** Closes the stream server and starts a new one on the same port (a restart). */
  async restartStream(downMs = 500): Promise<void> {
    const port = this.stream.port;
    await this.stream.close();
    await new Promise((resolve) => setTimeout(resolve, downMs));
    this.stream = createStreamServer(
      {
        host: '127.0.0.1',
        port,
        adminUser: ADMIN.user,
        adminPassword: ADMIN.password,
        sourcePassword: SOURCE_PASSWORD,
      },
      { logger: this.#logger },
    );
    await this.stream.start();
  }

  /** Stops the scheduler and starts a new one on the same folder, database and bus. */
  async restartScheduler(): Promise<void> {
    await this.stopScheduler();
    this.scheduler = createScheduler(
      { ...this.#schedulerOptions, streamUrl: this.stream.url },
      { db: this.db, bus: this.bus, logger: this.#logger },
    );
    await this.scheduler.start();
  }

  /** Stops the scheduler only (the folder and database stay, for a restart). */
  async stopScheduler(): Promise<void> {
    for (const client of this.#clients.splice(0)) client.close();
    await this.scheduler.close();
  }

  async stop(): Promise<void> {
    await this.stopScheduler();
    await this.stream.close();
    await this.bus.close();
    await this.db.close();
    if (this.#ownsDir) await rm(this.dir, { recursive: true, force: true });
  }
}
