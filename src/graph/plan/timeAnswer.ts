/**
 * Questions about a time, asked and answered in code (D10): "5 in the morning or in the
 * afternoon?" with two buttons, "I understood 'tomorrow' but not 'at the usual time'", "that time
 * has passed". The answer is read with the same parser, together with the words already
 * understood, so the operation runs with no LLM call, on the fast path and the LLM path alike.
 */
import { timeArgs, type TimeQuestion } from "../../nlu/commands.js";
import { readTime } from "../../nlu/parseTime.js";
import type { HITLResult, ResolverResult, TimeAnswerResume } from "../../types/index.js";
import { t } from "../../utils/userMessages.js";

type Language = "he" | "en";

/** The question for a time named but not completely, in the user's language. */
export function timeQuestionText(question: TimeQuestion, language: Language): string {
  const { reason, phrase, unread } = question.reading;
  switch (reason) {
    case "ambiguous_hour":
      return t(language, "askHalfOfDay", { phrase });
    case "past":
      return /^(?:right\s+)?(?:now|עכשיו|כעת)$/iu.test(phrase.trim())
        ? t(language, "askNotNow")
        : t(language, "askPast", { phrase });
    case "too_far":
      return t(language, "askTooFar");
    case "unsupported":
      return t(language, "askRepeat", { phrase: phrase || unread.join(" ") });
    default:
      return phrase
        ? t(language, "askTimeUnread", { phrase, unread: unread.join(", ") || phrase })
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
  const resume: TimeAnswerResume = {
    kind: "time",
    functionName,
    args,
    understood: question.reading.phrase,
    ...(question.day ? { day: question.day } : {}),
    ...(choices ? { choices: choices.map((c) => c.args) } : {}),
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

/**
 * The operation once the user answered a time question: the option tapped, "morning" /
 * "afternoon", or a time in words read with what was understood before ("tomorrow" + "7:45"), else
 * the answer alone. A reply that still gives no complete time asks again.
 */
export function resolveTimeAnswer(
  previous: ResolverResult & { resume: TimeAnswerResume },
  answers: HITLResult[],
  nowMs: number,
  timeZone: string,
  language: Language,
): ResolverResult {
  const { resume } = previous;
  const answer = answers.at(-1);
  const done = (time: Record<string, unknown>): ResolverResult => ({
    stepId: previous.stepId,
    type: "execute",
    functionName: resume.functionName,
    args: { ...resume.args, ...time },
  });
  if (!answer) return previous;
  const picked = typeof answer.value === "string" ? answer.value : answer.value[0];
  const option = /^opt(\d+)$/u.exec(picked ?? "");
  const chosen = option ? resume.choices?.[Number(option[1]) - 1] : undefined;
  if (chosen) return done(chosen);
  const raw = answer.raw.trim().replace(/[.!?]+$/u, "");
  if (resume.choices?.length === 2) {
    if (MORNING.test(raw)) return done(resume.choices[0]!);
    if (AFTERNOON.test(raw)) return done(resume.choices[1]!);
  }
  for (const candidate of [`${resume.understood} ${raw}`, resume.day ? `${resume.day} ${raw}` : null, raw]) {
    if (!candidate) continue;
    const reading = readTime(candidate, nowMs, timeZone);
    if (reading && reading.kind !== "unclear") return done(timeArgs(reading));
  }
  const reading = readTime(raw, nowMs, timeZone);
  const question =
    reading?.kind === "unclear"
      ? timeQuestionText({ reading }, language)
      : t(language, "askTimeUnreadAlone", { unread: raw });
  return { ...previous, question };
}
