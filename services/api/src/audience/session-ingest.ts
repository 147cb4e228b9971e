import type { Bus, CommandPayloads, CommandResults, Logger } from '@radio/core';
import type { NewListenerSession } from '@radio/db';
import type { AudienceRepository } from './audience.repository.ts';
import { classifyClient } from './client-classifier.ts';
import type { CountryLookup } from './country-lookup.ts';
import type { ListenerPrivacy } from './listener-privacy.ts';

type Batch = CommandPayloads['listeners.sessions'];

/**
 * Answers `listeners.sessions`: each finished session of a stream server's batch gets its
 * client family and name, its country and its listener value (LISTENER_PRIVACY), and the
 * batch is stored in one transaction. The reply is sent after the commit, so it is the stream
 * server's receipt; a failure (the database away) answers an error and the stream server keeps
 * the batch to send again. Sessions already stored (a batch sent twice) are skipped.
 */
export class SessionIngest {
  readonly #repo: AudienceRepository;
  readonly #countries: CountryLookup;
  readonly #privacy: ListenerPrivacy;
  readonly #log: Logger;
  #stored = 0;

  constructor(
    repo: AudienceRepository,
    countries: CountryLookup,
    privacy: ListenerPrivacy,
    log: Logger,
  ) {
    this.#repo = repo;
    this.#countries = countries;
    this.#privacy = privacy;
    this.#log = log;
  }

  /** Sessions stored by this process (new ones, not those skipped as already stored). */
  get stored(): number {
    return this.#stored;
  }

  /** Handles the command on the bus; returns how to stop. */
  start(bus: Bus): () => void {
    return bus.handleCommands({ 'listeners.sessions': (batch) => this.store(batch) });
  }

  async store(batch: Batch): Promise<CommandResults['listeners.sessions']> {
    const rows = await Promise.all(batch.sessions.map((session) => this.#row(batch.node, session)));
    const stored = await this.#repo.insertSessions(rows);
    this.#stored += stored;
    this.#log.debug(
      { node: batch.node, sessions: rows.length, stored },
      'listener sessions stored',
    );
    return { stored };
  }

  async #row(node: string, session: Batch['sessions'][number]): Promise<NewListenerSession> {
    const { client, name } = classifyClient(session.userAgent);
    const endedAt = Math.max(session.endedAt, session.startedAt);
    return {
      session_key: session.key,
      mount: session.mount,
      transport: session.transport,
      node,
      started_ms: session.startedAt,
      ended_ms: endedAt,
      duration_ms: endedAt - session.startedAt,
      bytes: session.bytes,
      user_agent: session.userAgent,
      client,
      client_name: name,
      country: await this.#countries.country(session.ip),
      listener: await this.#privacy.listener(session.ip),
    };
  }
}
