import type { Queryable } from "../transaction.js";

/** An e-mail address a user typed to Memo, with the name they gave it for (if any). */
export interface GivenContact {
  email: string;
  name: string | null;
}

/** Addresses users gave Memo. Every method takes the owner's phone and touches only that owner's rows. */
export interface ContactRepository {
  /** Keeps an address (lower case); a name given later replaces the one kept, a missing one keeps it. */
  remember(phone: string, contact: GivenContact): Promise<void>;
  /** Every address the owner gave, most recent first (a user gives a handful, not thousands). */
  list(phone: string): Promise<GivenContact[]>;
}

/** ContactRepository in plain SQL. */
export class PgContactRepository implements ContactRepository {
  constructor(private readonly db: Queryable) {}

  async remember(phone: string, contact: GivenContact): Promise<void> {
    await this.db.query(
      `INSERT INTO contacts (user_phone, email, name) VALUES ($1, lower($2), $3)
       ON CONFLICT (user_phone, email)
       DO UPDATE SET name = coalesce(EXCLUDED.name, contacts.name), updated_at = now()`,
      [phone, contact.email, contact.name],
    );
  }

  async list(phone: string): Promise<GivenContact[]> {
    const { rows } = await this.db.query<GivenContact>(
      `SELECT email, name FROM contacts WHERE user_phone = $1 ORDER BY updated_at DESC, email LIMIT 500`,
      [phone],
    );
    return rows;
  }
}
