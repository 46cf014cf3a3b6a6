/**
 * Episodes (spec 004 Layer 4): the moments of a conversation worth telling again, taken from what
 * the user said: decisions, problems solved, breakthroughs, issues identified, tasks completed and
 * pivots. By English and Hebrew patterns, or by the model in the same "memory" call as facts (its
 * item schema is here, composed into `factExtractionSchema`). What the user said is data (D14):
 * it becomes an episode's text, never an instruction. No I/O here.
 */
import { z } from "zod";
import type { HistoryMessage } from "../../db/repositories/conversationHistory.js";
import { EPISODE_KINDS, type EpisodeKind, type NewEpisode } from "../../db/repositories/episodeRepository.js";
import { isMemoryCommand, isNoteCommand, statementsOf, withoutPoints } from "../../utils/memoryText.js";

/** An episode found in one user message (or a task completed in a turn), to store. */
export interface ExtractedEpisode extends Omit<NewEpisode, "operationKey"> {
  /** The conversation message it came from, null when none (then `operationKey` names it). */
  sourceMessageId: number | null;
  /** Set when it came from no message: what makes its store idempotent. */
  operationKey?: string;
}

/** Significance and valence a kind has when nothing says otherwise. */
const DEFAULTS: Readonly<Record<EpisodeKind, { significance: number; valence: number }>> = {
  decision: { significance: 0.7, valence: 0.1 },
  problem_solved: { significance: 0.6, valence: 0.5 },
  breakthrough: { significance: 0.8, valence: 0.8 },
  issue_identified: { significance: 0.5, valence: -0.4 },
  task_completed: { significance: 0.5, valence: 0.4 },
  pivot: { significance: 0.7, valence: 0 },
};
/** "finally", "סוף סוף": the moment mattered more, and felt better. */
const FINALLY = /\bfinally\b|סוף[\s-]?סוף|סופסוף/iu;
const TITLE_MAX_CHARS = 200;
const SUMMARY_MAX_CHARS = 300;

// ---- rules ----

interface Found {
  kind: EpisodeKind;
  title: string;
  context?: string;
  outcome?: string;
  /** People named with the user ("Dana and I decided…"). */
  with?: string;
}

type Rule = (sentence: string) => Found | null;

/** Who says it, in English: "I", "we", or "Dana and I" (the name kept). */
const SUBJECT = String.raw`(?:i|we|([\p{L}'-]+(?:\s+[\p{L}'-]+)?)\s+and\s+i)`;
const ADVERBS = String.raw`(?:(?:have|'ve|just|finally|already|also|officially|eventually|together|now)\s+)*`;
const en = (pattern: string) => new RegExp(pattern, "iu");

/** Instead of Eilat, we'll go to the Galilee. */
const insteadOf: Rule = (s) => {
  const m = /^instead of\s+(.+?),?\s+((?:we|i|let'?s|we'?ll|i'?ll|we'?re|i'?m)\b.+)$/iu.exec(s);
  return m ? { kind: "pivot", title: m[2]!, context: `instead of ${m[1]}` } : null;
};

const ENGLISH_RULES: Rule[] = [
  // We decided to go to Eilat for the trip; Dana and I agreed on the blue sofa.
  (s) => {
    const m = en(
      `^${SUBJECT}\\s+${ADVERBS}(?:decided|agreed|settled|chose|went with|opted for|made the (?:call|decision))\\s+(?:(?:to|that|on|upon)\\s+)?(.+)$`,
    ).exec(s);
    return m ? { kind: "decision", title: m[2]!, with: m[1] } : null;
  },
  // Decision: X; it's decided: X.
  (s) => {
    const m =
      /^(?:(?:the|our|my)\s+)?(?:final\s+)?decision(?:\s+is)?\s*[:,-]\s*(.+)$|^it'?s decided\s*[:,-]\s*(.+)$/iu.exec(
        s,
      );
    return m ? { kind: "decision", title: (m[1] ?? m[2])! } : null;
  },
  insteadOf,
  // We're going to Haifa instead of Eilat.
  (s) => {
    const m = /^((?:we|i)\b.+?)\s+instead of\s+(.+)$/iu.exec(s);
    return m ? { kind: "pivot", title: m[1]!, context: `instead of ${m[2]}` } : null;
  },
  // We changed plans: …; change of plans: …; we switched to the train.
  (s) => {
    const m =
      en(
        `^(?:${SUBJECT}\\s+)?${ADVERBS}(?:changed (?:our |my |the )?plans?|switched(?: plans)?|pivoted)\\s*(?:[:,-]\\s*|\\s+to\\s+|\\s+)?(.*)$`,
      ).exec(s) ?? /^(?:change of plans?|plans? changed|new plan)\s*[:,-]?\s*()(.*)$/iu.exec(s);
    if (!m) return null;
    const rest = m[2]!.trim();
    const instead = rest === "" ? null : insteadOf(rest);
    if (instead) return instead;
    return { kind: "pivot", title: rest === "" ? s : rest, with: m[1] };
  },
  // (We) finally fixed the leak; I solved the printer problem.
  (s) => {
    const m = en(
      `^(?:${SUBJECT}\\s+)?${ADVERBS}(?:fixed|solved|resolved|sorted out|figured out|repaired|got rid of|unclogged)\\s+(.+)$`,
    ).exec(s);
    return m ? { kind: "problem_solved", title: m[2]!, with: m[1] } : null;
  },
  // The leak is finally fixed.
  (s) => {
    const m =
      /^((?:the|my|our)\s+.+?)\s+(?:is|was|got|has been)\s+(?:finally\s+)?(?:fixed|solved|resolved|repaired|sorted)$/iu.exec(
        s,
      );
    return m ? { kind: "problem_solved", title: m[1]! } : null;
  },
  // I got the job; we got accepted; I passed the exam.
  (s) => {
    const m = en(
      `^${SUBJECT}\\s+${ADVERBS}((?:got|landed) the (?:job|offer|apartment|flat|house|contract|grant|visa|deal|loan|promotion|scholarship|position)|got (?:accepted|promoted|hired|approved|engaged|the green light)|passed|won|cracked|made a breakthrough|finally understand)\\b\\s*(.*)$`,
    ).exec(s);
    return m ? { kind: "breakthrough", title: `${m[2]} ${m[3]}`, with: m[1] } : null;
  },
  // There's a problem with the boiler; I noticed a leak under the sink.
  (s) => {
    const there =
      /^there(?:'s| is| was)\s+(?:a|an|some)\s+((?:[\p{L}-]+\s+)?(?:problem|issue|bug|leak|glitch|fault|crack|mistake|error)\s+(?:with|in|on|at|under)\s+.+)$/iu.exec(
        s,
      );
    if (there) return { kind: "issue_identified", title: there[1]! };
    const noticed =
      /^(?:i|we)\s+(?:just\s+)?(?:found|noticed|discovered|spotted)\s+((?:a|an)\s+(?:[\p{L}-]+\s+)?(?:problem|issue|bug|leak|glitch|fault|crack|mistake|error)\b.*)$/iu.exec(
        s,
      );
    return noticed ? { kind: "issue_identified", title: noticed[1]! } : null;
  },
  // The heater is broken; my laptop stopped working.
  (s) => {
    const m =
      /^((?:the|my|our)\s+(?:[\p{L}\p{N}'-]+\s+){0,3}?[\p{L}\p{N}'-]+)\s+(?:is broken|are broken|broke|broke down|stopped working|is leaking|isn'?t working|is not working|doesn'?t work|won'?t start|keeps crashing)$/iu.exec(
        s,
      );
    return m ? { kind: "issue_identified", title: s } : null;
  },
  // I finished the report; we submitted the application; I'm done with the presentation.
  (s) => {
    const m =
      en(
        `^${SUBJECT}\\s+${ADVERBS}(?:finished|completed|submitted|delivered|launched|shipped|wrapped up|handed in)\\s+(.+)$`,
      ).exec(s) ?? /^(?:i'?m|i am|we'?re|we are)\s+(?:finally\s+)?()done with\s+(.+)$/iu.exec(s);
    return m ? { kind: "task_completed", title: m[2]!, with: m[1] || undefined } : null;
  },
];

const HE_SUBJECT = String.raw`(?:(?:אני|אנחנו|(\S+)\s+ואני)\s+)?`;
const HE_ADVERBS = String.raw`(?:(?:כבר|סוף[\s-]?סוף|סופסוף|בסוף|רשמית|גם|היום|עכשיו)\s+)*`;
const he = (pattern: string) => new RegExp(pattern, "u");
/** "את" before a definite object says nothing: "תיקנתי את הנזילה" → "הנזילה". */
const withoutEt = (text: string) => text.replace(/^את\s+/u, "");

/** במקום אילת, ניסע לגליל; במקום אילת ניסע לגליל (the plan: the first verb of "we" or "I" future). */
const bimkom: Rule = (s) => {
  const m = /^במקום\s+(.+?)(?:\s*,\s*|\s+)((?:אנחנו\s+|אני\s+)?[נא]\S+(?:\s+.+)?)$/u.exec(s);
  return m ? { kind: "pivot", title: m[2]!, context: `במקום ${m[1]}` } : null;
};

const HEBREW_RULES: Rule[] = [
  // החלטנו לנסוע לאילת לטיול; דנה ואני סיכמנו על הספה הכחולה.
  (s) => {
    const m = he(
      `^${HE_SUBJECT}${HE_ADVERBS}(?:החלטתי|החלטנו|סיכמנו|הסכמנו|בחרתי|בחרנו|הלכנו על|הלכתי על)\\s+(?:על\\s+)?(.+)$`,
    ).exec(s);
    return m ? { kind: "decision", title: withoutEt(m[2]!), with: m[1] } : null;
  },
  // ההחלטה: X; החלטה סופית: X.
  (s) => {
    const m = /^(?:ה)?החלטה(?:\s+(?:ה)?סופית)?\s*[:-]\s*(.+)$/u.exec(s);
    return m ? { kind: "decision", title: m[1]! } : null;
  },
  bimkom,
  // שינינו תוכניות: …; שינוי תוכניות: …
  (s) => {
    const m =
      he(
        `^${HE_SUBJECT}${HE_ADVERBS}(?:שינינו|שיניתי)\\s+(?:את\\s+)?(?:ה)?(?:תוכניות|תכניות|תוכנית|תכנית)\\s*(?:[:,-]\\s*)?(.*)$`,
      ).exec(s) ?? /^()(?:שינוי|שינוי ב)(?:ה)?(?:תוכניות|תכניות|תוכנית|תכנית)\s*[:,-]?\s*(.*)$/u.exec(s);
    if (!m) return null;
    const rest = m[2]!.trim();
    const instead = rest === "" ? null : bimkom(rest);
    if (instead) return instead;
    return { kind: "pivot", title: rest === "" ? s : rest, with: m[1] || undefined };
  },
  // סוף סוף תיקנתי את הנזילה; פתרנו את הבעיה עם המדפסת.
  (s) => {
    const m = he(
      `^${HE_SUBJECT}${HE_ADVERBS}(?:תיקנתי|תיקנו|תקנתי|פתרתי|פתרנו|סידרתי|סידרנו|הצלחתי לתקן|הצלחנו לתקן)\\s+(.+)$`,
    ).exec(s);
    return m ? { kind: "problem_solved", title: withoutEt(m[2]!), with: m[1] } : null;
  },
  // הנזילה תוקנה; הבעיה נפתרה סוף סוף.
  (s) => {
    const m =
      /^(\S+(?:\s+\S+){0,3}?)\s+(?:סוף[\s-]?סוף\s+)?(?:תוקן|תוקנה|תוקנו|נפתר|נפתרה|נפתרו|הסתדר|הסתדרה)(?:\s+סוף[\s-]?סוף)?$/u.exec(
        s,
      );
    return m ? { kind: "problem_solved", title: m[1]! } : null;
  },
  // קיבלתי את העבודה; התקבלתי לאוניברסיטה; עברתי את המבחן.
  (s) => {
    const m = he(
      `^${HE_SUBJECT}${HE_ADVERBS}((?:קיבלתי|קיבלנו) את ה(?:עבודה|משרה|דירה|הצעה|מלגה|ויזה|אישור|קידום)\\S*|התקבלתי|התקבלנו|עברתי את|עברנו את|זכיתי|זכינו|הבנתי סוף סוף)(?:\\s+(.+))?$`,
    ).exec(s);
    return m ? { kind: "breakthrough", title: `${m[2]} ${m[3] ?? ""}`, with: m[1] } : null;
  },
  // יש בעיה עם הדוד; יש לנו נזילה במטבח.
  (s) => {
    const m = /^יש\s+(?:לנו\s+|לי\s+)?((?:בעיה|תקלה|נזילה|באג|סדק)\s+.+)$/u.exec(s);
    return m ? { kind: "issue_identified", title: m[1]! } : null;
  },
  // הדוד התקלקל; המחשב לא עובד.
  (s) => {
    const m =
      /^(\S+(?:\s+\S+){0,3}?)\s+(?:התקלקל|התקלקלה|התקלקלו|נשבר|נשברה|נשברו|לא עובד|לא עובדת|לא עובדים|דולף|דולפת|מקולקל|מקולקלת)$/u.exec(
        s,
      );
    return m ? { kind: "issue_identified", title: s } : null;
  },
  // סיימתי את הדוח; הגשנו את הבקשה.
  (s) => {
    const m = he(`^${HE_SUBJECT}${HE_ADVERBS}(?:סיימתי|סיימנו|הגשתי|הגשנו|השלמתי|השלמנו)\\s+(.+)$`).exec(s);
    return m ? { kind: "task_completed", title: withoutEt(m[2]!), with: m[1] } : null;
  },
];

/** Lead-ins that open a sentence without changing it ("so", "update:", "אז", "בקיצור"). */
const LEAD_IN =
  /^(?:(?:so|well|ok|okay|update|news|btw|by the way|fyi|oh|and|also|anyway|good news|great news)\s*[,:!-]?\s+)*|^(?:(?:אז|טוב|עדכון|בקיצור|אגב|חדשות טובות|ו?בנוסף)\s*[,:!-]?\s+)*/iu;

/** The sentence without niqqud, lead-ins and closing punctuation. */
function bare(sentence: string): string {
  return withoutPoints(sentence)
    .trim()
    .replace(LEAD_IN, "")
    .replace(/[\s.!…]+$/u, "")
    .trim();
}

/** Trailing punctuation off, spaces collapsed, cut, first letter upper case. */
function tidy(text: string, max: number): string {
  const plain = text
    .replace(/\s+/g, " ")
    .replace(/[\s.!,;:…]+$/u, "")
    .trim();
  const cut = plain.length > max ? `${plain.slice(0, max - 1)}…` : plain;
  return cut.charAt(0).toUpperCase() + cut.slice(1);
}

/** The episode a found moment makes, from this message. */
function episodeOf(found: Found, sentence: string, message: HistoryMessage): ExtractedEpisode | null {
  const title = tidy(found.title, TITLE_MAX_CHARS);
  if (title.replace(/[^\p{L}\p{N}]/gu, "").length < 2) return null;
  const base = DEFAULTS[found.kind];
  const finally_ = FINALLY.test(sentence);
  return {
    kind: found.kind,
    title,
    summary: tidy(sentence, SUMMARY_MAX_CHARS),
    context: found.context ? tidy(found.context, SUMMARY_MAX_CHARS) : "",
    outcome: found.outcome ?? null,
    participants: ["user", ...(found.with ? [found.with] : [])],
    emotionalValence: Math.min(1, base.valence + (finally_ ? 0.2 : 0)),
    significance: Math.min(1, base.significance + (finally_ ? 0.1 : 0)),
    turnStart: message.id,
    turnEnd: message.id,
    occurredAt: message.createdAt,
    sourceMessageId: message.id,
  };
}

/**
 * The episodes the patterns find in one user message: at most one per sentence; none from
 * questions, requests to Memo, notes, requests about memory or small talk.
 */
export function extractEpisodesByRules(message: HistoryMessage): ExtractedEpisode[] {
  if (message.role !== "user" || isMemoryCommand(message.content) || isNoteCommand(message.content))
    return [];
  const found: ExtractedEpisode[] = [];
  for (const sentence of statementsOf(message.content, bare)) {
    const rules = /[\u05d0-\u05ea]/u.test(sentence) ? HEBREW_RULES : ENGLISH_RULES;
    for (const rule of rules) {
      const result = rule(sentence);
      const episode = result && episodeOf(result, sentence, message);
      if (episode) {
        found.push(episode);
        break;
      }
    }
  }
  return found;
}

/** A task the user completed in a turn, as a `task_completed` episode (from `memory_update`'s recent tasks). */
export interface CompletedTask {
  /** The task's id. */
  id: string;
  text: string;
  /** When it was completed (epoch ms). */
  at: number;
}

/**
 * The episode of a completed task: from the user's message of that turn when the round knows it
 * (`sourceMessageId`), else from none; once per task and completion.
 */
export function completedTaskEpisode(task: CompletedTask, sourceMessageId: number | null): ExtractedEpisode {
  return {
    kind: "task_completed",
    title: tidy(task.text, TITLE_MAX_CHARS),
    summary: "",
    participants: ["user"],
    emotionalValence: DEFAULTS.task_completed.valence,
    significance: DEFAULTS.task_completed.significance,
    turnStart: sourceMessageId,
    turnEnd: sourceMessageId,
    occurredAt: task.at,
    sourceMessageId,
    operationKey: `task:${task.id}:done:${task.at}`,
  };
}

// ---- LLM ----

/** One episode in the "memory" call's answer, beside the facts (composed into `factExtractionSchema`). */
const episodeItemSchema = z.object({
  message: z.number().int().describe("The number of the message the episode comes from"),
  kind: z.enum(EPISODE_KINDS),
  title: z
    .string()
    .describe("What happened, a few words in the user's language, e.g. 'Go to Eilat for the trip'"),
  summary: z.string().describe("One sentence in the user's language: what happened, and why if they said"),
  outcome: z.string().describe("What it led to, or '' when they did not say"),
  participants: z.array(z.string()).describe("The people who took part with the user, by name; [] when none"),
  emotionalValence: z.number().describe("-1 (very bad) to 1 (very good), 0 neutral"),
  significance: z
    .number()
    .describe("0 to 1: breakthrough 0.8, decision 0.7, pivot 0.7, problem solved 0.6, issue 0.5, task 0.5"),
});

/** The `episodes` field of the "memory" call's answer; absent reads as none. */
export const episodesField = z
  .array(episodeItemSchema)
  .default([])
  .describe(
    "Key moments the user reports: decisions, problems solved, breakthroughs, issues, tasks completed, pivots",
  );

/** The model's episodes: numbers mapped back to messages, unknown numbers and empty titles dropped. */
export function episodesFromAnswer(
  items: readonly z.infer<typeof episodeItemSchema>[],
  messages: readonly HistoryMessage[],
): ExtractedEpisode[] {
  const found: ExtractedEpisode[] = [];
  for (const item of items) {
    const source = messages[item.message - 1];
    const title = tidy(item.title, TITLE_MAX_CHARS);
    if (!source || title.replace(/[^\p{L}\p{N}]/gu, "").length < 2) continue;
    const clamp = (n: number, min: number, max: number, fallback: number) =>
      Number.isFinite(n) ? Math.min(max, Math.max(min, n)) : fallback;
    found.push({
      kind: item.kind,
      title,
      summary: tidy(item.summary, SUMMARY_MAX_CHARS),
      context: "",
      outcome: item.outcome.trim() === "" ? null : tidy(item.outcome, SUMMARY_MAX_CHARS),
      participants: [
        "user",
        ...item.participants.map((p) => p.trim()).filter((p) => p !== "" && p !== "user"),
      ],
      emotionalValence: clamp(item.emotionalValence, -1, 1, DEFAULTS[item.kind].valence),
      significance: clamp(item.significance, 0, 1, DEFAULTS[item.kind].significance),
      turnStart: source.id,
      turnEnd: source.id,
      occurredAt: source.createdAt,
      sourceMessageId: source.id,
    });
  }
  return found;
}

// ---- recall ----
