import { dummyHash, hashPassword, needsRehash, verifyPassword } from '@radio/core';
import type { User } from '@radio/db';
import { isUniqueViolation } from '@radio/db';
import { type RateLimit, rateLimited } from '../auth/rate-limiter.ts';
import type { LoginBody, RegisterBody, UpdateMeBody } from '../dtos/auth.dto.ts';
import type { AuthUser } from '../dtos/users.dto.ts';
import { ApiError } from '../errors.ts';
import type { UsersRepository } from '../repositories/users.repository.ts';

/** Each counts per client address (through the trusted proxies), or per account. */
export interface AuthLimits {
  /** Failed logins per client; a successful one is given back. */
  loginPerIp: RateLimit;
  /** Failed logins per account; a successful login starts again from zero. */
  loginPerUser: RateLimit;
  /** Registrations per client. */
  registerPerIp: RateLimit;
}

export interface AuthServiceOptions {
  registrationOpen: boolean;
  scryptCost: number;
}

export class AuthService {
  readonly #users: UsersRepository;
  readonly #limits: AuthLimits;
  readonly #options: AuthServiceOptions;
  #dummy: Promise<string> | null = null;

  constructor(users: UsersRepository, limits: AuthLimits, options: AuthServiceOptions) {
    this.#users = users;
    this.#limits = limits;
    this.#options = options;
  }

  get registrationOpen(): boolean {
    return this.#options.registrationOpen;
  }

  /**
   * A new listener account. Never an admin, not even the first account: a stranger who finds
   * a fresh station must not own it (the first admin comes with the setup code, FirstAdmin).
   */
  async register(body: RegisterBody, client: string): Promise<User> {
    if (!this.#options.registrationOpen) throw new ApiError('API_REGISTRATION_CLOSED');
    const wait = await this.#limits.registerPerIp.consume(client);
    if (wait > 0) throw rateLimited(wait, 'registrations from your address');
    const passwordHash = await hashPassword(body.password, this.#options.scryptCost);
    try {
      return await this.#users.create({
        username: body.username,
        password_hash: passwordHash,
        role: 'listener',
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new ApiError('API_USERNAME_TAKEN');
      throw error;
    }
  }

  /**
   * The user for these credentials, or an error. Failures are limited per client and per
   * account; a successful login counts for neither.
   */
  async login(body: LoginBody, client: string): Promise<User> {
    const ipWait = await this.#limits.loginPerIp.consume(client);
    if (ipWait > 0) throw rateLimited(ipWait, 'failed logins from your address');
    const account = body.username.trim().toLowerCase();
    const userWait = await this.#limits.loginPerUser.consume(account);
    if (userWait > 0) throw rateLimited(userWait, 'failed logins for this account');

    const user = await this.#users.findByUsername(body.username.trim());
    if (!user) {
      // As slow as a wrong password, so the answer does not tell which user names exist.
      this.#dummy ??= dummyHash(this.#options.scryptCost);
      await verifyPassword(body.password, await this.#dummy);
      throw new ApiError('API_INVALID_CREDENTIALS');
    }
    if (!(await verifyPassword(body.password, user.password_hash))) {
      throw new ApiError('API_INVALID_CREDENTIALS');
    }
    if (user.disabled !== 0) throw new ApiError('API_ACCOUNT_DISABLED');
    await this.#limits.loginPerIp.refund(client);
    await this.#limits.loginPerUser.reset(account);
    await this.#users.recordLogin(user.id);
    await this.#upgradeHash(user, body.password);
    return (await this.#users.findById(user.id)) ?? user;
  }

  /**
   * A hash made at a lower cost than today's is made again while the password is at hand.
   * The session fingerprint follows the hash, so the account's other sessions end this once.
   */
  async #upgradeHash(user: User, password: string): Promise<void> {
    if (!needsRehash(user.password_hash, this.#options.scryptCost)) return;
    const upgraded = await hashPassword(password, this.#options.scryptCost);
    await this.#users.replacePasswordHash(user.id, user.password_hash, upgraded);
  }

  /** Changes the caller's own name or password (the password needs the current one). */
  async updateMe(
    me: AuthUser,
    body: UpdateMeBody,
  ): Promise<{ user: User; passwordChanged: boolean }> {
    const current = await this.#users.findById(me.id);
    if (!current) throw new ApiError('API_UNAUTHENTICATED');
    let passwordHash: string | undefined;
    if (body.password !== undefined) {
      const account = current.username.toLowerCase();
      const wait = await this.#limits.loginPerUser.consume(account);
      if (wait > 0) throw rateLimited(wait, 'password attempts for this account');
      if (!(await verifyPassword(body.currentPassword ?? '', current.password_hash))) {
        throw new ApiError('API_WRONG_PASSWORD');
      }
      await this.#limits.loginPerUser.reset(account);
      passwordHash = await hashPassword(body.password, this.#options.scryptCost);
    }
    try {
      const user = await this.#users.update(me.id, {
        ...(body.username !== undefined && { username: body.username }),
        ...(passwordHash !== undefined && { password_hash: passwordHash }),
      });
      if (!user) throw new ApiError('API_UNAUTHENTICATED');
      return { user, passwordChanged: passwordHash !== undefined };
    } catch (error) {
      if (isUniqueViolation(error)) throw new ApiError('API_USERNAME_TAKEN');
      throw error;
    }
  }

  /**
   * Creates the configured admin account when the station has no user at all (a fresh
   * install), so a station with registration closed can still be administered.
   */
  async ensureBootstrapAdmin(username: string, password: string): Promise<boolean> {
    const passwordHash = await hashPassword(password, this.#options.scryptCost);
    try {
      return await this.#users.withAdminLock(async (trx) => {
        if ((await this.#users.count(trx)) > 0) return false;
        await this.#users.create({ username, password_hash: passwordHash, role: 'admin' }, trx);
        return true;
      });
    } catch (error) {
      // Another api process created it at the same moment.
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }
}
