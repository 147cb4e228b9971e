import { hashPassword } from '@radio/core';
import type { UserUpdate } from '@radio/db';
import { isUniqueViolation, toFlag } from '@radio/db';
import type { Page } from '../dtos/common.dto.ts';
import { toUserDto } from '../dtos/mappers.ts';
import type { CreateUserBody, UpdateUserBody, UserDto, UserListQuery } from '../dtos/users.dto.ts';
import { ApiError } from '../errors.ts';
import type { UsersRepository } from '../repositories/users.repository.ts';
import type { ProgrammingChanges } from './programming-changes.ts';

/** Account administration. The station keeps at least one enabled admin at all times. */
export class UsersService {
  readonly #users: UsersRepository;
  readonly #scryptCost: number;
  readonly #programming: ProgrammingChanges;

  constructor(users: UsersRepository, scryptCost: number, programming: ProgrammingChanges) {
    this.#users = users;
    this.#scryptCost = scryptCost;
    this.#programming = programming;
  }

  async list(query: UserListQuery): Promise<Page<UserDto>> {
    const { rows, total } = await this.#users.list({
      q: query.q,
      role: query.role,
      offset: (query.page - 1) * query.limit,
      limit: query.limit,
    });
    return { items: rows.map(toUserDto), total, page: query.page, limit: query.limit };
  }

  async get(id: number): Promise<UserDto> {
    const user = await this.#users.findById(id);
    if (!user) throw new ApiError('API_USER_NOT_FOUND');
    return toUserDto(user);
  }

  async create(body: CreateUserBody): Promise<UserDto> {
    const passwordHash = await hashPassword(body.password, this.#scryptCost);
    try {
      const user = await this.#users.create({
        username: body.username,
        password_hash: passwordHash,
        role: body.role,
        disabled: toFlag(body.disabled),
      });
      return toUserDto(user);
    } catch (error) {
      if (isUniqueViolation(error)) throw new ApiError('API_USERNAME_TAKEN');
      throw error;
    }
  }

  /** Role, disabled flag, name, or a password reset (which ends that user's sessions). */
  async update(id: number, body: UpdateUserBody): Promise<UserDto> {
    const patch: UserUpdate = {};
    if (body.username !== undefined) patch.username = body.username;
    if (body.role !== undefined) patch.role = body.role;
    if (body.disabled !== undefined) patch.disabled = toFlag(body.disabled);
    if (body.password !== undefined)
      patch.password_hash = await hashPassword(body.password, this.#scryptCost);
    try {
      const user = await this.#users.withAdminLock(async (trx) => {
        const target = await this.#users.findById(id, trx);
        if (!target) throw new ApiError('API_USER_NOT_FOUND');
        const losesAdmin =
          target.role === 'admin' &&
          target.disabled === 0 &&
          ((body.role !== undefined && body.role !== 'admin') || body.disabled === true);
        if (losesAdmin && (await this.#users.countActiveAdmins(trx, id)) === 0) {
          throw new ApiError(
            'API_LAST_ADMIN',
            'this is the last active admin: make another admin first',
          );
        }
        return this.#users.update(id, patch, trx);
      });
      if (!user) throw new ApiError('API_USER_NOT_FOUND');
      return toUserDto(user);
    } catch (error) {
      if (isUniqueViolation(error)) throw new ApiError('API_USERNAME_TAKEN');
      throw error;
    }
  }

  async delete(id: number): Promise<void> {
    await this.#users.withAdminLock(async (trx) => {
      const target = await this.#users.findById(id, trx);
      if (!target) throw new ApiError('API_USER_NOT_FOUND');
      if (
        target.role === 'admin' &&
        target.disabled === 0 &&
        (await this.#users.countActiveAdmins(trx, id)) === 0
      ) {
        throw new ApiError(
          'API_LAST_ADMIN',
          'this is the last active admin: make another admin first',
        );
      }
      await this.#users.delete(id, trx);
    });
    // The account's show slots, playlists (and their schedules) and requests went with it:
    // the scheduler must not keep planning them.
    this.#programming.reload('user deleted');
  }
}
