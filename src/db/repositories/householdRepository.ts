import type { Language } from "../../types/user.js";
import { erasedPhoneKey } from "../../utils/phone.js";
import type { Queryable } from "../transaction.js";

/**
 * A number as the refusals and the limits' log may hold it: as is, or as its keyed hash once the
 * person was erased (those rows outlive an erasure, docs/HOUSEHOLD.md).
 */
function phoneKeys(phone: string): string[] {
  return [phone, erasedPhoneKey(phone)];
}

/**
 * An invitation (alias i) to $1 an answer may apply to: pending, delivered (recorded as sent, and
 * its message sent: not one still sending, failed or undeliverable), made after $2, from someone $1
 * (as its keys, $3) has not refused.
 */
const ANSWERABLE = `i.invitee_phone = $1 AND i.status = 'pending' AND i.delivered AND i.created_at > $2
  AND EXISTS (SELECT 1 FROM reminder_deliveries d
               WHERE d.key = 'household:invitation:' || i.id AND d.status = 'sent')
  AND NOT EXISTS (SELECT 1 FROM household_blocks b
                   WHERE b.phone = ANY($3) AND b.blocked_phone = i.inviter_phone AND b.kind = 'invitations')`;

/** One person of a household, as the household knows them. */
export interface HouseholdMember {
  phone: string;
  name: string;
  joinedAt: number;
  /** Their language and zone as Memo knows them (null: not a user any more). */
  language: Language | null;
  timeZone: string | null;
  /** Their quiet hours, local "HH:mm" (null: none). */
  quietStart: string | null;
  quietEnd: string | null;
  /** Their Shabbat quiet (docs/SCHEDULER.md): notices to them wait for havdalah. */
  sabbathQuiet: boolean;
  sabbathCity: string | null;
  calendarSchedule: "israel" | "diaspora" | null;
  /** Whether they get the batched notice of others' changes to shared lists. */
  listNotices: boolean;
}

/** What blocks hold: no more invitations, or no more reminders, from a person. */
export type BlockKind = "invitations" | "reminders";

/** A shared list as a copy offer keeps it: its name and its items' text. */
export interface ListCopy {
  name: string;
  items: string[];
}

/** An open task shared with the household ("our tasks"). */
export interface SharedTask {
  id: string;
  text: string;
  dueAt: string | null;
  timeZone: string;
  /** The household name of who holds it, null when it is the asking person. */
  holder: string | null;
  /** The household name of who gave it, null when it is the asking person or no one did. */
  from: string | null;
}

export interface Household {
  id: string;
  members: HouseholdMember[];
}

type InvitationStatus = "pending" | "accepted" | "declined" | "cancelled";

export interface Invitation {
  id: string;
  householdId: string;
  inviterPhone: string;
  inviteeName: string;
  inviteePhone: string;
  status: InvitationStatus;
  createdAt: number;
}

/** Someone invited who has not joined (yet), as the household named them, and who invited them. */
interface PendingInvitee {
  name: string;
  inviterPhone: string;
}

/** An invitation an answer may apply to, with its inviter's WhatsApp name (null: none known). */
interface AnswerableInvitation extends Invitation {
  inviterDisplayName: string | null;
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
      quiet_start: string | null;
      quiet_end: string | null;
      sabbath_quiet: boolean | null;
      sabbath_city: string | null;
      calendar_schedule: "israel" | "diaspora" | null;
      list_notices: boolean;
    }>(
      `SELECT m.household_id, m.phone, m.name, m.joined_at, m.list_notices, u.language, u.time_zone,
              u.quiet_start, u.quiet_end, u.sabbath_quiet, u.sabbath_city, u.calendar_schedule
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
        quietStart: r.quiet_start,
        quietEnd: r.quiet_end,
        sabbathQuiet: r.sabbath_quiet ?? false,
        sabbathCity: r.sabbath_city,
        calendarSchedule: r.calendar_schedule,
        listNotices: r.list_notices,
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

  /**
   * Records an invitation (`delivered`: sent to the invitee, not held back); null when one to that
   * person from this household is already open. A pending one that expired (created before
   * `openSince`) is closed first: it no longer stands in the way.
   */
  async invite(
    invitation: Omit<Invitation, "status">,
    delivered: boolean,
    openSince: number,
  ): Promise<Invitation | null> {
    await this.db.query(
      `UPDATE household_invitations SET status = 'cancelled', answered_at = $4
        WHERE household_id = $1 AND invitee_phone = $2 AND status = 'pending' AND created_at <= $3`,
      [invitation.householdId, invitation.inviteePhone, new Date(openSince), new Date(invitation.createdAt)],
    );
    const { rows } = await this.db.query<InvitationRow>(
      `INSERT INTO household_invitations
         (id, household_id, inviter_phone, invitee_name, invitee_phone, status, created_at, delivered)
       VALUES ($1, $2, $3, $4, $5, 'pending', $6, $7)
       ON CONFLICT (household_id, invitee_phone) WHERE status = 'pending' DO NOTHING
       RETURNING *`,
      [
        invitation.id,
        invitation.householdId,
        invitation.inviterPhone,
        invitation.inviteeName,
        invitation.inviteePhone,
        new Date(invitation.createdAt),
        delivered,
      ],
    );
    return rows[0] ? toInvitation(rows[0]) : null;
  }

  /**
   * The invitation `id` to `inviteePhone` when an answer may still apply to it: delivered to them,
   * pending, made after `openSince` (not expired), and from someone they have not refused.
   */
  async openInvitation(id: string, inviteePhone: string, openSince: number): Promise<Invitation | null> {
    const { rows } = await this.db.query<InvitationRow>(
      `SELECT i.* FROM household_invitations i WHERE ${ANSWERABLE} AND i.id::text = $4`,
      [inviteePhone, new Date(openSince), phoneKeys(inviteePhone), id],
    );
    return rows[0] ? toInvitation(rows[0]) : null;
  }

  /**
   * Every invitation to `inviteePhone` an answer may apply to (as `openInvitation`), newest first,
   * each with the WhatsApp name its inviter had when Memo last saw them.
   */
  async answerableInvitations(inviteePhone: string, openSince: number): Promise<AnswerableInvitation[]> {
    const { rows } = await this.db.query<InvitationRow & { inviter_display_name: string | null }>(
      `SELECT i.*, u.display_name AS inviter_display_name
         FROM household_invitations i LEFT JOIN users u ON u.phone = i.inviter_phone
        WHERE ${ANSWERABLE}
        ORDER BY i.created_at DESC, i.id`,
      [inviteePhone, new Date(openSince), phoneKeys(inviteePhone)],
    );
    return rows.map((r) => ({ ...toInvitation(r), inviterDisplayName: r.inviter_display_name }));
  }

  /**
   * Whether an invitation delivered to `inviteePhone` was left unanswered until it expired, between
   * `sinceMs` and `openSince` (a typed "accept" then hears it is no longer open).
   */
  async expiredUnanswered(inviteePhone: string, sinceMs: number, openSince: number): Promise<boolean> {
    const { rows } = await this.db.query(
      `SELECT 1 FROM household_invitations
        WHERE invitee_phone = $1 AND status = 'pending' AND delivered
          AND created_at > $2 AND created_at <= $3 LIMIT 1`,
      [inviteePhone, new Date(sinceMs), new Date(openSince)],
    );
    return rows.length > 0;
  }

  /**
   * The invitation a message Memo sent `inviteePhone` carried (the WhatsApp id of the message they
   * quote), whatever became of it; null when that message was no invitation to them.
   */
  async invitationSentAs(inviteePhone: string, waMessageId: string): Promise<string | null> {
    const { rows } = await this.db.query<{ id: string }>(
      `SELECT d.content->>'invitationId' AS id FROM reminder_deliveries d
        WHERE d.user_phone = $1 AND d.wa_message_id = $2 AND d.kind = 'household'
          AND d.content->>'notice' = 'invitation'`,
      [inviteePhone, waMessageId],
    );
    return rows[0]?.id ?? null;
  }

  /**
   * The people the household invited whose invitation is neither accepted nor withdrawn nor
   * expired (made after `openSince`), oldest first, as it named them and with who invited them: a
   * declined one is listed like an unanswered one, so the inviter never learns of a refusal.
   */
  async pendingInvitees(householdId: string, openSince: number): Promise<PendingInvitee[]> {
    const { rows } = await this.db.query<{ invitee_name: string; inviter_phone: string }>(
      `SELECT invitee_name, inviter_phone FROM (
         SELECT DISTINCT ON (i.invitee_phone) i.invitee_name, i.inviter_phone, i.created_at
           FROM household_invitations i
          WHERE i.household_id = $1 AND i.status IN ('pending', 'declined') AND i.created_at > $2
            AND NOT EXISTS (SELECT 1 FROM household_members m
                             WHERE m.household_id = i.household_id AND m.phone = i.invitee_phone)
          ORDER BY i.invitee_phone, i.created_at DESC) latest
        ORDER BY created_at`,
      [householdId, new Date(openSince)],
    );
    return rows.map((r) => ({ name: r.invitee_name, inviterPhone: r.inviter_phone }));
  }

  /**
   * The invitation of this household to `inviteePhone` that still looks open to the inviter
   * (pending or declined, made after `openSince`), if any: inviting them again says "already invited".
   */
  async invitedAlready(householdId: string, inviteePhone: string, openSince: number): Promise<string | null> {
    const { rows } = await this.db.query<{ invitee_name: string }>(
      `SELECT invitee_name FROM household_invitations
        WHERE household_id = $1 AND invitee_phone = $2 AND status IN ('pending', 'declined')
          AND created_at > $3
        ORDER BY created_at DESC LIMIT 1`,
      [householdId, inviteePhone, new Date(openSince)],
    );
    return rows[0]?.invitee_name ?? null;
  }

  /** Answers an open invitation; false when it was no longer open (answered twice, cancelled). */
  async answer(id: string, status: "accepted" | "declined" | "cancelled", nowMs: number): Promise<boolean> {
    const { rowCount } = await this.db.query(
      `UPDATE household_invitations SET status = $2, answered_at = $3 WHERE id = $1 AND status = 'pending'`,
      [id, status, new Date(nowMs)],
    );
    return (rowCount ?? 0) > 0;
  }

  /** Holds invitations to `phone` to this transaction until it ends (its count and insert are one). */
  async lockInvitee(phone: string): Promise<void> {
    await this.db.query(`SELECT pg_advisory_xact_lock(hashtext('household-invitee:' || $1))`, [phone]);
  }

  /**
   * Closes every open invitation `phone` sent, and every one to them from `householdId` (they left
   * it or were taken out: no old invitation brings them back). Declined ones close too: they look
   * open to their inviter until they expire, and must not outlive the others (a refusal is never
   * shown); the refusal itself stays in household_blocks.
   */
  async cancelInvitationsOf(phone: string, householdId: string, nowMs: number): Promise<number> {
    const { rowCount } = await this.db.query(
      `UPDATE household_invitations SET status = 'cancelled', answered_at = $3
        WHERE status IN ('pending', 'declined')
          AND (inviter_phone = $1 OR (invitee_phone = $1 AND household_id = $2))`,
      [phone, householdId, new Date(nowMs)],
    );
    return rowCount ?? 0;
  }

  /**
   * Logs an invitation sent (`delivered`: it reached the number) or a task or reminder given to
   * another member, for the daily limits; drops log rows older than a day (`dayAgoMs`).
   */
  async log(
    entry: { from: string; to: string; kind: "invitation" | "task"; delivered: boolean; atMs: number },
    dayAgoMs: number,
  ): Promise<void> {
    await this.db.query(`DELETE FROM household_invitation_log WHERE sent_at <= $1`, [new Date(dayAgoMs)]);
    await this.db.query(
      `INSERT INTO household_invitation_log (inviter_phone, invitee_phone, kind, delivered, sent_at)
       VALUES ($1, $2, $3, $4, $5)`,
      [entry.from, entry.to, entry.kind, entry.delivered, new Date(entry.atMs)],
    );
  }

  /** Invitations `inviterPhone` sent since `sinceMs` (the daily limit), whatever became of their household. */
  async sentSince(inviterPhone: string, sinceMs: number): Promise<number> {
    const { rows } = await this.db.query<{ n: string }>(
      `SELECT count(*) AS n FROM household_invitation_log
        WHERE inviter_phone = ANY($1) AND kind = 'invitation' AND sent_at > $2`,
      [phoneKeys(inviterPhone), new Date(sinceMs)],
    );
    return Number(rows[0]?.n ?? 0);
  }

  /** Invitations delivered to `inviteePhone` since `sinceMs`, by anyone (no one is flooded with them). */
  async receivedSince(inviteePhone: string, sinceMs: number): Promise<number> {
    const { rows } = await this.db.query<{ n: string }>(
      `SELECT count(*) AS n FROM household_invitation_log
        WHERE invitee_phone = ANY($1) AND kind = 'invitation' AND delivered AND sent_at > $2`,
      [phoneKeys(inviteePhone), new Date(sinceMs)],
    );
    return Number(rows[0]?.n ?? 0);
  }

  /** Tasks and reminders `giverPhone` gave `holderPhone` since `sinceMs` (deleting them takes none back). */
  async givenSince(giverPhone: string, holderPhone: string, sinceMs: number): Promise<number> {
    const { rows } = await this.db.query<{ n: string }>(
      `SELECT count(*) AS n FROM household_invitation_log
        WHERE inviter_phone = ANY($1) AND invitee_phone = ANY($2) AND kind = 'task' AND sent_at > $3`,
      [phoneKeys(giverPhone), phoneKeys(holderPhone), new Date(sinceMs)],
    );
    return Number(rows[0]?.n ?? 0);
  }

  /** `phone` wants no more invitations (or reminders) from `blockedPhone`; false when they already did. */
  async block(
    phone: string,
    blockedPhone: string,
    nowMs: number,
    kind: BlockKind = "invitations",
  ): Promise<boolean> {
    if (await this.blocks(phone, blockedPhone, kind)) return false;
    const { rowCount } = await this.db.query(
      `INSERT INTO household_blocks (phone, blocked_phone, kind, created_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT DO NOTHING`,
      [phone, blockedPhone, kind, new Date(nowMs)],
    );
    return (rowCount ?? 0) > 0;
  }

  /** Takes back a block; false when there was none. */
  async unblock(phone: string, blockedPhone: string, kind: BlockKind): Promise<boolean> {
    const { rowCount } = await this.db.query(
      `DELETE FROM household_blocks WHERE phone = ANY($1) AND blocked_phone = ANY($2) AND kind = $3`,
      [phoneKeys(phone), phoneKeys(blockedPhone), kind],
    );
    return (rowCount ?? 0) > 0;
  }

  /** Whether `phone` refused invitations (or reminders) from `from` (either one maybe erased since). */
  async blocks(phone: string, from: string, kind: BlockKind = "invitations"): Promise<boolean> {
    const { rows } = await this.db.query(
      `SELECT 1 FROM household_blocks WHERE phone = ANY($1) AND blocked_phone = ANY($2) AND kind = $3`,
      [phoneKeys(phone), phoneKeys(from), kind],
    );
    return rows.length > 0;
  }

  /** Turns the member's batched notice of shared-list changes on or off; false when not a member. */
  async setListNotices(phone: string, on: boolean): Promise<boolean> {
    const { rowCount } = await this.db.query(
      `UPDATE household_members SET list_notices = $2 WHERE phone = $1`,
      [phone, on],
    );
    if (!on) await this.db.query(`DELETE FROM household_list_changes WHERE recipient_phone = $1`, [phone]);
    return (rowCount ?? 0) > 0;
  }

  /**
   * The open tasks shared with the household of `phone` ("our tasks"), held by its members, due
   * first then oldest. Only tasks given within the household are shared; nothing else is read.
   */
  async sharedTasks(phone: string): Promise<SharedTask[]> {
    const { rows } = await this.db.query<{
      id: string;
      text: string;
      due_at: Date | null;
      time_zone: string;
      holder: string;
      holder_phone: string;
      giver: string | null;
      giver_phone: string | null;
    }>(
      `SELECT t.id, t.text, t.due_at, t.time_zone, holder.name AS holder, holder.phone AS holder_phone,
              giver.name AS giver, giver.phone AS giver_phone
         FROM tasks t
         JOIN household_members holder ON holder.phone = t.user_phone AND holder.household_id = t.household_id
         LEFT JOIN household_members giver
           ON giver.phone = t.assigned_by_phone AND giver.household_id = t.household_id
        WHERE t.household_id = (SELECT household_id FROM household_members WHERE phone = $1)
          AND NOT t.completed
        ORDER BY t.due_at NULLS LAST, t.seq`,
      [phone],
    );
    return rows.map((r) => ({
      id: r.id,
      text: r.text,
      dueAt: r.due_at?.toISOString() ?? null,
      timeZone: r.time_zone,
      holder: r.holder_phone === phone ? null : r.holder,
      from: r.giver_phone === null || r.giver_phone === phone ? null : r.giver,
    }));
  }

  /**
   * What `phone` leaving their household (as read in the same transaction) ends (before they are taken out): their
   * lists stop being shared, tasks given between them and the others stop being shared and
   * nothing more is told about them, and pending list-change notices involving them go. Returns
   * the shared lists each person loses: the leaver those of the others, each other member the
   * leaver's (for "keep a copy").
   */
  async endSharing(phone: string, household: Household): Promise<Map<string, ListCopy[]>> {
    const householdId = household.id;
    const members = household.members.filter((m) => m.phone !== phone);
    const { rows } = await this.db.query<{ owner: string; name: string; items: string[] }>(
      `SELECT l.user_phone AS owner, l.name,
              COALESCE((SELECT array_agg(i.text ORDER BY i.position, i.id) FROM list_items i
                         WHERE i.list_id = l.id), '{}') AS items
         FROM lists l
         JOIN household_members o ON o.phone = l.user_phone AND o.household_id = l.household_id
        WHERE l.household_id = $1
        ORDER BY l.seq`,
      [householdId],
    );
    const lost = new Map<string, ListCopy[]>();
    const give = (to: string, copy: ListCopy) => lost.set(to, [...(lost.get(to) ?? []), copy]);
    for (const row of rows) {
      const copy = { name: row.name, items: row.items };
      if (row.owner !== phone) give(phone, copy);
      else for (const member of members) give(member.phone, copy);
    }
    await this.db.query(`UPDATE lists SET household_id = NULL WHERE user_phone = $1 AND household_id = $2`, [
      phone,
      householdId,
    ]);
    await this.db.query(
      `UPDATE tasks SET household_id = NULL, assigner_told_done_at = COALESCE(assigner_told_done_at, now())
        WHERE household_id = $2 AND (user_phone = $1 OR assigned_by_phone = $1)`,
      [phone, householdId],
    );
    await this.db.query(
      `DELETE FROM household_list_changes WHERE recipient_phone = $1 OR actor_phone = $1
          OR (list_id IN (SELECT id FROM lists WHERE user_phone = $1))`,
      [phone],
    );
    return lost;
  }

  /** Keeps the lists `phone` lost a while, for "keep a copy" (added to an offer still open). */
  async offerCopies(phone: string, lists: readonly ListCopy[], nowMs: number, expiresMs: number) {
    if (lists.length === 0) return;
    await this.db.query(
      `INSERT INTO household_copy_offers (phone, lists, created_at, expires_at) VALUES ($1, $2::jsonb, $3, $4)
       ON CONFLICT (phone) DO UPDATE SET
         lists = CASE WHEN household_copy_offers.expires_at > $3
                      THEN household_copy_offers.lists || excluded.lists ELSE excluded.lists END,
         created_at = $3, expires_at = $4`,
      [phone, JSON.stringify(lists), new Date(nowMs), new Date(expiresMs)],
    );
  }

  /** Takes the open copy offer of `phone` (gone once taken); null when there is none. */
  async takeCopyOffer(phone: string, nowMs: number): Promise<ListCopy[] | null> {
    const { rows } = await this.db.query<{ lists: ListCopy[]; expires_at: Date }>(
      `DELETE FROM household_copy_offers WHERE phone = $1 RETURNING lists, expires_at`,
      [phone],
    );
    const row = rows[0];
    return row && row.expires_at.getTime() > nowMs ? row.lists : null;
  }
}
