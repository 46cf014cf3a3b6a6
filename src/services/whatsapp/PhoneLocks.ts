import type pg from "pg";
import type { Logger } from "../../utils/logger.js";

/**
 * One turn at a time per phone (D4). A lock is taken before a phone's inbox is worked off and
 * released after; a phone held elsewhere is skipped and picked up later.
 */
export interface PhoneLocks {
  /** Takes the phone's lock if no one holds it; never waits. */
  tryAcquire(phone: string): Promise<boolean>;
  release(phone: string): Promise<void>;
  close(): Promise<void>;
}

/** For the embedded database: one process owns the data folder, so a set in memory is the lock. */
export class InProcessPhoneLocks implements PhoneLocks {
  private readonly held = new Set<string>();

  tryAcquire(phone: string): Promise<boolean> {
    if (this.held.has(phone)) return Promise.resolve(false);
    this.held.add(phone);
    return Promise.resolve(true);
  }

  release(phone: string): Promise<void> {
    this.held.delete(phone);
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.held.clear();
    return Promise.resolve();
  }
}

/**
 * Across processes on Postgres: session advisory locks held on one dedicated connection. If the
 * process dies, its connection closes and Postgres releases every lock at once, so another
 * instance (or this one, restarted) takes over without waiting for a lease to run out.
 * Needs a session-level connection: a direct one or Supabase's session pooler, not a
 * transaction-mode pooler (docs/WHATSAPP.md).
 */
export class PostgresPhoneLocks implements PhoneLocks {
  private client: pg.PoolClient | undefined;
  private connecting: Promise<pg.PoolClient> | undefined;
  private readonly held = new Set<string>();

  constructor(
    private readonly pool: pg.Pool,
    private readonly logger: Logger,
  ) {}

  async tryAcquire(phone: string): Promise<boolean> {
    // Advisory locks are re-entrant within a session: the set keeps this process from stacking them.
    if (this.held.has(phone)) return false;
    const client = await this.connection();
    const { rows } = await client.query<{ locked: boolean }>(
      "SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS locked",
      [lockKey(phone)],
    );
    const locked = rows[0]?.locked === true;
    if (locked) this.held.add(phone);
    return locked;
  }

  async release(phone: string): Promise<void> {
    if (!this.held.delete(phone)) return;
    const client = this.client;
    // A lost connection released its locks already.
    if (!client) return;
    await client.query("SELECT pg_advisory_unlock(hashtextextended($1, 0))", [lockKey(phone)]);
  }

  async close(): Promise<void> {
    this.held.clear();
    const client = this.client ?? (await this.connecting?.catch(() => undefined));
    this.client = undefined;
    // Closing the session releases whatever it still holds.
    client?.release(true);
  }

  private connection(): Promise<pg.PoolClient> {
    if (this.client) return Promise.resolve(this.client);
    this.connecting ??= this.pool.connect().then(
      (client) => {
        client.on("error", (error) => {
          // Its locks are gone with it; turns in progress finish, new ones take fresh locks.
          this.logger.error({ err: error, held: this.held.size }, "phone lock connection lost");
          if (this.client === client) this.client = undefined;
          this.held.clear();
          client.release(true);
        });
        this.client = client;
        this.connecting = undefined;
        return client;
      },
      (error: unknown) => {
        this.connecting = undefined;
        throw error;
      },
    );
    return this.connecting;
  }
}

function lockKey(phone: string): string {
  return `memo:inbox:${phone}`;
}
