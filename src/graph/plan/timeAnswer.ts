/**
 * Questions about a time, asked and answered in code (D10): "5 in the morning or in the
 * afternoon?" with two buttons, "I understood 'tomorrow' but not 'at the usual time'", "that time
 * has passed". The answer is read with the same parser, together with the words already
 * understood, so the operation runs with no LLM call, on the fast path and the LLM path alike.
 */
import { offeredEventAt } from "./offerAnswer.js";
import { timeArgs, timeQuestionOf, type TimeQuestion } from "../../nlu/commands.js";
import type { CalendarOptions } from "../../nlu/holidays.js";
import { readTime, type ParsedTime } from "../../nlu/parseTime.js";
import { formatClock, instantToLocal } from "../../nlu/zonedTime.js";
import type { HITLResult, ResolverResult, TimeAnswerResume } from "../../types/index.js";
import { t } from "../../messages/index.js";
import { MemoError } from "../../utils/errors.js";

type Language = "he" | "en";

/** The question for a time named but not completely, in the user's language. */
function timeQuestionText(question: TimeQuestion, language: Language): string {
  const { reason, phrase, unread } = question.reading;
  switch (reason) {
    case "ambiguous_hour":
      return t(language, "askHalfOfDay", { phrase });
    case "past":
      // "now", and "at the same time" with no other day (now's own wall time).
      return /^(?:(?:right\s+)?(?:now|עכשיו|כעת)|(?:(?:at|by)\s+)?(?:the\s+)?same\s+time|ו?ב?אותה\s+ה?שעה)$/iu.test(
        phrase.trim(),
      )
        ? t(language, "askNotNow")
        : t(language, "askPast", { phrase });
    case "too_far":
      return t(language, "askTooFar");
    case "unsupported": {
      const words = phrase || unread.join(" ");
      return words ? t(language, "askRepeat", { phrase: words }) : t(language, "askRepeatAny");
    }
    default:
      if (unread.length === 0) return t(language, "askTimeClash", { phrase });
      return phrase
        ? t(language, "askTimeUnread", { phrase, unread: unread.join(", ") })
        : t(language, "askTimeUnreadAlone", { unread: unread.join(", ") });
  }
}

/** A clarify result for a command whose time is incomplete, answered later by resolveTimeAnswer. */
export function timeQuestionResult(
  stepId: string,
  functionName: string,
  args: Record<string, unknown>,
  question: TimeQuestion,
  language: Language,
): ResolverResult {
  const choices = question.choices;
  // A time that passed or lies too far is the problem itself: the answer replaces it whole.
  const replaced = question.reading.reason === "past" || question.reading.reason === "too_far";
  const resume: TimeAnswerResume = {
    kind: "time",
    functionName,
    args,
    understood: replaced ? "" : question.reading.phrase,
    ...(question.day && !replaced ? { day: question.day } : {}),
    ...(choices ? { choices: choices.map((c) => c.args), clocks: choices.map((c) => c.clock) } : {}),
  };
  return {
    stepId,
    type: "clarify",
    question: timeQuestionText(question, language),
    ...(choices
      ? {
          options: choices.map((c, i) =>
            t(language, i === 0 ? "choice.morning" : "choice.afternoon", { time: c.clock }),
          ),
        }
      : {}),
    resume,
  };
}

const MORNING = /^(?:1|morning|in the morning|am|a\.m\.?|בבוקר|בוקר|לפני הצהריים)$/iu;
const AFTERNOON =
  /^(?:2|afternoon|in the afternoon|evening|in the evening|pm|p\.m\.?|אחה"צ|אחה״צ|אחר הצהריים|אחרי הצהריים|בצהריים|בערב|ערב)$/iu;

const QUESTION_WORD =
  /^(?!(?:what|how)\s+about\b|מה\s+(?:עם|לגבי)\b)(?:when|what|what's|whats|where|who|why|how|which|is|are|do|does|did|can|could|will|would|should|מתי|מה|מהו|מהי|איזה|איזו|אילו|איך|למה|מדוע|מי|איפה|היכן|האם|כמה)(?![\p{L}'])/iu;

/**
 * Whether a reply to a time question asks something else instead ("when is Rosh Hashana?", "what's
 * the weather?"): a question word, a question mark, and no complete time in it ("5pm?" and "what
 * about 5?" are answers). Such a reply leaves the question; it is never read as its time.
 */
export function asksSomethingElse(text: string, nowMs: number): boolean {
  const trimmed = text.trim();
  if (!/[?？]$/u.test(trimmed)) return false;
  const words = trimmed.replace(/[.!?？]+$/u, "").trim();
  if (!QUESTION_WORD.test(words) || MORNING.test(words) || AFTERNOON.test(words)) return false;
  const reading = readTime(words, nowMs, "UTC");
  return !reading || reading.kind === "unclear";
}

/** A reminder verb a reply may open with and still be only a time ("remind me at 5pm instead"). */
const REMINDER_VERB =
  /^(?:(?:please|pls)\s+)?(?:remind\s+me|set\s+(?:a\s+|the\s+)?reminder|(?:בבקשה\s+)?(?:תזכיר|תזכירי|הזכר|הזכירי)\s+לי)(?![\p{L}])[\s,:]*/iu;

/** Words around a time that belong to an answer, not to a new request ("5pm instead", "make it 6"). */
const ANSWER_FILLER =
  /(?<![\p{L}])(?:instead|then|please|pls|actually|rather|ok|okay|make\s+it|no|במקום\s+זה|במקום|אז|בבקשה|דווקא|בעצם|לא)(?![\p{L}])/giu;

/**
 * Whether a reply to a time question is a request of its own instead of the answer: a whole command
 * of the no-model grammar, or a reminder verb or time words with words of their own beside them
 * ("remind me tomorrow at 5 to call Dana again", "מחר ב-5 להתקשר לבנק"). A reply made only of time
 * words, with a leading reminder verb or words like "instead" ("5pm", "tomorrow at 5", "remind me
 * at 5pm instead"), answers; words with no time and no command ("banana") are a bad answer, asked again.
 */
export function requestsSomethingElse(
  text: string,
  nowMs: number,
  isCommand: (text: string) => boolean,
): boolean {
  const words = text
    .trim()
    .replace(/[.!?？]+$/u, "")
    .trim();
  if (MORNING.test(words) || AFTERNOON.test(words)) return false;
  const verb = REMINDER_VERB.exec(words);
  const rest = verb ? words.slice(verb[0].length) : words;
  const reading = rest ? readTime(rest, nowMs, "UTC") : null;
  const leftover = (reading ? reading.text : rest)
    .replace(ANSWER_FILLER, " ")
    .replace(/[\s,.;:!?־-]+/gu, " ")
    .trim();
  // Only time words (and the verb or "instead"): the answer, even where the grammar reads a command.
  if ((reading || verb) && !leftover) return false;
  return isCommand(text) || verb !== null || reading !== null;
}

/** Answers that give no time before Memo stops asking (the question's own attempts are separate). */
const MAX_TIME_ANSWERS = 3;

/** The question could not be answered in MAX_TIME_ANSWERS replies: the turn ends, nothing stored. */
export class TimeQuestionAbandoned extends MemoError {
  constructor() {
    super("no time in the answers to a time question", { node: "resolver_router" });
  }
}

/** "HH:mm" of a complete reading's first time. */
function clockOf(reading: ParsedTime): string {
  const local = instantToLocal(reading.kind === "instant" ? reading.at : reading.firstAt, reading.timeZone);
  return formatClock(local.hour, local.minute);
}

/**
 * The operation once the user answered a time question (D10): the option tapped, "morning" /
 * "afternoon", a clock time equal to one of the options ("5pm" for 17:00), or a time in words
 * read with the words understood before ("tomorrow" + "7:45"), then on the day they named. The
 * answer alone counts only where nothing was understood before it (no day, no repeat). A reply
 * that still gives no complete time asks again (with new options when it is an hour again); after
 * MAX_TIME_ANSWERS replies without a time the question ends.
 */
export function resolveTimeAnswer(
  previous: ResolverResult & { resume: TimeAnswerResume },
  answers: HITLResult[],
  nowMs: number,
  timeZone: string,
  language: Language,
  /** The user's holiday schedule and Hebrew birthday ("on my Hebrew birthday" as the answer). */
  calendar: CalendarOptions = {},
): ResolverResult {
  const { resume } = previous;
  const answer = answers.at(-1);
  const done = (time: Record<string, unknown>): ResolverResult => {
    // An event asked its time (a document's offer, issue 37): the answer is its start.
    if (resume.functionName === "calendar.create") {
      const args = offeredEventAt(resume.args, time);
      if (!args) return { ...previous, question: t(language, "askTimeAgainOrCancel") };
      return { stepId: previous.stepId, type: "execute", functionName: resume.functionName, args };
    }
    return {
      stepId: previous.stepId,
      type: "execute",
      functionName: resume.functionName,
      args: { ...resume.args, ...time },
    };
  };
  if (!answer) return previous;
  const picked = typeof answer.value === "string" ? answer.value : answer.value[0];
  const option = /^opt(\d+)$/u.exec(picked ?? "");
  const chosen = option ? resume.choices?.[Number(option[1]) - 1] : undefined;
  if (chosen) return done(chosen);
  const raw = answer.raw.trim().replace(/[.!?]+$/u, "");
  const choices = resume.choices;
  if (choices?.length === 2) {
    if (MORNING.test(raw)) return done(choices[0]!);
    if (AFTERNOON.test(raw)) return done(choices[1]!);
  }
  const alone = readTime(raw, nowMs, timeZone, { calendar });
  const askAgain = (question: string, next?: TimeQuestion): ResolverResult => {
    if (answers.length >= MAX_TIME_ANSWERS) throw new TimeQuestionAbandoned();
    if (!next) return { ...previous, question };
    const again = timeQuestionResult(previous.stepId, resume.functionName, resume.args, next, language);
    // The words understood at first stay the base the next answer is read with.
    return {
      ...again,
      resume: {
        ...again.resume!,
        understood: resume.understood,
        ...(resume.day && !next.day ? { day: resume.day } : {}),
      },
    };
  };
  // Not a time at all ("banana", "ok"): asked again, never a date alone at 09:00.
  if (!alone) return askAgain(t(language, "askTimeAgainOrCancel"));
  // "5pm" for the options 05:00 / 17:00: the option whose clock it names.
  if (choices && choices.length > 0 && alone.kind !== "unclear") {
    const index = (resume.clocks ?? []).indexOf(clockOf(alone));
    if (index >= 0 && choices[index]) return done(choices[index]);
  }
  const candidates = [`${resume.understood} ${raw}`, resume.day ? `${resume.day} ${raw}` : null];
  for (const candidate of candidates) {
    if (!candidate) continue;
    const reading = readTime(candidate, nowMs, timeZone, { calendar });
    if (!reading) continue;
    if (reading.kind !== "unclear") return done(timeArgs(reading));
    // An hour again, or a time past: asked about, with the day kept.
    if (reading.reason !== "unread") return askAgain("", timeQuestionOf(reading, timeZone));
  }
  // The answer alone, where nothing else was understood (or it names its own day or repeat).
  const understoodNothing = !resume.day && !/\S/u.test(resume.understood);
  if (alone.kind !== "unclear" && (understoodNothing || namesItsOwnDay(alone))) return done(timeArgs(alone));
  if (alone.kind === "unclear") return askAgain("", timeQuestionOf(alone, timeZone));
  return askAgain(t(language, "askTimeAgainOrCancel"));
}

/** Whether an answer names a day or a repeat of its own ("Friday at 8", "every day at 17:00"). */
function namesItsOwnDay(reading: ParsedTime): boolean {
  if (reading.kind === "recurring") return true;
  return /\p{L}{3,}/u.test(
    reading.phrase.replace(
      /(?:am|pm|at|ב|בשעה|o'?clock|בבוקר|בערב|בצהריים|אחה"?צ|in the|morning|afternoon|evening)/giu,
      "",
    ),
  );
}
