import type { Task, TaskRecurrence } from "../../types/tasks.js";
import type { User } from "../../types/user.js";
import type { Queryable } from "../transaction.js";

/** Who reads a household notice, from a row with their user columns. */
function readerOf(
  phone: string,
  row: {
    language: ProactiveUser["language"];
    time_zone: string;
    quiet_start: string | null;
    quiet_end: string | null;
  } & Partial<SabbathRow>,
): NoticeReader {
  return {
    phone,
    language: row.language,
    timeZone: row.time_zone,
    quietStart: row.quiet_start,
    quietEnd: row.quiet_end,
    ...(row.sabbath_quiet ? sabbathOf(row as SabbathRow) : {}),
  };
}

/** A user's Shabbat quiet columns (migration 21). */
interface SabbathRow {
  sabbath_quiet: boolean;
  sabbath_city: string | null;
  calendar_schedule: User["calendarSchedule"];
}

const sabbathOf = (row: SabbathRow) => ({
  sabbathQuiet: row.sabbath_quiet,
  sabbathCity: row.sabbath_city,
  calendarSchedule: row.calendar_schedule,
});

/** A task whose reminder is due, locked for the claiming transaction. */
export interface DueTaskRow {
  id: string;
  phone: string;
  text: string;
  dueAt: string | null;
  nextFireAt: string;
  recurrence: TaskRecurrence | null;
  reminderOffsetMinutes: number | null;
  timeZone: string;
  /** Given by another member of the holder's household: the giver's household name. */
  fromName: string | null;
}

/** What a member who receives a household notice is, as the scheduler addresses them. */
export interface NoticeReader {
  phone: string;
  language: ProactiveUser["language"];
  timeZone: string;
  quietStart: string | null;
  quietEnd: string | null;
  /** Shabbat quiet (absent: off): notices wait for havdalah. */
  sabbathQuiet?: boolean;
  sabbathCity?: string | null;
  calendarSchedule?: User["calendarSchedule"];
}

/** A task given within a household whose giver is to be told something: it is done, or still open. */
export interface AssignerNotice {
  taskId: string;
  text: string;
  done: boolean;
  /** The household name of who holds it. */
  holder: string;
  giver: NoticeReader;
  /** When its reminder was last sent (null: it never rang). */
  rangAt: number | null;
  /** When it was marked done (null: open). */
  completedAt: number | null;
}

/** Additions by one member to one shared list, counted for another member's batched notice. */
export interface ListChange {
  reader: NoticeReader;
  listId: string;
  list: string;
  actorPhone: string;
  actor: string;
  items: number;
}

/** What the scheduler needs of a user, locked while their messages are given send slots. */
export interface ProactiveUser {
  phone: string;
  displayName: string | null;
  language: "he" | "en" | "other" | null;
  timeZone: string;
  nextProactiveAt: number | null;
  quietStart: string | null;
  quietEnd: string | null;
  digestLocalTime: string;
  digestNextAt: number | null;
  /** The user's latest inbound message (WhatsApp's 24-hour window runs from it). */
  lastInboundAt: number | null;
  /** Shabbat and holiday quiet (docs/SCHEDULER.md), its city and the user's holiday schedule. */
  sabbathQuiet: boolean;
  sabbathCity: string | null;
  calendarSchedule: User["calendarSchedule"];
  /** The weekly review's local weekday (0 = Sunday) and HH:mm; null: the zone's default. */
  weeklyReviewDay: number | null;
  weeklyReviewTime: string | null;
  weeklyReviewNextAt: number | null;
}

interface UserRow extends SabbathRow {
  phone: string;
  display_name: string | null;
  language: ProactiveUser["language"];
  time_zone: string;
  next_proactive_at: Date | null;
  quiet_start: string | null;
  quiet_end: string | null;
  digest_local_time: string;
  digest_next_at: Date | null;
  last_inbound_at: Date | null;
  calendar_schedule: "israel" | "diaspora" | null;
  weekly_review_day: number | null;
  weekly_review_time: string | null;
  weekly_review_next_at: Date | null;
}

const USER_COLUMNS = `phone, display_name, language, time_zone, next_proactive_at, quiet_start, quiet_end,
  digest_local_time, digest_next_at, last_inbound_at, sabbath_quiet, sabbath_city, calendar_schedule,
  weekly_review_day, weekly_review_time, weekly_review_next_at`;

/**
 * A timestamptz column as epoch ms; null for anything that is not a real instant. "Never" is
 * stored as 'infinity', which node-pg reads as the number Infinity, not a Date: it must read as
 * no instant, not throw and fail the whole claim. @internal
 */
export function instantOf(value: unknown): number | null {
  return value instanceof Date && Number.isFinite(value.getTime()) ? value.getTime() : null;
}

function toUser(row: UserRow): ProactiveUser {
  return {
    phone: row.phone,
    displayName: row.display_name,
    language: row.language,
    timeZone: row.time_zone,
    nextProactiveAt: instantOf(row.next_proactive_at),
    quietStart: row.quiet_start,
    quietEnd: row.quiet_end,
    digestLocalTime: row.digest_local_time,
    digestNextAt: instantOf(row.digest_next_at),
    lastInboundAt: instantOf(row.last_inbound_at),
    ...sabbathOf(row),
    weeklyReviewDay: row.weekly_review_day,
    weeklyReviewTime: row.weekly_review_time,
    weeklyReviewNextAt: instantOf(row.weekly_review_next_at),
  };
}

/** A task of a user's week, for the weekly review: open, or done since the week began. */
export type WeekTask = DigestTask & { completedAt: number | null };

/** An open item of a list shared with a user's household, for the weekly review. */
export interface SharedListItem {
  phone: string;
  list: string;
  text: string;
}

/** Open tasks of a few users, for their digests. */
export type DigestTask = Pick<Task, "id" | "text" | "dueAt" | "nextFireAt" | "recurrence" | "completed"> & {
  phone: string;
  /** Another household member gave it (their words). */
  given: boolean;
};

/**
 * The scheduler's claims (D8), each meant to run inside one transaction: due rows are locked with
 * FOR UPDATE SKIP LOCKED, so instances ticking together split them instead of sharing them.
 */
/** The scheduled messages a user switches on, and the columns of their switch and next instant. */
type ScheduledMessage = "digest" | "weekly";
const SCHEDULED: Record<ScheduledMessage, { enabled: string; next: string }> = {
  digest: { enabled: "digest_enabled", next: "digest_next_at" },
  weekly: { enabled: "weekly_review_enabled", next: "weekly_review_next_at" },
};

export class SchedulerRepository {
  constructor(private readonly db: Queryable) {}

  /** Locks up to `limit` open tasks due to ring by `nowMs`, oldest first, skipping rows another claim holds. */
  async lockDueTasks(nowMs: number, limit: number): Promise<DueTaskRow[]> {
    const { rows } = await this.db.query<{
      id: string;
      user_phone: string;
      text: string;
      due_at: Date | null;
      next_fire_at: Date;
      recurrence: TaskRecurrence | null;
      reminder_offset_minutes: number | null;
      time_zone: string;
      from_name: string | null;
    }>(
      `SELECT id, user_phone, text, due_at, next_fire_at, recurrence, reminder_offset_minutes, time_zone,
              CASE WHEN assigned_by_phone IS NOT NULL THEN
                (SELECT m.name FROM household_members m
                  WHERE m.phone = tasks.assigned_by_phone AND m.household_id = tasks.household_id) END AS from_name
         FROM tasks
        WHERE next_fire_at <= $1 AND NOT completed
        ORDER BY next_fire_at
        LIMIT $2
        FOR UPDATE SKIP LOCKED`,
      [new Date(nowMs), limit],
    );
    return rows.map((r) => ({
      id: r.id,
      phone: r.user_phone,
      text: r.text,
      dueAt: r.due_at?.toISOString() ?? null,
      nextFireAt: r.next_fire_at.toISOString(),
      recurrence: r.recurrence,
      reminderOffsetMinutes: r.reminder_offset_minutes,
      timeZone: r.time_zone,
      fromName: r.from_name,
    }));
  }

  /**
   * Locks tasks given within a household whose giver is to be told (docs/HOUSEHOLD.md): done, or
   * still open with a ring sent by `rangBeforeMs` (an hour ago) and not told so yet. Only while
   * giver and holder share the household.
   */
  async lockAssignerNotices(rangBeforeMs: number, limit: number): Promise<AssignerNotice[]> {
    const { rows } = await this.db.query<{
      id: string;
      text: string;
      completed: boolean;
      holder: string;
      giver_phone: string;
      language: ProactiveUser["language"];
      time_zone: string;
      quiet_start: string | null;
      quiet_end: string | null;
      sabbath_quiet: boolean;
      sabbath_city: string | null;
      calendar_schedule: User["calendarSchedule"];
      rang_at: Date | null;
      completed_at: Date | null;
    }>(
      `SELECT t.id, t.text, t.completed, t.completed_at, holder.name AS holder, t.assigned_by_phone AS giver_phone,
              u.language, u.time_zone, u.quiet_start, u.quiet_end, u.sabbath_quiet, u.sabbath_city,
              u.calendar_schedule,
              (SELECT max(d.sent_at) FROM reminder_deliveries d
                WHERE d.task_id = t.id AND d.status = 'sent' AND d.kind IN ('reminder', 'nudge', 'overdue')) AS rang_at
         FROM tasks t
         JOIN household_members holder ON holder.phone = t.user_phone AND holder.household_id = t.household_id
         JOIN household_members giver ON giver.phone = t.assigned_by_phone AND giver.household_id = t.household_id
         JOIN users u ON u.phone = t.assigned_by_phone
        WHERE t.assigned_by_phone IS NOT NULL AND t.assigner_told_done_at IS NULL
          AND (t.completed OR (t.assigner_told_open_at IS NULL AND EXISTS (
                SELECT 1 FROM reminder_deliveries d
                 WHERE d.task_id = t.id AND d.status = 'sent' AND d.kind IN ('reminder', 'nudge', 'overdue')
                   AND d.sent_at <= $1)))
        ORDER BY t.seq
        LIMIT $2
        FOR UPDATE OF t SKIP LOCKED`,
      [new Date(rangBeforeMs), limit],
    );
    return rows.map((r) => ({
      taskId: r.id,
      text: r.text,
      done: r.completed,
      holder: r.holder,
      giver: readerOf(r.giver_phone, r),
      rangAt: r.rang_at?.getTime() ?? null,
      completedAt: r.completed_at?.getTime() ?? null,
    }));
  }

  /**
   * Records that the givers were told (done, or still open). A done one-time reminder, kept only
   * for this, then goes like any other done reminder.
   */
  async markAssignerTold(told: readonly { taskId: string; done: boolean }[], nowMs: number): Promise<void> {
    if (told.length === 0) return;
    const done = told.filter((t) => t.done).map((t) => t.taskId);
    if (done.length > 0)
      await this.db.query(
        `DELETE FROM tasks WHERE id = ANY($1::uuid[]) AND completed
            AND (due_at IS NOT NULL OR next_fire_at IS NOT NULL OR recurrence IS NOT NULL)`,
        [done],
      );
    await this.db.query(
      `UPDATE tasks SET assigner_told_done_at = CASE WHEN u.done THEN $2 ELSE assigner_told_done_at END,
                        assigner_told_open_at = CASE WHEN u.done THEN assigner_told_open_at ELSE $2 END
         FROM jsonb_to_recordset($1::jsonb) AS u(id uuid, done boolean)
        WHERE tasks.id = u.id`,
      [JSON.stringify(told.map((t) => ({ id: t.taskId, done: t.done }))), new Date(nowMs)],
    );
  }

  /** Readers with counted shared-list additions, the oldest counted by `beforeMs`, and their quiet hours. */
  async listChangeReaders(beforeMs: number, limit: number): Promise<NoticeReader[]> {
    const { rows } = await this.db.query<{
      phone: string;
      language: ProactiveUser["language"];
      time_zone: string;
      quiet_start: string | null;
      quiet_end: string | null;
      sabbath_quiet: boolean;
      sabbath_city: string | null;
      calendar_schedule: User["calendarSchedule"];
    }>(
      `SELECT u.phone, u.language, u.time_zone, u.quiet_start, u.quiet_end, u.sabbath_quiet, u.sabbath_city,
              u.calendar_schedule
         FROM (SELECT recipient_phone FROM household_list_changes
                GROUP BY recipient_phone HAVING min(first_at) <= $1 LIMIT $2) c
         JOIN users u ON u.phone = c.recipient_phone`,
      [new Date(beforeMs), limit],
    );
    return rows.map((r) => readerOf(r.phone, r));
  }

  /**
   * Takes the counted shared-list additions of these readers (all of a reader's go in one notice),
   * deleting them; those of readers no longer sharing the list are dropped. Another instance taking
   * the same ones at once gets none of them.
   */
  async takeListChanges(readers: readonly string[]): Promise<ListChange[]> {
    if (readers.length === 0) return [];
    const { rows } = await this.db.query<{
      recipient_phone: string;
      list_id: string;
      actor_phone: string;
      items: number;
      list: string | null;
      actor: string | null;
      language: ProactiveUser["language"];
      time_zone: string | null;
      quiet_start: string | null;
      quiet_end: string | null;
    }>(
      `DELETE FROM household_list_changes c
        WHERE c.recipient_phone = ANY($1::text[])
       RETURNING c.recipient_phone, c.list_id, c.actor_phone, c.items,
         (SELECT l.name FROM lists l JOIN household_members o
                ON o.phone = l.user_phone AND o.household_id = l.household_id
           JOIN household_members r ON r.phone = c.recipient_phone AND r.household_id = l.household_id
          WHERE l.id = c.list_id AND r.list_notices) AS list,
         (SELECT a.name FROM household_members a JOIN household_members r
                ON r.household_id = a.household_id AND r.phone = c.recipient_phone
          WHERE a.phone = c.actor_phone) AS actor,
         (SELECT u.language FROM users u WHERE u.phone = c.recipient_phone) AS language,
         (SELECT u.time_zone FROM users u WHERE u.phone = c.recipient_phone) AS time_zone,
         (SELECT u.quiet_start FROM users u WHERE u.phone = c.recipient_phone) AS quiet_start,
         (SELECT u.quiet_end FROM users u WHERE u.phone = c.recipient_phone) AS quiet_end`,
      [[...readers]],
    );
    return rows.flatMap((r) =>
      r.list && r.actor && r.time_zone
        ? [
            {
              reader: readerOf(r.recipient_phone, { ...r, time_zone: r.time_zone }),
              listId: r.list_id,
              list: r.list,
              actorPhone: r.actor_phone,
              actor: r.actor,
              items: r.items,
            },
          ]
        : [],
    );
  }

  /** Moves tasks to their next ring (null: none). */
  async setNextFire(updates: readonly { id: string; nextFireAt: number | null }[]): Promise<void> {
    if (updates.length === 0) return;
    await this.db.query(
      `UPDATE tasks SET next_fire_at = u.next_fire_at
         FROM jsonb_to_recordset($1::jsonb) AS u(id uuid, next_fire_at timestamptz)
        WHERE tasks.id = u.id`,
      [
        JSON.stringify(
          updates.map((u) => ({
            id: u.id,
            next_fire_at: u.nextFireAt === null ? null : new Date(u.nextFireAt).toISOString(),
          })),
        ),
      ],
    );
  }

  /**
   * Locks the users' rows in phone order (so two claims never deadlock). Not SKIP LOCKED: a second
   * instance claiming for the same user waits here and then sees the slots the first one took.
   * NO KEY UPDATE: inserts of the user's tasks and lists (foreign keys) are not held up.
   */
  async lockUsers(phones: readonly string[]): Promise<Map<string, ProactiveUser>> {
    if (phones.length === 0) return new Map();
    const { rows } = await this.db.query<UserRow>(
      `SELECT ${USER_COLUMNS} FROM users WHERE phone = ANY($1::text[]) ORDER BY phone FOR NO KEY UPDATE`,
      [[...phones]],
    );
    return new Map(rows.map((r) => [r.phone, toUser(r)]));
  }

  /** Records each user's next free slot for a proactive message. */
  async setNextProactive(slots: ReadonlyMap<string, number>): Promise<void> {
    if (slots.size === 0) return;
    await this.db.query(
      `UPDATE users SET next_proactive_at = s.at
         FROM jsonb_to_recordset($1::jsonb) AS s(phone text, at timestamptz)
        WHERE users.phone = s.phone`,
      [JSON.stringify([...slots].map(([phone, at]) => ({ phone, at: new Date(at).toISOString() })))],
    );
  }

  /**
   * Locks the users whose digest or weekly review is due by `nowMs`, after giving the users who have
   * none scheduled yet their next instant (`nextOf`). `locked`: the larger batch of the two, so a
   * full one tells the pass to claim again.
   */
  async lockDueScheduled(
    kind: ScheduledMessage,
    nowMs: number,
    limit: number,
    nextOf: (user: ProactiveUser) => number | null,
  ): Promise<{ due: ProactiveUser[]; locked: number }> {
    const unscheduled = await this.lockUnscheduled(kind, limit);
    await this.setNext(
      kind,
      unscheduled.map((u) => ({ phone: u.phone, at: nextOf(u) })),
    );
    const due = await this.lockDue(kind, nowMs, limit);
    return { due, locked: Math.max(due.length, unscheduled.length) };
  }

  /**
   * Locks users with the message on (the morning digest, or the weekly review) whose next instant
   * of it is unknown: new users, a changed zone, time or switch.
   */
  private async lockUnscheduled(kind: ScheduledMessage, limit: number): Promise<ProactiveUser[]> {
    const { enabled, next } = SCHEDULED[kind];
    const { rows } = await this.db.query<UserRow>(
      `SELECT ${USER_COLUMNS} FROM users
        WHERE ${enabled} AND ${next} IS NULL
        ORDER BY phone LIMIT $1 FOR NO KEY UPDATE SKIP LOCKED`,
      [limit],
    );
    return rows.map(toUser);
  }

  /** Locks users whose digest or weekly review is due by `nowMs`, oldest first. */
  private async lockDue(kind: ScheduledMessage, nowMs: number, limit: number): Promise<ProactiveUser[]> {
    const { enabled, next } = SCHEDULED[kind];
    const { rows } = await this.db.query<UserRow>(
      `SELECT ${USER_COLUMNS} FROM users
        WHERE ${enabled} AND ${next} <= $1
        ORDER BY ${next} LIMIT $2 FOR NO KEY UPDATE SKIP LOCKED`,
      [new Date(nowMs), limit],
    );
    return rows.map(toUser);
  }

  /**
   * Sets the next instants of a digest or weekly review; null (none can be computed) is stored as
   * never, until the zone or a setting changes.
   */
  async setNext(
    kind: ScheduledMessage,
    updates: readonly { phone: string; at: number | null }[],
  ): Promise<void> {
    if (updates.length === 0) return;
    await this.db.query(
      `UPDATE users SET ${SCHEDULED[kind].next} = u.at
         FROM jsonb_to_recordset($1::jsonb) AS u(phone text, at timestamptz)
        WHERE users.phone = u.phone`,
      [
        JSON.stringify(
          updates.map((u) => ({
            phone: u.phone,
            at: u.at === null ? "infinity" : new Date(u.at).toISOString(),
          })),
        ),
      ],
    );
  }

  /** The tasks of these users' weeks: every open one, and the completions recorded since `sinceMs`. */
  async weekTasksOf(phones: readonly string[], sinceMs: number): Promise<WeekTask[]> {
    if (phones.length === 0) return [];
    const { rows } = await this.db.query<{
      id: string;
      user_phone: string;
      text: string;
      due_at: Date | null;
      next_fire_at: Date | null;
      recurrence: TaskRecurrence | null;
      completed: boolean;
      completed_at: Date | null;
      given: boolean;
    }>(
      // Open tasks from tasks; what got done from task_completions ("done" deletes a reminder and
      // moves a repeating one on, so the task row cannot say it).
      `SELECT * FROM (
         SELECT id, user_phone, text, due_at, next_fire_at, recurrence, false AS completed,
                NULL::timestamptz AS completed_at, assigned_by_phone IS NOT NULL AS given, seq AS n
           FROM tasks
          WHERE user_phone = ANY($1::text[]) AND NOT completed
         UNION ALL
         SELECT task_id, user_phone, text, NULL, NULL, NULL, true, completed_at, given, 0
           FROM task_completions
          WHERE user_phone = ANY($1::text[]) AND completed_at >= $2
       ) w ORDER BY n, completed_at`,
      [[...phones], new Date(sinceMs)],
    );
    return rows.map((r) => ({
      id: r.id,
      phone: r.user_phone,
      text: r.text,
      dueAt: r.due_at?.toISOString() ?? null,
      nextFireAt: r.next_fire_at?.toISOString() ?? null,
      recurrence: r.recurrence,
      completed: r.completed,
      completedAt: r.completed_at?.getTime() ?? null,
      given: r.given,
    }));
  }

  /**
   * The open items of the lists shared with each of these users' households (their own shared
   * lists and other members'), while owner and reader are both members; by list, in list order.
   */
  async sharedListItemsOf(phones: readonly string[]): Promise<SharedListItem[]> {
    if (phones.length === 0) return [];
    const { rows } = await this.db.query<{ phone: string; list: string; text: string }>(
      `SELECT r.phone, l.name AS list, i.text
         FROM household_members r
         JOIN lists l ON l.household_id = r.household_id
         JOIN household_members o ON o.phone = l.user_phone AND o.household_id = l.household_id
         JOIN list_items i ON i.list_id = l.id AND NOT i.checked
        WHERE r.phone = ANY($1::text[])
        ORDER BY r.phone, l.seq, i.position`,
      [[...phones]],
    );
    return rows;
  }

  /**
   * Of these nudge tasks, those that already rang outside their user's 24-hour window since the
   * user last wrote (as a template, or recorded undeliverable): they wait for the user to write.
   */
  async nudgesHeldOutsideWindow(taskIds: readonly string[]): Promise<Set<string>> {
    if (taskIds.length === 0) return new Set();
    const { rows } = await this.db.query<{ task_id: string }>(
      `SELECT DISTINCT d.task_id FROM reminder_deliveries d JOIN users u ON u.phone = d.user_phone
        WHERE d.task_id = ANY($1::uuid[]) AND d.kind = 'nudge'
          AND (u.last_inbound_at IS NULL OR d.occurrence_at > u.last_inbound_at)
          AND d.via IS DISTINCT FROM 'text'`,
      [[...taskIds]],
    );
    return new Set(rows.map((r) => r.task_id));
  }

  /** The open tasks of these users (for their digests). */
  async openTasksOf(phones: readonly string[]): Promise<DigestTask[]> {
    if (phones.length === 0) return [];
    const { rows } = await this.db.query<{
      id: string;
      user_phone: string;
      text: string;
      due_at: Date | null;
      next_fire_at: Date | null;
      recurrence: TaskRecurrence | null;
      given: boolean;
    }>(
      `SELECT id, user_phone, text, due_at, next_fire_at, recurrence, assigned_by_phone IS NOT NULL AS given
         FROM tasks WHERE user_phone = ANY($1::text[]) AND NOT completed ORDER BY seq`,
      [[...phones]],
    );
    return rows.map((r) => ({
      id: r.id,
      phone: r.user_phone,
      text: r.text,
      dueAt: r.due_at?.toISOString() ?? null,
      nextFireAt: r.next_fire_at?.toISOString() ?? null,
      recurrence: r.recurrence,
      completed: false,
      given: r.given,
    }));
  }

  /**
   * The earliest instant after `nowMs` and no later than `untilMs` at which something becomes
   * due: a task's ring, or a delivery handed back until its send slot (it is taken over once its
   * claim is `leaseMs` old), to wake for it on time.
   */
  async nextDueBetween(nowMs: number, untilMs: number, leaseMs: number): Promise<number | null> {
    const { rows } = await this.db.query<{ at: Date | null }>(
      `SELECT least(
         (SELECT min(next_fire_at) FROM tasks WHERE next_fire_at > $1 AND next_fire_at <= $2),
         (SELECT min(claimed_at) FROM reminder_deliveries
           WHERE status = 'sending' AND claimed_at > $3 AND claimed_at <= $4) + $5::interval
       ) AS at`,
      [
        new Date(nowMs),
        new Date(untilMs),
        new Date(nowMs - leaseMs),
        new Date(untilMs - leaseMs),
        `${leaseMs} milliseconds`,
      ],
    );
    return rows[0]?.at?.getTime() ?? null;
  }
}
