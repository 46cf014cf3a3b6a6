import type { Delivery, NewDelivery } from "../../db/repositories/deliveryLedger.js";
import type { NoticeReader } from "../../db/repositories/schedulerRepository.js";
import type { ReminderRepositories } from "../../db/storage.js";
import type { Storage } from "../../db/transaction.js";
import type { HouseholdContent } from "../../types/proactive.js";
import { replyLanguage } from "../../utils/language.js";
import { asDelivery } from "./deliveryRows.js";
import { inQuietHours, quietHoursEnd, type QuietHours } from "./ringPlan.js";
import { isHeld } from "./sabbathQuiet.js";

/** An hour after a reminder given within a household rang and is still open, its giver is told once. */
const STILL_OPEN_AFTER_MS = 60 * 60 * 1000;
/** Additions to shared lists are gathered this long into one notice. */
const LIST_NOTICE_BATCH_MS = 15 * 60 * 1000;

export interface HouseholdNoticesDeps {
  /** Givers to tell and list changes to gather, and the ledger the notices are recorded in. */
  storage: Storage<ReminderRepositories>;
  clock: () => number;
}

/**
 * The claim side of household notices (docs/HOUSEHOLD.md): what a giver is told about a task they
 * gave, and each member's batched notice of others' additions to shared lists.
 */
export class HouseholdNotices {
  constructor(private readonly deps: HouseholdNoticesDeps) {}

  /**
   * Claims the household's notices: to whoever gave a task or reminder, that it is done or still
   * open an hour after it rang (each once), and each member's batched notice of others' additions
   * to shared lists. A reader in their quiet hours gets it when they end; one keeping Shabbat
   * quiet, at havdalah.
   */
  async claim(token: string, limit: number): Promise<Delivery[]> {
    const now = this.deps.clock();
    const rows = await this.deps.storage.transaction(async ({ schedule: repo, deliveries }) => {
      const told = await repo.lockAssignerNotices(now - STILL_OPEN_AFTER_MS, limit);
      // A reader in their quiet hours keeps gathering: one notice when they end, not one per batch.
      const readers = (await repo.listChangeReaders(now - LIST_NOTICE_BATCH_MS, limit)).filter(
        (reader) => !inQuietHours(now, quietOf(reader)) && !isHeld(sabbathOf(reader), now),
      );
      const changes = await repo.takeListChanges(readers.map((reader) => reader.phone));
      if (told.length === 0 && changes.length === 0) return [];
      const out: NewDelivery[] = told.map((n) => {
        // Done again after an undo is another "done": its key names when.
        const key = n.done
          ? `household:done:${n.taskId}@${new Date(n.completedAt ?? now).toISOString()}`
          : `household:open:${n.taskId}`;
        const row = householdNotice(n.giver, key, now, {
          notice: n.done ? "done" : "stillOpen",
          who: n.holder,
          text: n.text,
          ...(n.rangAt !== null ? { rangAt: new Date(n.rangAt).toISOString() } : {}),
        });
        // "Still open" goes with its task: done before it is sent (held by quiet hours), it is not.
        return n.done ? row : { ...row, taskId: n.taskId };
      });

      const perReader = new Map<string, typeof changes>();
      for (const change of changes)
        perReader.set(change.reader.phone, [...(perReader.get(change.reader.phone) ?? []), change]);
      for (const [phone, mine] of perReader) {
        out.push(
          householdNotice(
            mine[0]!.reader,
            `household:lists:${phone}@${new Date(now).toISOString()}/${token}`,
            now,
            {
              notice: "lists",
              who: mine[0]!.actor,
              changes: mine.map((c) => ({ who: c.actor, list: c.list, count: c.items })),
            },
          ),
        );
      }
      await repo.markAssignerTold(told, now);
      const inserted = await deliveries.insert(out, token, now);
      return out.filter((row) => inserted.has(row.key));
    });
    return rows.map((row) => asDelivery(row, token));
  }
}

/** A reader's quiet hours; none (equal bounds) is never quiet. */
function quietOf(reader: Pick<NoticeReader, "quietStart" | "quietEnd" | "timeZone">): QuietHours {
  return reader.quietStart && reader.quietEnd
    ? { start: reader.quietStart, end: reader.quietEnd, timeZone: reader.timeZone }
    : { start: "00:00", end: "00:00", timeZone: reader.timeZone };
}

/** A reader's Shabbat quiet (absent: off). */
const sabbathOf = (
  reader: Pick<NoticeReader, "sabbathQuiet" | "sabbathCity" | "calendarSchedule"> & {
    timeZone: string;
  },
) => ({
  sabbathQuiet: reader.sabbathQuiet ?? false,
  sabbathCity: reader.sabbathCity ?? null,
  calendarSchedule: reader.calendarSchedule ?? null,
  timeZone: reader.timeZone,
});

/** What a household notice says, without whom it is for (their language and zone are added). */
type HouseholdNoticeBody = DistributiveOmit<HouseholdContent, "kind" | "language" | "timeZone">;

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/**
 * A household notice to `reader` (a member: their language, zone and quiet hours), sent now or, in
 * their quiet hours, when those end; in their Shabbat quiet, at havdalah.
 */
export function householdNotice(
  reader: Omit<NoticeReader, "timeZone"> & { timeZone: string | null },
  key: string,
  now: number,
  body: HouseholdNoticeBody,
): NewDelivery {
  const timeZone = reader.timeZone ?? "UTC";
  const quiet = quietOf({ ...reader, timeZone });
  const content = {
    ...body,
    kind: "household",
    language: replyLanguage(reader.language),
    timeZone,
  } as HouseholdContent;
  return {
    key,
    phone: reader.phone,
    kind: "household",
    taskId: null,
    occurrenceAt: now,
    content,
    sendAfter: Math.max(
      inQuietHours(now, quiet) ? quietHoursEnd(now, quiet) : now,
      isHeld(sabbathOf({ ...reader, timeZone }), now)?.end ?? now,
    ),
  };
}
