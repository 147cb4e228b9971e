import { api, onUnauthenticated } from './api/client.ts';
import type { Role, User } from './api/types.ts';

export interface SessionState {
  /** `loading` until the first `auth-status` answer. */
  status: 'loading' | 'ready';
  user: User | null;
  /** Set when the session ended under us (expired, logged out elsewhere). */
  expired: boolean;
  /** The station has no admin yet: the first one is made with the setup code. */
  setupRequired: boolean;
}

type Listener = () => void;

/** Who is signed in, for the whole page. */
class SessionStore {
  #state: SessionState = { status: 'loading', user: null, expired: false, setupRequired: false };
  readonly #listeners = new Set<Listener>();
  #loading: Promise<void> | null = null;

  constructor() {
    onUnauthenticated(() => {
      if (this.#state.user) this.#set({ ...this.#state, user: null, expired: true });
    });
  }

  getState = (): SessionState => this.#state;

  subscribe = (listener: Listener): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  /** Asks the api once who we are; later calls share the first answer. */
  load(): Promise<void> {
    this.#loading ??= api.authStatus().then(
      (status) =>
        this.#set({
          status: 'ready',
          user: status.user ?? null,
          expired: false,
          setupRequired: status.setupRequired,
        }),
      () => this.#set({ status: 'ready', user: null, expired: false, setupRequired: false }),
    );
    return this.#loading;
  }

  async signIn(username: string, password: string): Promise<User> {
    const { user } = await api.login(username, password);
    this.#set({ ...this.#state, status: 'ready', user, expired: false });
    return user;
  }

  async register(username: string, password: string): Promise<User> {
    const { user } = await api.register(username, password);
    this.#set({ ...this.#state, status: 'ready', user, expired: false });
    return user;
  }

  /** Makes the station's first admin with the setup code, and signs them in. */
  async setUp(code: string, username: string, password: string): Promise<User> {
    const { user } = await api.setUp(code, username, password);
    this.#set({ status: 'ready', user, expired: false, setupRequired: false });
    return user;
  }

  /** Someone else made the first admin meanwhile: the app is for signing in from now on. */
  setupDone(): void {
    this.#set({ ...this.#state, setupRequired: false });
  }

  async signOut(): Promise<void> {
    try {
      await api.logout();
    } finally {
      this.#set({ ...this.#state, status: 'ready', user: null, expired: false });
    }
  }

  setUser(user: User): void {
    this.#set({ ...this.#state, user });
  }

  #set(state: SessionState): void {
    this.#state = state;
    for (const listener of this.#listeners) listener();
  }
}

export const session = new SessionStore();

const RANK: Record<Role, number> = { listener: 0, dj: 1, admin: 2 };

/** Whether `user` has `role` or a higher one (admin > dj > listener). */
export function hasRole(user: User | null | undefined, role: Role): boolean {
  return !!user && !user.disabled && RANK[user.role] >= RANK[role];
}
