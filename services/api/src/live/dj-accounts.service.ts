import { randomBytes } from 'node:crypto';
import { hashPassword } from '@radio/core';
import type { DjAccountUpdate } from '@radio/db';
import { isUniqueViolation, toFlag } from '@radio/db';
import type {
  CreateDjAccountBody,
  DjAccountDto,
  DjAccountWithPasswordDto,
  UpdateDjAccountBody,
} from '../dtos/live.dto.ts';
import { ApiError } from '../errors.ts';
import type { UsersRepository } from '../repositories/users.repository.ts';
import type { DjAccountRow, DjAccountsRepository } from './dj-accounts.repository.ts';

/** Letters and digits only: a broadcast password goes into URLs and source clients' settings. */
function newBroadcastPassword(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
  const bytes = randomBytes(24);
  let password = '';
  // 24 characters of a 56-letter alphabet: about 139 bits. The slight bias of `% 56` is
  // irrelevant at that length.
  for (const byte of bytes) password += alphabet[byte % alphabet.length];
  return password;
}

export function toDjAccountDto(row: DjAccountRow): DjAccountDto {
  return {
    userId: row.user_id,
    username: row.username,
    role: row.role,
    broadcastUsername: row.broadcast_username,
    displayName: row.display_name,
    enabled: Number(row.enabled) === 1,
    recordShows: Number(row.record_shows) === 1,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function uniqueName<T>(run: () => Promise<T>): Promise<T> {
  return run().catch((error: unknown) => {
    if (isUniqueViolation(error)) throw new ApiError('API_BROADCAST_USERNAME_TAKEN');
    throw error;
  });
}

/**
 * Broadcast credentials: separate from the login password, hashed like it, shown once when
 * generated. Only users with the dj (or admin) role get them.
 */
export class DjAccountsService {
  readonly #accounts: DjAccountsRepository;
  readonly #users: UsersRepository;
  readonly #scryptCost: number;

  constructor(accounts: DjAccountsRepository, users: UsersRepository, scryptCost: number) {
    this.#accounts = accounts;
    this.#users = users;
    this.#scryptCost = scryptCost;
  }

  async list(): Promise<DjAccountDto[]> {
    return (await this.#accounts.list()).map(toDjAccountDto);
  }

  async get(userId: number): Promise<DjAccountDto> {
    return toDjAccountDto(await this.#find(userId));
  }

  /** The account of `userId`, or null when it has none. */
  async mine(userId: number): Promise<DjAccountDto | null> {
    const row = await this.#accounts.find(userId);
    return row ? toDjAccountDto(row) : null;
  }

  async create(body: CreateDjAccountBody): Promise<DjAccountWithPasswordDto> {
    const user = await this.#users.findById(body.userId);
    if (!user) throw new ApiError('API_USER_NOT_FOUND');
    if (user.role !== 'dj' && user.role !== 'admin') {
      throw new ApiError(
        'API_DJ_ROLE_REQUIRED',
        `${user.username} is a ${user.role}: give the user the dj role first`,
      );
    }
    if (await this.#accounts.find(user.id)) throw new ApiError('API_DJ_ACCOUNT_EXISTS');
    const password = newBroadcastPassword();
    const passwordHash = await hashPassword(password, this.#scryptCost);
    await uniqueName(() =>
      this.#accounts.create({
        user_id: user.id,
        broadcast_username: body.broadcastUsername ?? user.username.toLowerCase(),
        password_hash: passwordHash,
        display_name: body.displayName ?? user.username,
        enabled: toFlag(body.enabled),
        record_shows: toFlag(body.recordShows),
      }),
    );
    return { ...(await this.get(user.id)), password };
  }

  async update(userId: number, body: UpdateDjAccountBody): Promise<DjAccountDto> {
    const changes: DjAccountUpdate = {};
    if (body.broadcastUsername !== undefined) changes.broadcast_username = body.broadcastUsername;
    if (body.displayName !== undefined) changes.display_name = body.displayName;
    if (body.enabled !== undefined) changes.enabled = toFlag(body.enabled);
    if (body.recordShows !== undefined) changes.record_shows = toFlag(body.recordShows);
    const found = await uniqueName(() => this.#accounts.update(userId, changes));
    if (!found) throw new ApiError('API_DJ_ACCOUNT_NOT_FOUND');
    return this.get(userId);
  }

  /** A new broadcast password (shown once); the old one stops working at once. */
  async regenerate(userId: number): Promise<DjAccountWithPasswordDto> {
    await this.#find(userId);
    const password = newBroadcastPassword();
    const passwordHash = await hashPassword(password, this.#scryptCost);
    await this.#accounts.update(userId, { password_hash: passwordHash });
    return { ...(await this.get(userId)), password };
  }

  async delete(userId: number): Promise<void> {
    if (!(await this.#accounts.delete(userId))) throw new ApiError('API_DJ_ACCOUNT_NOT_FOUND');
  }

  async #find(userId: number): Promise<DjAccountRow> {
    const row = await this.#accounts.find(userId);
    if (!row) throw new ApiError('API_DJ_ACCOUNT_NOT_FOUND');
    return row;
  }
}
