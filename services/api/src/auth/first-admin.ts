import { hashPassword, type Logger } from '@radio/core';
import { type DbHandle, isUniqueViolation, type User } from '@radio/db';
import type { SetupBody } from '../dtos/auth.dto.ts';
import { ApiError } from '../errors.ts';
import type { UsersRepository } from '../repositories/users.repository.ts';
import { type RateLimit, rateLimited } from './rate-limiter.ts';
import { generateSetupCode, isSetupCode } from './setup-code.ts';
import type { SetupCodeStore } from './setup-code-store.ts';

export interface FirstAdminOptions {
  /** SETUP_CODE; unset: one is generated and kept in the database until used. */
  configuredCode: string | undefined;
  scryptCost: number;
}

export interface FirstAdminDeps {
  db: DbHandle;
  users: UsersRepository;
  store: SetupCodeStore;
  /** Wrong codes per client. */
  limit: RateLimit;
  log: Logger;
}

/**
 * How a station gets its first admin without trusting whoever comes first: the admin is
 * created by someone who has the setup code, which only the operator sees (in the log at
 * start, or as SETUP_CODE). Registration never makes an admin.
 */
export class FirstAdmin {
  readonly #deps: FirstAdminDeps;
  readonly #options: FirstAdminOptions;
  #code: string | null = null;
  /** Set once an admin is seen: admins do not all vanish (the last one cannot be removed). */
  #done = false;

  constructor(deps: FirstAdminDeps, options: FirstAdminOptions) {
    this.#deps = deps;
    this.#options = options;
  }

  /** The code while the station waits for its first admin; null once there is one. */
  get code(): string | null {
    return this.#done ? null : this.#code;
  }

  /** At start: null when there is an admin; else the code (generated and kept the first time). */
  async prepare(): Promise<string | null> {
    if (!(await this.required())) return null;
    this.#code = this.#options.configuredCode ?? (await this.#deps.store.keep(generateSetupCode()));
    return this.#code;
  }

  async required(): Promise<boolean> {
    if (!this.#done) this.#done = (await this.#deps.users.countActiveAdmins(this.#deps.db.db)) > 0;
    return !this.#done;
  }

  /** Creates the first admin for the right code; wrong codes are limited per client. */
  async complete(body: SetupBody, client: string): Promise<User> {
    if (!(await this.required())) throw new ApiError('API_SETUP_DONE');
    const wait = await this.#deps.limit.consume(client);
    if (wait > 0) throw rateLimited(wait, 'wrong setup codes from your address');
    const expected = this.#options.configuredCode ?? (await this.#deps.store.read());
    if (expected === null || !isSetupCode(body.code, expected)) {
      throw new ApiError('API_SETUP_CODE_INVALID');
    }
    await this.#deps.limit.refund(client);
    const user = await this.#create(body);
    this.#done = true;
    this.#deps.log.info({ username: user.username, userId: user.id }, 'first admin created');
    return user;
  }

  async #create(body: SetupBody): Promise<User> {
    const { users, store } = this.#deps;
    const passwordHash = await hashPassword(body.password, this.#options.scryptCost);
    try {
      return await users.withAdminLock(async (trx) => {
        if ((await users.countActiveAdmins(trx)) > 0) throw new ApiError('API_SETUP_DONE');
        const user = await users.create(
          { username: body.username, password_hash: passwordHash, role: 'admin' },
          trx,
        );
        await store.delete(trx);
        return user;
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new ApiError('API_USERNAME_TAKEN');
      throw error;
    }
  }
}
