import type { SchedulerSettings } from "../../config/env.js";
import type { Delivery, NewDelivery } from "../../db/repositories/deliveryLedger.js";
import type { ProactiveUser, SharedListItem, WeekTask } from "../../db/repositories/schedulerRepository.js";
import type { ReminderRepositories } from "../../db/storage.js";
import type { Storage } from "../../db/transaction.js";
import { scheduleOfZone, userHolidays } from "../../nlu/hebrewCalendar.js";
import { nextOccurrence } from "../../nlu/recurrence.js";
import { weekStartOf } from "../../nlu/week.js";
import {
  addDays,
  dateLabel,
  formatDate,
  instantToLocal,
  localMidnight,
  localToInstant,
  type LocalDate,
} from "../../nlu/zonedTime.js";
import type { DigestLine, ProactiveContent, WeeklyContent, WeeklySection } from "../../types/proactive.js";
import type { ReplyContent } from "../../types/outbound.js";
import { replyLanguage } from "../../utils/language.js";
import type { Logger } from "../../utils/logger.js";
import { quotedInline } from "../../utils/quotedText.js";
import type { DigestSource } from "./digest.js";
import { asDelivery, assignSlots, nextSlots } from "./deliveryRows.js";
import { localClock } from "./proactiveText.js";
import { isHeld } from "./sabbathQuiet.js";
import { renderWeekly, SECTION_LINES, weeklyIsEmpty } from "./weeklyText.js";

/** A weekly review more than this late is skipped (as the morning digest): Sunday's review is not sent on Sunday night. */
const WEEKLY_STALE_MS = 3 * 60 * 60 * 1000;
/** Items of one shared list named on its line. */
const LIST_ITEMS_SHOWN = 5;
/** The review's time when the user chose none. */
const DEFAULT_TIME = "08:00";

/** The user's weekly review day (0 = Sunday) and time: theirs, else Sunday 08:00 in Israel, Monday 08:00 elsewhere. */
export function weeklySchedule(user: {
  timeZone: string;
  weeklyReviewDay: number | null;
  weeklyReviewTime: string | null;
}): { day: number; time: string } {
  // The week starts on Sunday where the user's zone keeps Israel's calendar.
  const israeli = scheduleOfZone(user.timeZone) === "israel";
  return { day: user.weeklyReviewDay ?? (israeli ? 0 : 1), time: user.weeklyReviewTime ?? DEFAULT_TIME };
}

/** The next weekly review instant after `nowMs`, on the user's day at their time in their zone (D6). */
function nextWeeklyAt(user: ProactiveUser, nowMs: number): number | null {
  const { day, time } = weeklySchedule(user);
  return nextOccurrence({ type: "weekly", time, days: [day] }, user.timeZone, nowMs);
}

/** Who the review is for: the user's zone, language, name, holiday schedule and Shabbat quiet. */
type Reader = Pick<
  ProactiveUser,
  "phone" | "displayName" | "language" | "timeZone" | "calendarSchedule" | "sabbathCity" | "sabbathQuiet"
>;

/** At most SECTION_LINES lines, and how many more there were. */
function section(lines: readonly DigestLine[]): WeeklySection {
  return { lines: lines.slice(0, SECTION_LINES), more: Math.max(0, lines.length - SECTION_LINES) };
}

/**
 * The first day of the user's week holding `date` (Sunday in Israel, Monday elsewhere: userWeek),
 * as "2027-04-18": the review's ledger key, so a review moved to another day mid-week is not sent
 * twice that week.
 */
function weekStart(date: LocalDate, zone: string): string {
  return formatDate(weekStartOf(date, zone));
}

/** The instant a task shows at: its next ring for repeating ones, else its due time. */
function shownAt(task: WeekTask): number | null {
  const iso = task.recurrence !== null ? (task.nextFireAt ?? task.dueAt) : (task.dueAt ?? task.nextFireAt);
  return iso === null ? null : Date.parse(iso);
}

/** The stretch a review made at `reviewAtMs` covers: the 7 days before it, and the rest of its day plus 6 more. */
function weekOf(reviewAtMs: number, zone: string) {
  const local = instantToLocal(reviewAtMs, zone);
  const today: LocalDate = { year: local.year, month: local.month, day: local.day };
  // A week back on the calendar, at the same wall time (D6: days keep the local time).
  const sinceMs = localToInstant({ ...addDays(today, -7), hour: local.hour, minute: local.minute }, zone);
  const lastDay = addDays(today, 6);
  return { today, lastDay, sinceMs, untilMs: localMidnight(addDays(today, 7), zone) };
}

/**
 * The weekly review of one user at `reviewAtMs`: done in the past 7 days, overdue (numbered),
 * coming in the next 7 days, the holidays of those days on the user's schedule, and the open items
 * of their household's shared lists. Pure: the caller brings the tasks and items.
 */
function buildWeeklyReview(
  user: Reader,
  tasks: readonly WeekTask[],
  items: readonly Pick<SharedListItem, "list" | "text">[],
  reviewAtMs: number,
): WeeklyContent {
  const zone = user.timeZone;
  const language = replyLanguage(user.language);
  const week = weekOf(reviewAtMs, zone);
  // A task another member gave: their words, shown as content (D14).
  const words = (task: WeekTask) => (task.given ? quotedInline(task.text) : task.text);
  const done: { at: number; line: DigestLine }[] = [];
  const overdue: { at: number; id: string; line: DigestLine }[] = [];
  const coming: { at: number; line: DigestLine }[] = [];
  for (const task of tasks) {
    if (task.completed) {
      if (task.completedAt !== null && task.completedAt >= week.sinceMs)
        done.push({ at: task.completedAt, line: { text: words(task) } });
      continue;
    }
    // A repeating reminder with no next ring has ended.
    if (task.recurrence !== null && task.nextFireAt === null) continue;
    const at = shownAt(task);
    if (at === null) continue;
    const local = instantToLocal(at, zone);
    const day = dateLabel(local, language, true);
    if (task.recurrence === null && at < reviewAtMs) {
      overdue.push({ at, id: task.id, line: { time: day, text: words(task) } });
    } else if (at >= reviewAtMs && at < week.untilMs) {
      coming.push({ at, line: { time: `${day} ${localClock(at, zone)}`, text: words(task) } });
    }
  }
  const byTime = (a: { at: number }, b: { at: number }) => a.at - b.at;
  overdue.sort(byTime);
  const holidays = userHolidays({ ...user, language }, week.today, week.lastDay).map((h) => ({
    time: dateLabel(h.date, language, true),
    text: language === "he" ? h.he : h.en,
  }));
  const lists = new Map<string, string[]>();
  for (const item of items) lists.set(item.list, [...(lists.get(item.list) ?? []), item.text]);
  const shared = [...lists].map(([list, texts]) => {
    const rest = texts.length - LIST_ITEMS_SHOWN;
    return {
      // A list's name, like its items, may be another member's words (D14).
      text: `*${quotedInline(list)}* (${texts.length}): ${texts.slice(0, LIST_ITEMS_SHOWN).map(quotedInline).join(", ")}${rest > 0 ? ", …" : ""}`,
    };
  });
  const overdueShown = overdue.slice(0, SECTION_LINES);
  return {
    kind: "weekly",
    language,
    timeZone: zone,
    name: user.displayName?.trim().split(/\s+/)[0]?.slice(0, 40) || null,
    date: formatDate(week.today),
    reviewAt: new Date(reviewAtMs).toISOString(),
    done: section(done.sort(byTime).map((d) => d.line)),
    overdue: { ...section(overdue.map((o) => o.line)), taskIds: overdueShown.map((o) => o.id) },
    coming: section(coming.sort(byTime).map((c) => c.line)),
    holidays: section(holidays),
    shared: section(shared),
    sections: [],
  };
}

export interface WeeklyReviewDeps {
  /** Users whose review is due, their tasks and shared lists, and the ledger reviews are recorded in. */
  storage: Storage<ReminderRepositories>;
  logger: Logger;
  clock: () => number;
  settings: Pick<SchedulerSettings, "userGapMs">;
}

/** What one claim of weekly reviews did (as DigestClaim). */
interface WeeklyClaim {
  locked: number;
  deliveries: Delivery[];
  skipped: number;
}

/**
 * The opt-in weekly review (issue 36): each user's next review instant (their day and time, in
 * their zone), the due reviews claimed into the delivery ledger under `weekly:<phone>@<first day
 * of the user's week>` (one per week, whichever instance inserts it first, whichever day it comes
 * on), the calendar's events added at send
 * time, and the review on demand ("weekly review").
 */
export class WeeklyReview {
  /** Capabilities that add to the review (the calendar): the morning digest's sources, asked for the week. */
  private readonly sources: DigestSource[] = [];

  constructor(private readonly deps: WeeklyReviewDeps) {}

  /** Adds a section source (the calendar's events of the week). */
  addSource(source: DigestSource): void {
    this.sources.push(source);
  }

  /** Claims due weekly reviews: schedules users who have no next review yet, then records each due one (skipped when hours late or empty). */
  async claim(token: string, limit: number): Promise<WeeklyClaim> {
    const now = this.deps.clock();
    const gapMs = this.deps.settings.userGapMs;
    return this.deps.storage.transaction(async ({ schedule: repo, deliveries }) => {
      const { due, locked } = await repo.lockDueScheduled("weekly", now, limit, (u) => this.next(u, now));
      if (due.length === 0) return { locked, deliveries: [], skipped: 0 };
      const phones = due.map((u) => u.phone);
      // The oldest week any of them covers: a review is never more than WEEKLY_STALE_MS late when sent.
      const since = Math.min(...due.map((u) => weekOf(u.weeklyReviewNextAt!, u.timeZone).sinceMs));
      const tasksOf = groupBy(await repo.weekTasksOf(phones, since));
      const itemsOf = groupBy(await repo.sharedListItemsOf(phones));
      const perUser = new Map<string, NewDelivery[]>();
      const skippedRows: NewDelivery[] = [];
      /** Users in a Shabbat or yom tov window now: their review goes at havdalah, under its own key. */
      const heldUntil = new Map<string, number>();
      for (const user of due) {
        const reviewAt = user.weeklyReviewNextAt!;
        // Computed only for users with the setting (isHeld returns at once otherwise), as ringClaims does.
        const window = isHeld(user, now);
        if (window) heldUntil.set(user.phone, window.end);
        const content = buildWeeklyReview(
          user,
          tasksOf.get(user.phone) ?? [],
          itemsOf.get(user.phone) ?? [],
          reviewAt,
        );
        const row: NewDelivery = {
          // One per user's week, whatever day it comes on (moved mid-week: not again that week).
          key: `weekly:${user.phone}@${weekStart(weekOf(reviewAt, user.timeZone).today, user.timeZone)}`,
          phone: user.phone,
          kind: "weekly",
          taskId: null,
          occurrenceAt: reviewAt,
          content,
          sendAfter: now,
        };
        // The calendar may still add the week's events at send time; without sources an empty one is skipped now.
        const empty = weeklyIsEmpty(content) && this.sources.length === 0;
        if (now - reviewAt > WEEKLY_STALE_MS || empty) {
          skippedRows.push({ ...row, status: "skipped", error: empty ? "nothing to report" : "too late" });
        } else {
          perUser.set(user.phone, [row]);
        }
      }
      const users = new Map(due.map((u) => [u.phone, u]));
      const rows = assignSlots(perUser, users, now, gapMs, heldUntil);
      await repo.setNextProactive(nextSlots(rows, gapMs));
      await repo.setNext(
        "weekly",
        due.map((u) => ({ phone: u.phone, at: this.next(u, now) })),
      );
      const inserted = await deliveries.insert([...rows, ...skippedRows], token, now);
      return {
        locked,
        deliveries: rows.filter((r) => inserted.has(r.key)).map((r) => asDelivery(r, token)),
        skipped: skippedRows.filter((r) => inserted.has(r.key)).length,
      };
    });
  }

  /** A review gains the sources' sections for its week (asked now, at send time); other content as it is. */
  async complete(content: ProactiveContent, phone: string): Promise<ProactiveContent> {
    if (content.kind !== "weekly" || this.sources.length === 0) return content;
    const reviewAt = Date.parse(content.reviewAt);
    const range = { startMs: reviewAt, endMs: weekOf(reviewAt, content.timeZone).untilMs, week: true };
    const user = { phone, timeZone: content.timeZone, language: content.language };
    const sections = await Promise.all(
      this.sources.map((source) =>
        source.sectionFor(user, range).catch((error: unknown) => {
          this.deps.logger.warn({ err: error, source: source.name }, "weekly review source failed; left out");
          return null;
        }),
      ),
    );
    return { ...content, sections: [...content.sections, ...sections.filter((s) => s !== null)] };
  }

  /**
   * The review as of now, as a reply ("weekly review"): not recorded in the ledger; its overdue
   * tasks are numbered in the window like any listing. Null when it has nothing to say.
   */
  async now(user: Reader): Promise<ReplyContent | null> {
    const { storage, clock } = this.deps;
    const now = clock();
    const { schedule } = storage.repositories;
    const [tasks, items] = await Promise.all([
      schedule.weekTasksOf([user.phone], weekOf(now, user.timeZone).sinceMs),
      schedule.sharedListItemsOf([user.phone]),
    ]);
    const built = buildWeeklyReview(user, tasks, items, now);
    const content = (await this.complete(built, user.phone)) as WeeklyContent;
    if (weeklyIsEmpty(content)) return null;
    return {
      text: renderWeekly(content, false),
      options: [],
      language: content.language,
      ...(content.overdue.taskIds.length > 0
        ? { numbered: { type: "task", ids: content.overdue.taskIds } }
        : {}),
    };
  }

  /** The user's next review instant; null (none) for a zone or time this runtime cannot read. */
  private next(user: ProactiveUser, nowMs: number): number | null {
    try {
      return nextWeeklyAt(user, nowMs);
    } catch (error) {
      this.deps.logger.error(
        { err: error, event: "WEEKLY_UNPLANNABLE", phone: user.phone, timeZone: user.timeZone },
        "weekly review cannot be scheduled for this user",
      );
      return null;
    }
  }
}

function groupBy<T extends { phone: string }>(rows: readonly T[]): Map<string, T[]> {
  const byPhone = new Map<string, T[]>();
  for (const row of rows) byPhone.set(row.phone, [...(byPhone.get(row.phone) ?? []), row]);
  return byPhone;
}
