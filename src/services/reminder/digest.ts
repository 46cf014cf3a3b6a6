import type { DigestTask, ProactiveUser } from "../../db/repositories/schedulerRepository.js";
import { localDayNumber, zonedParts, pad2 } from "../../utils/timeContext.js";
import { replyLanguage } from "../../utils/language.js";
import type { DigestContent, DigestLine, DigestSection } from "../../types/proactive.js";
import { quotedInline } from "../../utils/quotedText.js";
import { localClock } from "./proactiveText.js";

/**
 * Another capability's part of the morning digest (the calendar's events for the day) and of the
 * weekly review (for the week). Asked at send time; a source that fails is left out, never the message.
 */
export interface DigestSource {
  readonly name: string;
  sectionFor(
    user: { phone: string; timeZone: string; language: "he" | "en" },
    /** The stretch asked for: the digest's day, or (`week`) the weekly review's seven days. */
    day: { startMs: number; endMs: number; week?: boolean },
  ): Promise<DigestSection | null>;
}

/** The instant a task shows at in the digest: its next ring for repeating ones, else its due time. */
function shownAt(task: DigestTask): number | null {
  const repeating = task.recurrence !== null;
  const iso = repeating ? (task.nextFireAt ?? task.dueAt) : (task.dueAt ?? task.nextFireAt);
  return iso === null ? null : Date.parse(iso);
}

/**
 * The digest of one user for the day of `digestAtMs`: what rings or is due today (from the digest
 * on), what is overdue, and how many open tasks have no date. Pure: the caller brings the tasks.
 */
export function buildDigest(
  user: ProactiveUser,
  tasks: readonly DigestTask[],
  digestAtMs: number,
): DigestContent {
  const zone = user.timeZone;
  const today = localDayNumber(digestAtMs, zone);
  const todayLines: { at: number; line: DigestLine }[] = [];
  const overdue: { at: number; line: DigestLine }[] = [];
  let undated = 0;
  for (const task of tasks) {
    // A repeating reminder with no next ring has ended (its "until" passed): nothing to do today.
    if (task.recurrence !== null && task.nextFireAt === null) continue;
    const at = shownAt(task);
    if (at === null) {
      undated += 1;
      continue;
    }
    const day = localDayNumber(at, zone);
    // A task another member gave: their words, shown as content (D14).
    const text = task.given ? quotedInline(task.text) : task.text;
    const line = { time: localClock(at, zone), text };
    if (task.recurrence === null && at < digestAtMs) {
      const date = zonedParts(at, zone);
      // Overdue from an earlier day shows its date; from earlier today, its time.
      overdue.push({
        at,
        line: { text, time: day === today ? line.time : `${pad2(date.day)}/${pad2(date.month)}` },
      });
    } else if (day === today) {
      todayLines.push({ at, line });
    }
  }
  const byTime = (a: { at: number }, b: { at: number }) => a.at - b.at;
  const parts = zonedParts(digestAtMs, zone);
  return {
    kind: "digest",
    language: replyLanguage(user.language),
    timeZone: zone,
    name: user.displayName?.trim().split(/\s+/)[0]?.slice(0, 40) || null,
    date: `${parts.year}-${pad2(parts.month)}-${pad2(parts.day)}`,
    digestAt: new Date(digestAtMs).toISOString(),
    today: todayLines.sort(byTime).map((x) => x.line),
    overdue: overdue.sort(byTime).map((x) => x.line),
    undated,
    sections: [],
  };
}
