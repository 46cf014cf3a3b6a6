import type { Queryable } from "../transaction.js";

/** The user's language, as stored in users.language. */
export type StoredLanguage = "he" | "en" | "other" | null;

/** A user's stored Google connection: the encrypted tokens, its status, and when it was made. */
export interface GoogleConnection {
  tokens: Buffer;
  status: "connected" | "lost";
  createdAt: Date;
}

/** A connect link's nonce, with its owner's language. */
export interface LinkNonce {
  usedAt: Date | null;
  expiresAt: Date;
  language: StoredLanguage;
}

/**
 * Storage of users' Google connections (`google_connections`, with the `users.google_connected`
 * flag kept in step in the same statement) and of the single-use connect-link nonces
 * (`google_link_nonces`). Tokens are stored as given: the caller encrypts them.
 */
export class PgGoogleAccountRepository {
  constructor(private readonly db: Queryable) {}

  /** The connection's encrypted tokens and status; null when the user never connected. */
  async status(phone: string): Promise<Omit<GoogleConnection, "createdAt"> | null> {
    const { rows } = await this.db.query<Omit<GoogleConnection, "createdAt">>(
      "SELECT tokens, status FROM google_connections WHERE user_phone = $1",
      [phone],
    );
    return rows[0] ?? null;
  }

  /** The connection; null when the user never connected. */
  async connection(phone: string): Promise<GoogleConnection | null> {
    const { rows } = await this.db.query<{ tokens: Buffer; status: "connected" | "lost"; created_at: Date }>(
      "SELECT tokens, status, created_at FROM google_connections WHERE user_phone = $1",
      [phone],
    );
    const row = rows[0];
    return row ? { tokens: row.tokens, status: row.status, createdAt: row.created_at } : null;
  }

  /** Stores refreshed tokens, unless the connection made at `connectedAt` was replaced or removed since. */
  async storeRefreshed(phone: string, connectedAt: Date, tokens: Buffer, at: Date): Promise<void> {
    await this.db.query(
      `UPDATE google_connections SET tokens = $3, updated_at = $4
       WHERE user_phone = $1 AND created_at = $2 AND status = 'connected'`,
      [phone, connectedAt, tokens, at],
    );
  }

  /**
   * Marks the connection lost and turns the user's flag off, in one statement; true only for the
   * call that finds the loss not yet notified (the first).
   */
  async markLost(phone: string, at: Date): Promise<boolean> {
    const { rows } = await this.db.query<{ first: boolean }>(
      `WITH marked AS (
         UPDATE google_connections
         SET status = 'lost', lost_at = COALESCE(lost_at, $2), lost_notified_at = $2, updated_at = $2
         WHERE user_phone = $1 AND lost_notified_at IS NULL
         RETURNING user_phone
       ), flag AS (
         UPDATE users SET google_connected = false, updated_at = now() WHERE phone = $1 RETURNING phone
       )
       SELECT EXISTS (SELECT 1 FROM marked) AS first`,
      [phone, at],
    );
    return rows[0]?.first ?? false;
  }

  /** Deletes the user's link nonces that expired before `before`. */
  async deleteExpiredNonces(phone: string, before: Date): Promise<void> {
    await this.db.query("DELETE FROM google_link_nonces WHERE user_phone = $1 AND expires_at < $2", [
      phone,
      before,
    ]);
  }

  async addNonce(nonce: string, phone: string, expiresAt: Date): Promise<void> {
    await this.db.query(
      "INSERT INTO google_link_nonces (nonce, user_phone, expires_at) VALUES ($1, $2, $3)",
      [nonce, phone, expiresAt],
    );
  }

  /** The phone's nonce with its owner's language, changing nothing; null when there is none. */
  async nonce(nonce: string, phone: string): Promise<LinkNonce | null> {
    const { rows } = await this.db.query<{
      used_at: Date | null;
      expires_at: Date;
      language: StoredLanguage;
    }>(
      `SELECT n.used_at, n.expires_at, u.language
       FROM google_link_nonces n JOIN users u ON u.phone = n.user_phone
       WHERE n.nonce = $1 AND n.user_phone = $2`,
      [nonce, phone],
    );
    const row = rows[0];
    return row ? { usedAt: row.used_at, expiresAt: row.expires_at, language: row.language } : null;
  }

  /** Moves an unused nonce still valid at `now` to expire at `until`; false when there is no such nonce. */
  async extendNonce(nonce: string, phone: string, now: Date, until: Date): Promise<boolean> {
    const { rowCount } = await this.db.query(
      `UPDATE google_link_nonces SET expires_at = $4
       WHERE nonce = $1 AND user_phone = $2 AND used_at IS NULL AND expires_at > $3`,
      [nonce, phone, now, until],
    );
    return !!rowCount;
  }

  /**
   * Uses up an unused nonce still valid at `now`, atomically (of two calls only one succeeds);
   * returns its owner's language, or null when there was no such nonce.
   */
  async consumeNonce(nonce: string, phone: string, now: Date): Promise<{ language: StoredLanguage } | null> {
    const { rows } = await this.db.query<{ language: StoredLanguage }>(
      `UPDATE google_link_nonces n SET used_at = $3
       FROM users u
       WHERE n.nonce = $1 AND n.user_phone = $2 AND u.phone = n.user_phone
         AND n.used_at IS NULL AND n.expires_at > $3
       RETURNING u.language`,
      [nonce, phone, now],
    );
    return rows[0] ?? null;
  }

  /** When the phone's nonce was used (null: not yet); undefined when there is no such nonce. */
  async nonceUsedAt(nonce: string, phone: string): Promise<Date | null | undefined> {
    const { rows } = await this.db.query<{ used_at: Date | null }>(
      "SELECT used_at FROM google_link_nonces WHERE nonce = $1 AND user_phone = $2",
      [nonce, phone],
    );
    return rows[0]?.used_at;
  }

  /**
   * Stores the tokens and turns the user's flag on, in one statement; reconnecting starts a fresh
   * connection (new created_at, so clients made before it never overwrite its tokens).
   */
  async saveConnection(
    phone: string,
    connection: { tokens: Buffer; scopes: string[]; email: string | null; at: Date },
  ): Promise<void> {
    await this.db.query(
      `WITH saved AS (
         INSERT INTO google_connections (user_phone, tokens, scopes, email, status, created_at, updated_at)
         VALUES ($1, $2, $3, $4, 'connected', $5, $5)
         ON CONFLICT (user_phone) DO UPDATE SET
           tokens = EXCLUDED.tokens, scopes = EXCLUDED.scopes,
           email = COALESCE(EXCLUDED.email, google_connections.email), status = 'connected',
           lost_at = NULL, lost_notified_at = NULL,
           created_at = EXCLUDED.created_at, updated_at = EXCLUDED.updated_at
         RETURNING user_phone
       )
       UPDATE users SET google_connected = true, updated_at = now() WHERE phone = (SELECT user_phone FROM saved)`,
      [phone, connection.tokens, connection.scopes, connection.email, connection.at],
    );
  }

  /**
   * How many of the user's built-in calendar events are still ahead at `now`: timed events not yet
   * over (one under way counts too), all-day events ending after today (end_date is exclusive, and
   * "today" is taken in the event's own time zone), and every recurring event.
   */
  async builtInEventsAhead(phone: string, now: Date): Promise<number> {
    const { rows } = await this.db.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM calendar_events
       WHERE user_phone = $1
         AND (recurrence IS NOT NULL
           OR (NOT all_day AND COALESCE(end_at, start_at) >= $2)
           OR (all_day AND end_date > ($2::timestamptz AT TIME ZONE time_zone)::date))`,
      [phone, now],
    );
    return rows[0]?.count ?? 0;
  }

  /**
   * Deletes the connection and turns the user's flag off, in one statement; returns the deleted
   * encrypted tokens, or null when there was no connection.
   */
  async removeConnection(phone: string): Promise<Buffer | null> {
    const { rows } = await this.db.query<{ tokens: Buffer }>(
      `WITH removed AS (
         DELETE FROM google_connections WHERE user_phone = $1 RETURNING tokens
       ), flag AS (
         UPDATE users SET google_connected = false, updated_at = now() WHERE phone = $1 RETURNING phone
       )
       SELECT tokens FROM removed`,
      [phone],
    );
    return rows[0]?.tokens ?? null;
  }
}
