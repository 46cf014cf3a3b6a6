import type { Queryable } from "../transaction.js";

/**
 * Storage of phone leases (`inbox_phone_leases`): who may work off a phone's inbox, until when,
 * and the fencing token that proves it. Every statement compares against the database's clock.
 */
export class PgPhoneLeaseRepository {
  constructor(private readonly db: Queryable) {}

  /** Deletes every lease (stale ones left by an earlier run of the database's only user). */
  async clear(): Promise<void> {
    await this.db.query("DELETE FROM inbox_phone_leases");
  }

  /**
   * Takes the phone's lease for `owner` for `ttlSeconds`, in one upsert that only wins over an
   * expired lease; returns the new fencing token, or null when someone holds a live lease.
   */
  async acquire(phone: string, owner: string, ttlSeconds: number): Promise<string | null> {
    const { rows } = await this.db.query<{ token: string }>(
      `INSERT INTO inbox_phone_leases AS l (phone, owner, token, expires_at)
       VALUES ($1, $2, nextval('inbox_lease_tokens'), now() + make_interval(secs => $3))
       ON CONFLICT (phone) DO UPDATE
         SET owner = EXCLUDED.owner, token = EXCLUDED.token, expires_at = EXCLUDED.expires_at
         WHERE l.expires_at < now()
       RETURNING token`,
      [phone, owner, ttlSeconds],
    );
    const token = rows[0]?.token;
    return token === undefined ? null : String(token);
  }

  /** Deletes the phone's lease if it is still the one with this token. */
  async release(phone: string, token: string): Promise<void> {
    await this.db.query("DELETE FROM inbox_phone_leases WHERE phone = $1 AND token = $2", [phone, token]);
  }

  /** Deletes every lease of `owner`. */
  async releaseAll(owner: string): Promise<void> {
    await this.db.query("DELETE FROM inbox_phone_leases WHERE owner = $1", [owner]);
  }

  /**
   * Extends by `ttlSeconds` those of `owner`'s leases with these tokens that are still live;
   * returns the tokens extended.
   */
  async renew(owner: string, tokens: string[], ttlSeconds: number): Promise<string[]> {
    const { rows } = await this.db.query<{ token: string }>(
      `UPDATE inbox_phone_leases SET expires_at = now() + make_interval(secs => $3)
       WHERE owner = $1 AND token = ANY($2::bigint[]) AND expires_at > now()
       RETURNING token`,
      [owner, tokens, ttlSeconds],
    );
    return rows.map((r) => String(r.token));
  }
}
