import { dummyHash, hashPassword, verifyPassword } from '@radio/core';
import type { User } from '@radio/db';
import { isUniqueViolation } from '@radio/db';
import type { RateLimit } from '../auth/rate-limiter.ts';
import type { LoginBody, RegisterBody, UpdateMeBody } from '../dtos/auth.dto.ts';
import type { AuthUser } from '../dtos/users.dto.ts';
import { ApiError } from '../errors.ts';
import type { UsersRepository } from '../repositories/users.repository.ts';

export interface AuthLimits {
  /** Login attempts per client IP (every attempt counts). */
  loginPerIp: RateLimit;
  /** Login attempts per account; a successful login starts again from zero. */
  loginPerUser: RateLimit;
  /** Registrations per client IP. */
  registerPerIp: RateLimit;
}

export interface AuthServiceOptions {
  registrationOpen: boolean;
  scryptCost: number;
}

function rateLimited(waitMs: number, what: string): ApiError {
  const seconds = Math.ceil(waitMs / 1000);
  return new ApiError('API_RATE_LIMITED', `too many ${what}; try again in ${seconds} s`, {
    headers: { 'Retry-After': String(seconds) },
  });
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

  /** A new listener account; the very first account of the station becomes its admin. */
  async register(body: RegisterBody, ip: string): Promise<User> {
    if (!this.#options.registrationOpen) throw new ApiError('API_REGISTRATION_CLOSED');
    const wait = await this.#limits.registerPerIp.consume(ip);
    if (wait > 0) throw rateLimited(wait, 'registrations from your address');
    const passwordHash = await hashPassword(body.password, this.#options.scryptCost);
    try {
      return await this.#users.withAdminLock(async (trx) => {
        const first = (await this.#users.count(trx)) === 0;
        return this.#users.create(
          {
            username: body.username,
            password_hash: passwordHash,
            role: first ? 'admin' : 'listener',
          },
          trx,
        );
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new ApiError('API_USERNAME_TAKEN');
      throw error;
    }
  }

  /** The user for these credentials, or an error; rate-limited per IP and per account. */
  async login(body: LoginBody, ip: string): Promise<User> {
    const ipWait = await this.#limits.loginPerIp.consume(ip);
    if (ipWait > 0) throw rateLimited(ipWait, 'login attempts from your address');
    const account = body.username.trim().toLowerCase();
    const userWait = await this.#limits.loginPerUser.consume(account);
    if (userWait > 0) throw rateLimited(userWait, 'login attempts for this account');

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
    await this.#limits.loginPerUser.reset(account);
    await this.#users.recordLogin(user.id);
    return (await this.#users.findById(user.id)) ?? user;
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
