import type { SchedulerSettings } from "../../config/env.js";
import type { Delivery, NewDelivery } from "../../db/repositories/deliveryLedger.js";
import type { DigestTask, ProactiveUser } from "../../db/repositories/schedulerRepository.js";
import type { ReminderRepositories } from "../../db/storage.js";
import type { Storage } from "../../db/transaction.js";
import { nextOccurrence } from "../../nlu/recurrence.js";
import { addDays, instantToLocal, localMidnight } from "../../nlu/zonedTime.js";
import { digestPolishMessages } from "../../prompts/morningBriefPrompt.js";
import type { LLMService } from "../../types/llm.js";
import type { ProactiveContent } from "../../types/proactive.js";
import type { Logger } from "../../utils/logger.js";
import { replyLanguage } from "../../utils/language.js";
import { buildDigest, type DigestSource } from "./digest.js";
import { asDelivery, assignSlots, nextSlots } from "./deliveryRows.js";
import { digestIsEmpty } from "./proactiveText.js";
import { digestCalendar } from "./digestCalendar.js";
import { isHeld } from "./sabbathQuiet.js";
import type { DigestAtSend } from "./reminderDelivery.js";

/** A morning digest more than this late is no morning digest: skipped, not sent at noon. */
const DIGEST_STALE_MS = 3 * 60 * 60 * 1000;
/** The longest polished digest sent; a longer answer is not a digest, and the template goes. */
const POLISHED_MAX_CHARS = 3500;

export interface MorningDigestDeps {
  /** Users whose digest is due, their open tasks, and the ledger the digests are recorded in. */
  storage: Storage<ReminderRepositories>;
  /** Rewords the digest when `settings.digestPolish` is on (null: never). */
  llm: LLMService | null;
  logger: Logger;
  clock: () => number;
  settings: Pick<SchedulerSettings, "userGapMs" | "digestPolish">;
}

/** What one claim of digests did: users locked (a full batch means claim again), digests to send, digests skipped. */
export interface DigestClaim {
  locked: number;
  deliveries: Delivery[];
  skipped: number;
}

/**
 * The morning digest (spec 002 §9.5): each user's next digest instant, the due digests claimed
 * with the day's tasks, and at send time the sections of other capabilities and the optional polish.
 */
export class MorningDigest implements DigestAtSend {
  /** Capabilities that add to the digest (the calendar). */
  private readonly sources: DigestSource[] = [];

  constructor(private readonly deps: MorningDigestDeps) {}

  /** Adds a section source to the morning digest. */
  addSource(source: DigestSource): void {
    this.sources.push(source);
  }

  /**
   * Claims due morning digests: computes the next digest instant of users who have none yet,
   * then gathers each due user's day into a digest (skipped when empty or hours late).
   */
  async claim(token: string, limit: number): Promise<DigestClaim> {
    const now = this.deps.clock();
    const gapMs = this.deps.settings.userGapMs;
    return this.deps.storage.transaction(async ({ schedule: repo, deliveries }) => {
      // A full batch of either kind: the pass claims again (many users scheduled at once after the migration).
      const { due, locked } = await repo.lockDueScheduled("digest", now, limit, (u) =>
        this.nextDigest(u, now),
      );
      if (due.length === 0) return { locked, deliveries: [], skipped: 0 };
      const tasksOf = new Map<string, DigestTask[]>();
      for (const task of await repo.openTasksOf(due.map((u) => u.phone))) {
        tasksOf.set(task.phone, [...(tasksOf.get(task.phone) ?? []), task]);
      }
      const perUser = new Map<string, NewDelivery[]>();
      const skippedRows: NewDelivery[] = [];
      for (const user of due) {
        const digestAt = user.digestNextAt!;
        const content = {
          ...buildDigest(user, tasksOf.get(user.phone) ?? [], digestAt),
          ...this.calendarOf(user, digestAt),
        };
        const row: NewDelivery = {
          key: `digest:${user.phone}@${content.date}`,
          phone: user.phone,
          kind: "digest",
          taskId: null,
          occurrenceAt: digestAt,
          content,
          sendAfter: now,
        };
        // A digest may still gain a calendar section at send time; without sources an empty one is skipped now.
        const empty = digestIsEmpty(content) && this.sources.length === 0;
        // A Saturday-morning digest held to havdalah says nothing useful: that day's is skipped.
        const resting = isHeld(user, digestAt) !== null;
        if (now - digestAt > DIGEST_STALE_MS || empty || resting) {
          const error = resting ? "shabbat quiet" : empty ? "nothing to report" : "too late";
          skippedRows.push({ ...row, status: "skipped", error });
        } else {
          perUser.set(user.phone, [row]);
        }
      }
      const users = new Map(due.map((u) => [u.phone, u]));
      const rows = assignSlots(perUser, users, now, gapMs);
      await repo.setNextProactive(nextSlots(rows, gapMs));
      await repo.setNext(
        "digest",
        due.map((u) => ({ phone: u.phone, at: this.nextDigest(u, now) })),
      );
      const inserted = await deliveries.insert([...rows, ...skippedRows], token, now);
      return {
        locked,
        deliveries: rows.filter((r) => inserted.has(r.key)).map((r) => asDelivery(r, token)),
        skipped: skippedRows.filter((r) => inserted.has(r.key)).length,
      };
    });
  }

  /** A digest gains the sections of the digest sources (asked now, at send time). */
  async complete(content: ProactiveContent, phone: string): Promise<ProactiveContent> {
    if (content.kind !== "digest" || this.sources.length === 0) return content;
    const at = Date.parse(content.digestAt);
    const day = dayBounds(at, content.timeZone);
    const sections = await Promise.all(
      this.sources.map((source) =>
        source
          .sectionFor({ phone, timeZone: content.timeZone, language: content.language }, day)
          .catch((error: unknown) => {
            this.deps.logger.warn({ err: error, source: source.name }, "digest source failed; left out");
            return null;
          }),
      ),
    );
    return {
      ...content,
      sections: [...content.sections, ...sections.filter((s) => s !== null)],
    };
  }

  /** The digest's text reworded by the response writer's model when that is on; else, or if it fails, the template's. */
  async polish(text: string, language: "he" | "en"): Promise<string> {
    const { llm, settings, logger } = this.deps;
    if (!settings.digestPolish || !llm) return text;
    try {
      const polished = (await llm.text("responseWriter", digestPolishMessages(text, language))).value.trim();
      // The template is the fallback for anything that does not look like a digest.
      if (polished.length > 0 && polished.length <= POLISHED_MAX_CHARS) return polished;
    } catch (error) {
      logger.warn(
        { err: error, event: "DIGEST_POLISH_FAILED" },
        "digest polish failed; sending the template",
      );
    }
    return text;
  }

  /** Today's holidays and candle lighting; left out (logged) if the calendar cannot be read. */
  private calendarOf(user: ProactiveUser, digestAt: number): ReturnType<typeof digestCalendar> {
    try {
      return digestCalendar({ ...user, language: replyLanguage(user.language) }, digestAt);
    } catch (error) {
      this.deps.logger.warn(
        { err: error, event: "DIGEST_CALENDAR_FAILED" },
        "digest without the Hebrew calendar",
      );
      return {};
    }
  }

  /** The user's next digest instant; null (no digest) for a zone or time this runtime cannot read. */
  private nextDigest(user: ProactiveUser, nowMs: number): number | null {
    try {
      return nextDigestAt(user, nowMs);
    } catch (error) {
      this.deps.logger.error(
        { err: error, event: "DIGEST_UNPLANNABLE", phone: user.phone, timeZone: user.timeZone },
        "morning digest cannot be scheduled for this user",
      );
      return null;
    }
  }
}

/** The user's next digest instant after `nowMs`: their local digest time, on the next day it is still ahead. */
function nextDigestAt(
  user: Pick<ProactiveUser, "timeZone" | "digestLocalTime">,
  nowMs: number,
): number | null {
  return nextOccurrence({ type: "daily", time: user.digestLocalTime }, user.timeZone, nowMs);
}

/** The local day containing `atMs`, from its midnight to the next (23 to 25 hours across DST). */
function dayBounds(atMs: number, timeZone: string): { startMs: number; endMs: number } {
  const { year, month, day } = instantToLocal(atMs, timeZone);
  return {
    startMs: localMidnight({ year, month, day }, timeZone),
    endMs: localMidnight(addDays({ year, month, day }, 1), timeZone),
  };
}
