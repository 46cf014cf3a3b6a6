import type { HITLOption } from "../../types/index.js";
import type {
  AwayContent,
  DigestContent,
  DigestLine,
  HouseholdContent,
  ProactiveContent,
  RingContent,
} from "../../types/proactive.js";
import { quotedInline } from "../../utils/quotedText.js";
import { HEBREW_DAYS, humanTime, pad2, zonedParts } from "../../utils/timeContext.js";
import { t, type Language } from "../../messages/index.js";
import { intervalText } from "../tasks/replies.js";
import { HOUSEHOLD_BUTTON, REMINDER_BUTTON } from "../../nlu/buttonCommands.js";
import { SHABBAT_NAME } from "../../nlu/restWindows.js";
import { renderWeekly } from "./weeklyText.js";

/**
 * What a proactive message says, kept as data in the delivery ledger at claim time and rendered
 * to text when it is actually sent, so "late by" is measured at the moment it goes out.
 */

/** A message later than this after its due time says it is late, and by how much. */
export const LATE_AFTER_MS = 2 * 60 * 1000;
/** Minutes a "Snooze" tap moves the next ring. */
export const SNOOZE_MINUTES = 10;

/** The message to send: its text and, for reminders, reply buttons. */
export interface RenderedMessage {
  text: string;
  buttons: HITLOption[];
}

/** "5 minutes", "2 hours 10 minutes", "3 days" (or Hebrew): how late a message is. @internal */
export function durationText(ms: number, language: Language): string {
  const minutes = Math.max(1, Math.round(ms / 60_000));
  if (minutes < 60) return t(language, "duration.minutes", { count: minutes });
  const hours = Math.floor(minutes / 60);
  if (hours >= 48) return t(language, "duration.days", { count: Math.round(hours / 24) });
  const hourText = t(language, "duration.hours", { count: hours });
  const rest = minutes % 60;
  return rest === 0 ? hourText : `${hourText} ${t(language, "duration.andMinutes", { count: rest })}`;
}

/** Local "HH:mm" of an instant. */
export function localClock(ms: number, timeZone: string): string {
  const parts = zonedParts(ms, timeZone);
  return `${pad2(parts.hour)}:${pad2(parts.minute)}`;
}

/**
 * "Fri 17:14" / "יום שישי 17:14" in `timeZone`; `bare` leaves out Hebrew's "יום" ("שישי 17:14"), as
 * the Shabbat settings' reply says it.
 */
export function dayClock(ms: number, timeZone: string, language: Language, bare = false): string {
  const parts = zonedParts(ms, timeZone);
  const day =
    language === "he"
      ? `${bare ? "" : "יום "}${HEBREW_DAYS[parts.dayOfWeek] ?? ""}`
      : parts.weekday.slice(0, 3);
  return `${day} ${localClock(ms, timeZone)}`;
}

/** The message of a ledger entry, as of `nowMs`. */
export function renderProactive(content: ProactiveContent, nowMs: number): RenderedMessage {
  switch (content.kind) {
    case "away":
      return { text: renderAway(content, nowMs), buttons: [] };
    case "digest":
      return { text: renderDigest(content), buttons: [] };
    case "weekly":
      return { text: renderWeekly(content, true), buttons: [] };
    case "household":
      return renderHousehold(content, nowMs);
    default:
      return renderRing(content, nowMs);
  }
}

function renderHousehold(content: HouseholdContent, nowMs: number): RenderedMessage {
  const { language: lang, who } = content;
  const text = (body: string) => ({ text: body, buttons: [] });
  switch (content.notice) {
    case "joined":
      return text(t(lang, "household.joined", { who }));
    case "left":
    case "removed": {
      const lost = content.lost?.length
        ? `\n${t(lang, "household.copyOffer", { lists: content.lost.join(", ") })}`
        : "";
      const withdrawn = content.withdrawn?.join(", ");
      const ended = !content.ended
        ? ""
        : `\n${withdrawn ? t(lang, "household.endedWithdrawn", { names: withdrawn }) : t(lang, "household.ended")}`;
      return text(`${t(lang, `household.${content.notice}`, { who })}${ended}${lost}`);
    }
    case "shared":
      return text(t(lang, "household.shared", { who, list: content.list }));
    case "task":
    case "done":
      return text(t(lang, `household.${content.notice}`, { who, text: content.text }));
    case "stillOpen":
      // Said with when it rang: held by quiet hours, "an hour ago" would not be true.
      return text(
        content.rangAt
          ? t(lang, "household.stillOpenSince", {
              who,
              text: content.text,
              time: humanTime(content.rangAt, nowMs, content.timeZone, lang),
            })
          : t(lang, "household.stillOpen", { who, text: content.text }),
      );
    case "lists":
      return text(
        [
          t(lang, "household.listsTitle"),
          ...content.changes.map((c) => `• ${t(lang, "household.listChange", { ...c, count: c.count })}`),
        ].join("\n"),
      );
    case "invitation":
      break;
  }
  const id = content.invitationId;
  return {
    text: t(lang, "household.invitation", { who }),
    buttons: [
      { id: `${HOUSEHOLD_BUTTON.accept}${id}`, label: t(lang, "household.buttonAccept") },
      { id: `${HOUSEHOLD_BUTTON.decline}${id}`, label: t(lang, "household.buttonDecline") },
    ],
  };
}

function renderRing(content: RingContent, nowMs: number): RenderedMessage {
  const { language: lang, timeZone } = content;
  const when = (iso: string) => humanTime(iso, nowMs, timeZone, lang);
  const fireAt = Date.parse(content.fireAt);
  const dueAt = content.dueAt === null ? null : Date.parse(content.dueAt);
  // An early ring ("an hour before") sent only after the due time itself: that is what it is late for.
  const lateFrom =
    content.kind === "reminder" && dueAt !== null && dueAt > fireAt && nowMs >= dueAt ? dueAt : fireAt;
  // Words another member wrote are never Memo's formatting, whatever ring shows them.
  const words = content.from ? quotedInline(content.text) : content.text;
  let text: string;
  switch (content.kind) {
    case "nudge":
      text = t(lang, "reminder.nudge", {
        text: words,
        interval: intervalText(content.intervalMinutes ?? SNOOZE_MINUTES, lang),
      });
      break;
    case "recurring":
      // Rung ahead of each occurrence ("30 minutes before"): say when it is.
      text =
        dueAt !== null && dueAt > fireAt
          ? t(lang, "reminder.recurringAt", { text: words, time: when(content.dueAt!) })
          : t(lang, "reminder.recurring", { text: words });
      break;
    case "overdue":
      text = t(lang, "reminder.overdue", { text: words, time: when(content.dueAt ?? content.fireAt) });
      break;
    case "reminder":
      // Rung ahead of the due time ("an hour before") and that is still to come: say when it is due.
      // Another member's reminder: their words quoted under their name (messages/othersWords.ts).
      if (content.dueAt && dueAt !== null && dueAt > fireAt && dueAt > nowMs) {
        const time = when(content.dueAt);
        text = content.from
          ? t(lang, "reminder.ringFromAt", { text: content.text, from: content.from, time })
          : t(lang, "reminder.ringAt", { text: content.text, time });
      } else {
        text = content.from
          ? t(lang, "reminder.ringFrom", { text: content.text, from: content.from })
          : t(lang, "reminder.ring", { text: content.text });
      }
      break;
  }
  const late = nowMs - lateFrom;
  if (content.heldFor && content.heldFor.length > 0 && late > LATE_AFTER_MS) {
    // Held for Shabbat or yom tov: said so, with when it was due (not an apology for being late).
    text += `\n${t(lang, "reminder.held", { name: joinNames(content.heldFor, lang), time: when(new Date(lateFrom).toISOString()) })}`;
  } else if (late > LATE_AFTER_MS && content.kind !== "overdue") {
    const time = when(new Date(lateFrom).toISOString());
    text += `\n${t(lang, "reminder.late", { time, late: durationText(late, lang) })}`;
  }
  // A one-time reminder or a nudge can be ticked off or put off with one tap.
  const buttons: HITLOption[] =
    content.kind === "recurring"
      ? []
      : [
          { id: `${REMINDER_BUTTON.done}${content.taskId}`, label: t(lang, "reminder.buttonDone") },
          { id: `${REMINDER_BUTTON.snooze}${content.taskId}`, label: t(lang, "reminder.buttonSnooze") },
        ];
  return { text, buttons };
}

/**
 * "Rosh Hashana and Shabbat" / "החג והשבת": Hebrew says "until the end of the holiday and Shabbat"
 * ("עד צאת החג והשבת") rather than naming the holidays before Shabbat.
 */
function joinNames(names: readonly string[], lang: Language): string {
  if (names.length < 2) return names[0] ?? "";
  const first = names.slice(0, -1).join(", ");
  const last = names.at(-1)!;
  if (lang === "he" && last === SHABBAT_NAME.he)
    return t(lang, names.length === 2 ? "reminder.heldHolidayAndShabbat" : "reminder.heldHolidaysAndShabbat");
  return t(lang, "reminder.heldNames", { names: first, last });
}

function renderAway(content: AwayContent, nowMs: number): string {
  const { language: lang, timeZone } = content;
  const items = [...content.items].sort((a, b) => Date.parse(a.fireAt) - Date.parse(b.fireAt));
  return [
    t(lang, "reminder.awayTitle"),
    ...items.map((item) => `• ${item.text} (${humanTime(item.fireAt, nowMs, timeZone, lang)})`),
    t(lang, "reminder.awayFooter"),
  ].join("\n");
}

const line = (l: DigestLine) => `• ${l.time ? `${l.time} ` : ""}${l.text}`;

/** The morning digest as a template in the user's language. @internal */
export function renderDigest(content: DigestContent): string {
  const { language: lang } = content;
  const at = Date.parse(content.digestAt);
  const parts = zonedParts(at, content.timeZone);
  const day =
    lang === "he"
      ? `יום ${HEBREW_DAYS[parts.dayOfWeek] ?? ""} ${pad2(parts.day)}/${pad2(parts.month)}`
      : `${parts.weekday} ${pad2(parts.day)}/${pad2(parts.month)}`;
  const greeting = [t(lang, "digest.greeting", { name: content.name ? ` ${content.name}` : "", day })];
  if (content.holidays?.length)
    greeting.push(t(lang, "digest.holiday", { names: content.holidays.join(" · ") }));
  if (content.candles) {
    const { city, lightingAt, havdalahAt } = content.candles;
    // The city's times, named as such when the user's zone is another's.
    const zone = content.candles.timeZone ?? content.timeZone;
    greeting.push(
      t(lang, zone === content.timeZone ? "digest.candles" : "digest.candlesCityTime", {
        time: localClock(Date.parse(lightingAt), zone),
        city,
        havdalah: dayClock(Date.parse(havdalahAt), zone, lang),
      }),
    );
  }
  const blocks = [greeting.join("\n")];
  if (content.today.length > 0) blocks.push([t(lang, "digest.today"), ...content.today.map(line)].join("\n"));
  for (const section of content.sections) {
    if (section.lines.length > 0) blocks.push([section.title, ...section.lines.map(line)].join("\n"));
  }
  if (content.overdue.length > 0)
    blocks.push([t(lang, "digest.overdue"), ...content.overdue.map(line)].join("\n"));
  if (content.undated > 0) blocks.push(t(lang, "digest.undated", { count: content.undated }));
  blocks.push(t(lang, "digest.footer"));
  return blocks.join("\n\n");
}

/** Whether a digest has anything to say (an empty one is not sent). */
export function digestIsEmpty(content: DigestContent): boolean {
  return (
    // A holiday's name alone is no reason to write; candle lighting someone asked for is.
    !content.candles &&
    content.today.length === 0 &&
    content.overdue.length === 0 &&
    content.undated === 0 &&
    content.sections.every((s) => s.lines.length === 0)
  );
}
