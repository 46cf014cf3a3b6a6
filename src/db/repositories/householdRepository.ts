import type { Language } from "../../types/user.js";
import type { Queryable } from "../transaction.js";

/** One person of a household, as the household knows them. */
export interface HouseholdMember {
  phone: string;
  name: string;
  joinedAt: number;
  /** Their language and zone as Memo knows them (null: not a user any more). */
  language: Language | null;
  timeZone: string | null;
}

export interface Household {
  id: string;
  members: HouseholdMember[];
}

export type InvitationStatus = "pending" | "accepted" | "declined" | "cancelled";

export interface Invitation {
  id: string;
  householdId: string;
  inviterPhone: string;
  inviteeName: string;
  inviteePhone: string;
  status: InvitationStatus;
  createdAt: number;
}

interface InvitationRow {
  id: string;
  household_id: string;
  inviter_phone: string;
  invitee_name: string;
  invitee_phone: string;
  status: InvitationStatus;
  created_at: Date;
}

function toInvitation(row: InvitationRow): Invitation {
  return {
    id: row.id,
    householdId: row.household_id,
    inviterPhone: row.inviter_phone,
    inviteeName: row.invitee_name,
    inviteePhone: row.invitee_phone,
    status: row.status,
    createdAt: row.created_at.getTime(),
  };
}

/**
 * Households, their members, invitations and blocks (migration 14). Every read is keyed by the
 * asking person's phone: nothing here answers a question about a household one is not in.
 */
export class HouseholdRepository {
  constructor(private readonly db: Queryable) {}

  /** The household `phone` belongs to, with all its members (oldest first); null when none. */
  async householdOf(phone: string): Promise<Household | null> {
    const { rows } = await this.db.query<{
      household_id: string;
      phone: string;
      name: string;
      joined_at: Date;
      language: Language | null;
      time_zone: string | null;
    }>(
      `SELECT m.household_id, m.phone, m.name, m.joined_at, u.language, u.time_zone
         FROM household_members m LEFT JOIN users u ON u.phone = m.phone
        WHERE m.household_id = (SELECT household_id FROM household_members WHERE phone = $1)
        ORDER BY m.joined_at, m.phone`,
      [phone],
    );
    const first = rows[0];
    if (!first) return null;
    return {
      id: first.household_id,
      members: rows.map((r) => ({
        phone: r.phone,
        name: r.name,
        joinedAt: r.joined_at.getTime(),
        language: r.language,
        timeZone: r.time_zone,
      })),
    };
  }

  /** Creates a household with `phone` as its first member; returns its id. */
  async create(id: string, phone: string, name: string, nowMs: number): Promise<string> {
    await this.db.query(`INSERT INTO households (id, created_at) VALUES ($1, $2)`, [id, new Date(nowMs)]);
    await this.addMember(id, phone, name, nowMs);
    return id;
  }

  /** Adds a member; false when they already belong to a household (this one or another). */
  async addMember(householdId: string, phone: string, name: string, nowMs: number): Promise<boolean> {
    const { rowCount } = await this.db.query(
      `INSERT INTO household_members (household_id, phone, name, joined_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT DO NOTHING`,
      [householdId, phone, name, new Date(nowMs)],
    );
    return (rowCount ?? 0) > 0;
  }

  /**
   * Takes `phone` out of their household; a household left with one member or none ends (its
   * open invitations with it). Returns the household id, or null when they were in none.
   */
  async removeMember(phone: string): Promise<string | null> {
    const { rows } = await this.db.query<{ household_id: string }>(
      `DELETE FROM household_members WHERE phone = $1 RETURNING household_id`,
      [phone],
    );
    const id = rows[0]?.household_id;
    if (!id) return null;
    await this.db.query(
      `DELETE FROM households h WHERE h.id = $1
         AND (SELECT count(*) FROM household_members m WHERE m.household_id = h.id) < 2`,
      [id],
    );
    return id;
  }

  /** Records an invitation; null when one to that person from this household is already open. */
  async invite(invitation: Omit<Invitation, "status">): Promise<Invitation | null> {
    const { rows } = await this.db.query<InvitationRow>(
      `INSERT INTO household_invitations
         (id, household_id, inviter_phone, invitee_name, invitee_phone, status, created_at)
       VALUES ($1, $2, $3, $4, $5, 'pending', $6)
       ON CONFLICT (household_id, invitee_phone) WHERE status = 'pending' DO NOTHING
       RETURNING *`,
      [
        invitation.id,
        invitation.householdId,
        invitation.inviterPhone,
        invitation.inviteeName,
        invitation.inviteePhone,
        new Date(invitation.createdAt),
      ],
    );
    return rows[0] ? toInvitation(rows[0]) : null;
  }

  /** An open invitation to `inviteePhone` by its id (an invitation is only ever read by its invitee). */
  async openInvitation(id: string, inviteePhone: string): Promise<Invitation | null> {
    const { rows } = await this.db.query<InvitationRow>(
      `SELECT * FROM household_invitations WHERE id = $1 AND invitee_phone = $2 AND status = 'pending'`,
      [id, inviteePhone],
    );
    return rows[0] ? toInvitation(rows[0]) : null;
  }

  /** The newest open invitation to `inviteePhone` (a typed "stop" answers it). */
  async latestOpenInvitation(inviteePhone: string): Promise<Invitation | null> {
    const { rows } = await this.db.query<InvitationRow>(
      `SELECT * FROM household_invitations WHERE invitee_phone = $1 AND status = 'pending'
        ORDER BY created_at DESC LIMIT 1`,
      [inviteePhone],
    );
    return rows[0] ? toInvitation(rows[0]) : null;
  }

  /** How the household named the people it invited who have not answered yet, oldest first. */
  async pendingInvitees(householdId: string): Promise<string[]> {
    const { rows } = await this.db.query<{ invitee_name: string }>(
      `SELECT invitee_name FROM household_invitations
        WHERE household_id = $1 AND status = 'pending' ORDER BY created_at`,
      [householdId],
    );
    return rows.map((r) => r.invitee_name);
  }

  /** Answers an open invitation; false when it was no longer open (answered twice, cancelled). */
  async answer(id: string, status: "accepted" | "declined" | "cancelled", nowMs: number): Promise<boolean> {
    const { rowCount } = await this.db.query(
      `UPDATE household_invitations SET status = $2, answered_at = $3 WHERE id = $1 AND status = 'pending'`,
      [id, status, new Date(nowMs)],
    );
    return (rowCount ?? 0) > 0;
  }

  /** Closes every open invitation `phone` sent (they left their household). */
  async cancelSentBy(phone: string, nowMs: number): Promise<number> {
    const { rowCount } = await this.db.query(
      `UPDATE household_invitations SET status = 'cancelled', answered_at = $2
        WHERE inviter_phone = $1 AND status = 'pending'`,
      [phone, new Date(nowMs)],
    );
    return rowCount ?? 0;
  }

  /** Invitations `inviterPhone` sent since `sinceMs` (the daily limit). */
  async sentSince(inviterPhone: string, sinceMs: number): Promise<number> {
    const { rows } = await this.db.query<{ n: string }>(
      `SELECT count(*) AS n FROM household_invitations WHERE inviter_phone = $1 AND created_at > $2`,
      [inviterPhone, new Date(sinceMs)],
    );
    return Number(rows[0]?.n ?? 0);
  }

  /** Invitations anyone sent `inviteePhone` since `sinceMs` (no one is flooded with them). */
  async receivedSince(inviteePhone: string, sinceMs: number): Promise<number> {
    const { rows } = await this.db.query<{ n: string }>(
      `SELECT count(*) AS n FROM household_invitations WHERE invitee_phone = $1 AND created_at > $2`,
      [inviteePhone, new Date(sinceMs)],
    );
    return Number(rows[0]?.n ?? 0);
  }

  /** `phone` wants no more invitations from `blockedPhone`. */
  async block(phone: string, blockedPhone: string, nowMs: number): Promise<void> {
    await this.db.query(
      `INSERT INTO household_blocks (phone, blocked_phone, kind, created_at) VALUES ($1, $2, 'invitations', $3)
       ON CONFLICT DO NOTHING`,
      [phone, blockedPhone, new Date(nowMs)],
    );
  }

  /** Whether `phone` refused invitations from `from`. */
  async blocks(phone: string, from: string): Promise<boolean> {
    const { rows } = await this.db.query(
      `SELECT 1 FROM household_blocks WHERE phone = $1 AND blocked_phone = $2 AND kind = 'invitations'`,
      [phone, from],
    );
    return rows.length > 0;
  }
}
