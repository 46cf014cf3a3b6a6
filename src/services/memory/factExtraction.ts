/**
 * Lasting facts about the user, taken from what they said (spec 004 "Fact Extraction"): by the LLM
 * when one is configured, otherwise by English and Hebrew patterns. No I/O here.
 */
import { recognizeCommand } from "../../nlu/commands.js";
import { z } from "zod";
import type { HistoryMessage } from "../../db/repositories/conversationHistory.js";
import { DEFAULT_IMPORTANCE, MEMORY_TYPES, type MemoryType } from "../../db/repositories/memoryRepository.js";
import type { LLMMessage } from "../../types/llm.js";
import { FACTS_PROMPT } from "../../prompts/factExtractionPrompt.js";
import { MEMORY_MESSAGE_MAX_CHARS, capText } from "./limits.js";
import { readPastPeriod, withoutPeriod, type PastPrecision } from "../../nlu/pastTime.js";
import { personKey } from "./retrieval.js";
import { episodesField } from "./episodes.js";
import {
  isCommand,
  isMemoryCommand,
  isNoteCommand,
  statementsOf,
  withoutPoints,
} from "../../utils/memoryText.js";

/** A fact found in one message. */
/**
 * Credentials are never remembered by themselves: a fact is shown to the planner (and so sent to
 * the model) on every turn. The user keeps them as notes, found only when asked for.
 */
const SECRET =
  /\b(?:password|passcode|passwd|pin|pin code|cvv|cvc|otp|api key|secret|card number|account number|ssn|social security)\b|סיסמ|קוד (?:סודי|גישה|כניסה|אישי)|מספר (?:כרטיס|חשבון)|(?<![\p{L}])(?:פין|קוד)(?![\p{L}])/iu;

export interface ExtractedFact extends FactAbout {
  type: MemoryType;
  /** Third person where the language allows ("Prefers morning meetings", "מעדיף פגישות בבוקר"). */
  content: string;
  /** 0..1. */
  importance: number;
  /** The conversation message it came from. */
  sourceMessageId: number;
  /** When it became true, when the user said so in words read whole ("last week"); else when said. */
  validFrom?: number;
  precision?: PastPrecision;
  /** Ids of stored facts the extraction model said it replaces. */
  replaces?: string[];
}

/** What a fact is about, when known: two facts close each other only when subject and attribute match. */
interface FactAbout {
  /** Whom it is about, folded: "user", "sister", "dana", "אחות". */
  subject?: string | null;
  /** What about them: "residence", "workplace", "name", "birthday", "diet", "favorite color". */
  attribute?: string | null;
  /** The people it speaks of, folded. */
  people?: string[];
}

/** A fact's content is cut at this many characters. */
const CONTENT_MAX_CHARS = 200;

/**
 * Whether facts may come from this message: the user's, and neither a request about Memo's memory
 * itself nor a note command ("note: my bank PIN is 4412" is the second brain's note, not a fact
 * shown to the planner every turn).
 */
function isExtractable(message: HistoryMessage): boolean {
  return (
    message.role === "user" &&
    !isMemoryCommand(message.content) &&
    !isNoteCommand(message.content) &&
    // Credentials go to the model only when the user asks for them (as notes), never every turn.
    !SECRET.test(message.content)
  );
}

/** The user messages facts may come from (see `isExtractable`). */
export function extractable(messages: readonly HistoryMessage[]): HistoryMessage[] {
  return messages.filter(isExtractable);
}

// ---- rules ----

/** Lead-ins that introduce a statement without changing it ("remember that…", "תזכור ש…"). */
const EN_LEAD_IN =
  /^(?:(?:and|but|also|oh|well|actually|btw|by the way|fyi|so),?\s+)*(?:(?:please\s+)?(?:remember|note|keep in mind|know|just so you know)(?:\s+that)?[,:]?\s+|for the record[,:]?\s+)?/i;
const HE_LEAD_IN =
  /^(?:(?:ו?אגב|לידיעתך|רק שתדע|רק שתדעי|בקיצור),?\s+)*(?:(?:תזכור|תזכרי|תרשום|תרשמי|חשוב לי שתדע|חשוב לי שתדעי)\s+(?:ש)?)?/u;

type Shaped = Pick<ExtractedFact, "type" | "content" | "subject" | "attribute" | "people">;
type Rule = (sentence: string) => Shaped | Shaped[] | null;

const THIRD_PERSON: Record<string, string> = {
  prefer: "Prefers",
  like: "Likes",
  love: "Loves",
  hate: "Hates",
  dislike: "Dislikes",
  enjoy: "Enjoys",
  adore: "Adores",
  want: "Wants",
  need: "Needs",
  "can't stand": "Can't stand",
  "cannot stand": "Can't stand",
};

const RELATIONS_EN = new Set(
  [
    ...["wife", "husband", "partner", "girlfriend", "boyfriend", "son", "daughter", "kid", "kids", "child"],
    ...["children", "mother", "mom", "mum", "father", "dad", "brother", "sister", "boss", "manager"],
    ...[
      "friend",
      "best friend",
      "doctor",
      "dentist",
      "assistant",
      "dog",
      "cat",
      "grandmother",
      "grandfather",
    ],
    ...["grandma", "grandpa", "aunt", "uncle", "cousin", "colleague", "lawyer", "accountant", "therapist"],
  ].map((w) => w.toLowerCase()),
);
const RELATIONS_HE = new Set(
  [
    ...["אישה", "אשה", "בעל", "בן", "בת", "בן זוג", "בת זוג", "אמא", "אבא", "אח", "אחות", "בוס", "מנהל"],
    ...["מנהלת", "חבר", "חברה", "רופא", "רופאה", "רופא השיניים", "שותף", "שותפה", "ילדים", "כלב", "חתול"],
    ...["סבא", "סבתא", "דוד", "דודה", "עורך הדין", "רואה החשבון", "מטפל", "מטפלת"],
  ].map((w) => w),
);

/** Trailing punctuation and spaces off, inner spaces collapsed. */
function tidy(text: string): string {
  return text
    .replace(/\s+/g, " ")
    .replace(/[\s.!,;:…]+$/u, "")
    .trim();
}

function fact(type: MemoryType, content: string, about: FactAbout = {}): Shaped | null {
  const text = tidy(content);
  if (text.replace(/[^\p{L}\p{N}]/gu, "").length < 3) return null;
  const cut = text.length > CONTENT_MAX_CHARS ? `${text.slice(0, CONTENT_MAX_CHARS - 1)}…` : text;
  const subject = about.subject ? personKey(about.subject) : null;
  const attribute = about.attribute ? foldAttribute(about.attribute) : null;
  const people = [...new Set((about.people ?? []).map(personKey).filter((p) => p !== ""))];
  return {
    type,
    content: cut.charAt(0).toUpperCase() + cut.slice(1),
    ...(subject && { subject }),
    ...(attribute && { attribute }),
    ...(people.length > 0 && { people }),
  };
}

/** An attribute as stored: folded, at most 100 characters. */
function foldAttribute(attribute: string): string {
  return personKey(attribute).slice(0, 100);
}

/** About the user themself. */
const ofUser = (attribute: string | null): FactAbout => ({ subject: "user", attribute });

/** An object that is a request in disguise ("I need you to…", "I want to add a task"). */
function isRequestObject(object: string): boolean {
  return /^(?:you|u|a reminder|reminders?|memo|me to)\b/i.test(object) || isCommand(object);
}

const ENGLISH_RULES: Rule[] = [
  // My favorite X is Y.
  (s) => {
    const m = /^my\s+(?:favou?rite|preferred)\s+(.+?)\s+(?:is|are)\s+(.+)$/i.exec(s);
    return m ? fact("preference", `Favorite ${m[1]} is ${m[2]}`, ofUser(`favorite ${m[1]}`)) : null;
  },
  // I (really) prefer / like / love / hate … X; I don't like X.
  (s) => {
    const m =
      /^i\s+(?:(?:really|usually|always|generally|definitely|much|truly|absolutely|also)\s+)*(don'?t\s+|do\s+not\s+)?(prefer|like|love|hate|dislike|enjoy|adore|can'?t stand|cannot stand|want|need)s?\s+(.+)$/i.exec(
        s,
      );
    if (!m) return null;
    const verb = m[2]!.toLowerCase().replace("cant", "can't");
    const object = m[3]!;
    if ((verb === "want" || verb === "need") && (/^to\b/i.test(object) || isRequestObject(object)))
      return null;
    if (/^(?:it|that|this|them)\b/i.test(object)) return null;
    const negated = m[1] !== undefined;
    const said = negated ? `Doesn't ${verb}` : (THIRD_PERSON[verb] ?? verb);
    return fact("preference", `${said} ${object}`);
  },
  // I decided / chose / went with / settled on X.
  (s) => {
    const m =
      /^(?:i|we)\s+(?:(?:have|'ve|just|finally|already|also)\s+)*(decided|chose|picked|selected|went with|settled on|opted for)\s+(.+)$/i.exec(
        s.replace(/^(i|we)'ve\s+/i, "$1 have "),
      );
    if (!m) return null;
    const verb = m[1]!.toLowerCase();
    const said =
      verb === "decided"
        ? "Decided"
        : verb === "went with"
          ? "Went with"
          : verb === "settled on"
            ? "Settled on"
            : verb === "opted for"
              ? "Opted for"
              : "Chose";
    return fact("decision", `${said} ${m[2]}`);
  },
  // I'm allergic to X.
  (s) => {
    const m = /^i(?:'m|\s+am)\s+(?:(?:very|severely|badly|also)\s+)*allergic\s+to\s+(.+)$/i.exec(s);
    return m ? fact("constraint", `Allergic to ${m[1]}`) : null;
  },
  // I'm vegetarian / vegan / kosher …; I keep kosher / Shabbat.
  (s) => {
    const m =
      /^i(?:'m|\s+am)\s+(?:a\s+)?(vegetarian|vegan|kosher|gluten[- ]free|lactose[- ]intolerant|diabetic|pregnant|celiac|coeliac|sober)\b(.*)$/i.exec(
        s,
      );
    if (m)
      return fact(
        "constraint",
        `Is ${m[1]}${m[2]}`,
        ofUser(/^(?:vegetarian|vegan)$/i.test(m[1]!) ? "diet" : null),
      );
    const keep = /^i\s+keep\s+(kosher|shabbat|shabbos|sabbath|halal)\b(.*)$/i.exec(s);
    return keep ? fact("constraint", `Keeps ${keep[1]}${keep[2]}`) : null;
  },
  // I must (not) / can't / never / don't eat X.
  (s) => {
    const m =
      /^i\s+(must\s+not|mustn'?t|must|can'?t|cannot|can\s+not|never|don'?t\s+(?:eat|drink|drive|fly|work|travel)|do\s+not\s+(?:eat|drink|drive|fly|work|travel))\s+(.+)$/i.exec(
        s,
      );
    if (!m || isRequestObject(m[2]!)) return null;
    const said = m[1]!
      .toLowerCase()
      .replace(/^must\s+not$|^mustn'?t$/, "Must not")
      .replace(/^must$/, "Must")
      .replace(/^can'?t$|^cannot$|^can\s+not$/, "Can't")
      .replace(/^never$/, "Never")
      .replace(/^don'?t\s+|^do\s+not\s+/, "Doesn't ");
    return fact("constraint", `${said} ${m[2]}`);
  },
  // My goal / aim / plan is (to) X.
  (s) => {
    const m =
      /^my\s+(?:main\s+|big\s+)?(?:goal|aim|objective|target|dream|plan)\s+(?:for\s+.+?\s+)?is\s+(to\s+)?(.+)$/i.exec(
        s,
      );
    if (!m) return null;
    return fact("goal", m[1] ? `Aims to ${m[2]}` : `Goal: ${m[2]}`);
  },
  // I plan / aim / intend / hope to X.
  (s) => {
    const m =
      /^i(?:'m|\s+am)?\s+(?:(?:also|really)\s+)*(plan|planning|aim|aiming|intend|intending|hope|hoping)\s+to\s+(.+)$/i.exec(
        s,
      );
    if (!m || isRequestObject(m[2]!)) return null;
    const root = m[1]!.toLowerCase().replace(/ning$|ing$/, "");
    const said =
      { plan: "Plans", aim: "Aims", intend: "Intends", hop: "Hopes", hope: "Hopes" }[root] ?? "Plans";
    return fact("goal", `${said} to ${m[2]}`);
  },
  // I work at / for / as X; I live in X; I'm from X; I moved to X.
  (s) => {
    const work = /^i\s+(?:(?:currently|now|also)\s+)*work\s+(at|for|as|in)\s+(.+)$/i.exec(s);
    if (work)
      return fact(
        "fact",
        `Works ${work[1]!.toLowerCase()} ${work[2]}`,
        ofUser(work[1]!.toLowerCase() === "as" ? "job" : "workplace"),
      );
    const live = /^(?:i|we)\s+(?:(?:currently|now|also)\s+)*live\s+(in|at|near|on)\s+(.+)$/i.exec(s);
    if (live) return fact("fact", `Lives ${live[1]!.toLowerCase()} ${live[2]}`, ofUser("residence"));
    const from = /^i(?:'m|\s+am)\s+(?:originally\s+)?from\s+(.+)$/i.exec(s);
    if (from) return fact("fact", `Is from ${from[1]}`, ofUser("origin"));
    // "I moved to Haifa" is where the user lives now, from then on (its time, if said, is read apart).
    const moved =
      /^(?:i|we)(?:'ve|\s+have)?\s+(?:just\s+|recently\s+|finally\s+)?moved\s+(?:back\s+)?to\s+(.+)$/i.exec(
        s,
      );
    return moved ? fact("fact", `Lives in ${moved[1]}`, ofUser("residence")) : null;
  },
  // I have two kids / a dog.
  (s) => {
    const m = /^i\s+have\s+((?:a|an|one|two|three|four|five|\d+)\s+.+)$/i.exec(s);
    return m &&
      !isRequestObject(m[1]!) &&
      !/\b(?:meeting|appointment|question|call|task|reminder)s?\b/i.test(m[1]!)
      ? fact("fact", `Has ${m[1]}`)
      : null;
  },
  // My X is Y (my wife is Dana, my birthday is May 3, my name is Dan).
  (s) => {
    const m = /^my\s+(.+?)(?:'s\s+name)?\s+(is|are)\s+(?:called\s+|named\s+)?(.+)$/i.exec(s);
    if (!m) return null;
    const what = m[1]!.toLowerCase();
    if (what.split(" ").length > 4) return null;
    if (RELATIONS_EN.has(what))
      return fact("entity", `User's ${m[1]} ${m[2]!.toLowerCase()} ${m[3]}`, {
        subject: what,
        attribute: null,
        people: [what, ...namesIn(m[3]!)],
      });
    // "my sister's birthday is in May": about the sister.
    const of = /^(.+?)['’]s\s+(.+)$/u.exec(what);
    if (of && RELATIONS_EN.has(of[1]!))
      return fact("fact", `User's ${m[1]} ${m[2]!.toLowerCase()} ${m[3]}`, {
        subject: of[1],
        attribute: of[2],
        people: [of[1]!],
      });
    return fact("fact", `User's ${m[1]} ${m[2]!.toLowerCase()} ${m[3]}`, ofUser(what));
  },
  // Dana is my wife.
  (s) => {
    const m = /^(\p{Lu}[\p{L}'-]*(?:\s+\p{Lu}[\p{L}'-]*)?)\s+is\s+my\s+(.+)$/u.exec(s);
    const relation = m?.[2]!.toLowerCase();
    return m && relation && RELATIONS_EN.has(relation)
      ? fact("entity", `${m[1]} is the user's ${m[2]}`, {
          subject: relation,
          attribute: null,
          people: [relation, ...namesIn(m[1]!)],
        })
      : null;
  },
  // Dana's birthday is in May; Dana's son is called Tom.
  (s) => {
    const m = /^(\p{Lu}[\p{L}'-]*)['’]s\s+(.{2,40}?)\s+(?:is|are)\s+(.+)$/u.exec(s);
    if (!m || /^(?:it|that|this)$/i.test(m[1]!)) return null;
    return fact("fact", `${m[1]}'s ${m[2]} is ${m[3]}`, { subject: m[1], attribute: m[2], people: [m[1]!] });
  },
  // My sister (Dana) lives in / moved to / works at X.
  (s) => {
    const m =
      /^(?:my|our)\s+([a-z]+(?:\s+friend)?)(?:\s+(?!(?:just|recently|finally|now|still|also|currently|already|too)\s)([\p{L}'-]+))?(?:,)?\s+(?:(?:just|recently|finally|now|still|also|currently|already)\s+)?(lives\s+(?:in|at|near)|moved\s+(?:back\s+)?to|works\s+(?:at|for|in))\s+(.+)$/iu.exec(
        s,
      );
    const relation = m?.[1]!.toLowerCase();
    if (!m || !relation || !RELATIONS_EN.has(relation)) return null;
    const verb = m[3]!.toLowerCase();
    const [attribute, said] = verb.startsWith("works")
      ? ["workplace", `works ${verb.split(/\s+/).at(-1)}`]
      : ["residence", "lives in"];
    const people = [relation, ...(m[2] ? [m[2]] : [])];
    const found = [
      // Named, she is herself ("my sister Dana"): another sister's address never closes hers.
      fact("fact", `User's ${relation} ${m[2] ? `${m[2]} ` : ""}${said} ${m[4]}`, {
        subject: m[2] ?? relation,
        attribute,
        people,
      }),
    ];
    if (m[2])
      found.push(
        fact("entity", `User's ${relation} is ${m[2]}`, { subject: relation, attribute: null, people }),
      );
    return found.filter((f): f is Shaped => f !== null);
  },
];

/** Capitalized words of a name ("Dana Levi" → dana, levi), or the text itself when it has none. */
function namesIn(text: string): string[] {
  const names = text.match(/\p{Lu}[\p{L}'-]*/gu) ?? [];
  return names.length > 0 ? names.slice(0, 3) : /^[\p{L}'-]+$/u.test(text.trim()) ? [text.trim()] : [];
}

const HE_VERBS_PREFERENCE = "מעדיף|מעדיפה|אוהב|אוהבת|שונא|שונאת|רוצה|צריך|צריכה";

const HEBREW_RULES: Rule[] = [
  // (אני) (לא) מעדיף / אוהב / שונא / רוצה / צריך X.
  (s) => {
    const m = new RegExp(
      `^אני\\s+(?:(?:ממש|מאוד|בדרך כלל|תמיד|גם|בהחלט)\\s+)*(לא\\s+)?(${HE_VERBS_PREFERENCE})\\s+(.+)$`,
      "u",
    ).exec(s);
    if (!m) return null;
    const verb = m[2]!;
    const object = m[3]!;
    // רוצה / צריך followed by an infinitive or "that you…" is a to-do or a request, not a preference.
    if (
      /^(?:רוצה|צריך|צריכה)$/u.test(verb) &&
      (/^ל/u.test(object) || /^ש/u.test(object) || isCommand(object))
    )
      return null;
    if (/^(?:את זה|אותו|אותה|אותם|אותך)$/u.test(object)) return null;
    return fact("preference", `${m[1] ?? ""}${verb} ${object}`);
  },
  // X האהוב/ה עליי הוא Y.
  (s) => {
    const m =
      /^(?:ה)?(\S+(?:\s+\S+)?)\s+(?:האהוב|האהובה|המועדף|המועדפת)\s+(?:עלי|עליי|שלי)\s+(?:הוא|היא|זה|זו)?\s*(.+)$/u.exec(
        s,
      );
    return m ? fact("preference", `${m[1]} אהוב: ${m[2]}`, ofUser(`${m[1]} אהוב`)) : null;
  },
  // החלטתי / בחרתי / הלכתי על X.
  (s) => {
    const m =
      /^(?:אני\s+|אנחנו\s+)?(?:כבר\s+|סוף סוף\s+)?(החלטתי|החלטנו|בחרתי|בחרנו|הלכתי על|הלכנו על)\s+(.+)$/u.exec(
        s,
      );
    if (!m) return null;
    return fact("decision", `${m[1]!.startsWith("החלט") ? "החלטה" : "בחירה"}: ${m[2]}`);
  },
  // אני אלרגי/ת ל X; יש לי אלרגיה ל X.
  (s) => {
    const m = /^(?:אני\s+)?(?:גם\s+)?(אלרגי|אלרגית)\s+(ל.+)$/u.exec(s);
    if (m) return fact("constraint", `${m[1]} ${m[2]}`);
    const has = /^יש לי\s+(?:גם\s+)?אלרגיה\s+(ל.+)$/u.exec(s);
    return has ? fact("constraint", `אלרגיה ${has[1]}`) : null;
  },
  // אסור לי X; אני חייב/ת X; אני לא יכול/ה X.
  (s) => {
    const forbidden = /^אסור לי\s+(.+)$/u.exec(s);
    if (forbidden) return fact("constraint", `אסור: ${forbidden[1]}`);
    const m = /^אני\s+(חייב|חייבת|לא יכול|לא יכולה|אף פעם לא)\s+(.+)$/u.exec(s);
    return m && !isCommand(m[2]!) ? fact("constraint", `${m[1]} ${m[2]}`) : null;
  },
  // אני צמחוני/ת, טבעוני/ת, שומר/ת כשרות …
  (s) => {
    const m =
      /^אני\s+(צמחוני|צמחונית|טבעוני|טבעונית|שומר כשרות|שומרת כשרות|שומר שבת|שומרת שבת|סוכרתי|סוכרתית|בהריון|צליאק|צליאקית)(.*)$/u.exec(
        s,
      );
    return m
      ? fact("constraint", `${m[1]}${m[2]}`, ofUser(/^(?:צמחוני|טבעוני)/u.test(m[1]!) ? "diet" : null))
      : null;
  },
  // המטרה שלי (היא) X; אני מתכנן/ת / שואף/ת X.
  (s) => {
    const goal = /^(?:ה)?מטרה\s+(?:העיקרית\s+)?שלי\s+(?:היא\s+|זה\s+)?(.+)$/u.exec(s);
    if (goal) return fact("goal", `מטרה: ${goal[1]}`);
    const m = /^אני\s+(מתכנן|מתכננת|שואף|שואפת|מקווה)\s+(.+)$/u.exec(s);
    return m && !isCommand(m[2]!) ? fact("goal", `${m[1]} ${m[2]}`) : null;
  },
  // אני גר/ה ב X; אני עובד/ת ב / כ / אצל X; עברתי / עברנו (לגור) ל X.
  (s) => {
    const live = /^(?:אני|אנחנו)\s+(?:כרגע\s+|עכשיו\s+)?(גר|גרה|גרים)\s+(ב.+)$/u.exec(s);
    if (live) return fact("fact", `${live[1]} ${live[2]}`, ofUser("residence"));
    const moved =
      /^(?:אני\s+|אנחנו\s+)?(?:סוף סוף\s+|כבר\s+)?(?:עברתי|עברנו)\s+(?:לגור\s+)?(?:דירה\s+)?ל-?(.+)$/u.exec(
        s,
      );
    if (moved) return fact("fact", `מגורים: ${moved[1]}`, ofUser("residence"));
    const work = /^אני\s+(?:כרגע\s+|עכשיו\s+)?(עובד|עובדת)\s+((?:ב|כ|אצל\s).+)$/u.exec(s);
    return work
      ? fact("fact", `${work[1]} ${work[2]}`, ofUser(work[2]!.startsWith("כ") ? "job" : "workplace"))
      : null;
  },
  // קוראים לי X; השם שלי (הוא) X.
  (s) => {
    const m = /^(?:קוראים לי|השם שלי(?:\s+הוא)?|שמי)\s+(.+)$/u.exec(s);
    return m ? fact("fact", `שם: ${m[1]}`, ofUser("name")) : null;
  },
  // יום ההולדת של דנה (הוא) ב…; יום ההולדת של אחותי …
  (s) => {
    const m =
      /^(?:ה)?(יום ה?הולדת|כתובת|טלפון|עבודה)\s+של\s+(\S+(?:\s+שלי)?)\s+(?:הוא\s+|היא\s+|זה\s+)?(.+)$/u.exec(
        s,
      );
    if (!m) return null;
    const who = hebrewRelation(m[2]!) ?? m[2]!;
    return fact("fact", `${m[1]} של ${m[2]}: ${m[3]}`, { subject: who, attribute: m[1], people: [who] });
  },
  // אחותי (דנה) גרה ב / עברה ל / עובדת ב X.
  (s) => {
    const m =
      /^(\S+(?:\s+שלי)?)(?:\s+ה\S+)?(?:\s+(?!(?:כבר|עכשיו|עדיין|גם|כעת|היום|תמיד|סוף סוף)\s)(?!ה)(\S+))?\s+(?:(?:כבר|עכשיו|עדיין|גם|כעת|היום|תמיד)\s+)?(גר|גרה|גרים|עבר|עברה|עברו|עובד|עובדת)\s+(?:לגור\s+)?(.+)$/u.exec(
        s,
      );
    const relation = m ? hebrewRelation(m[1]!) : null;
    if (!m || !relation) return null;
    const works = m[3]!.startsWith("עובד");
    const place = m[4]!.replace(/^ל-?/u, "");
    const people = [relation, ...(m[2] ? [m[2]] : [])];
    const found = [
      fact(
        "fact",
        works ? `${m[1]} ${m[3]} ${m[4]}` : `מגורים של ${m[1]}${m[2] ? ` ${m[2]}` : ""}: ${place}`,
        {
          subject: m[2] ?? relation,
          attribute: works ? "workplace" : "residence",
          people,
        },
      ),
    ];
    if (m[2]) found.push(fact("entity", `${m[1]}: ${m[2]}`, { subject: relation, attribute: null, people }));
    return found.filter((f): f is Shaped => f !== null);
  },
  // ה-X שלי (הוא/היא) Y; אשתי/בעלי … היא/הוא Y.
  (s) => {
    const m = /^(?:ה)?(\S+(?:\s+\S+)?)\s+שלי\s+(?:הוא|היא|זה|זו|הם|הן)\s+(.+)$/u.exec(s);
    const own = m ? null : /^(\S+)\s+(?:הוא|היא|זה|זו)\s+(.+)$/u.exec(s);
    const what = m?.[1] ?? (own && hebrewRelation(own[1]!) ? own[1]! : null);
    const value = m?.[2] ?? own?.[2];
    if (!what || !value) return null;
    const relation = RELATIONS_HE.has(what) ? what : hebrewRelation(what);
    if (relation)
      return fact("entity", `${what}: ${value}`, {
        subject: relation,
        attribute: null,
        people: [relation, ...value.split(/\s+/u).slice(0, 2)],
      });
    return fact("fact", `${what}: ${value}`, ofUser(what));
  },
];

/** Hebrew "my sister" said with a suffix or with שלי, as its relation word: "אחותי" → "אחות". */
const HE_POSSESSIVE: Readonly<Record<string, string>> = {
  אחותי: "אחות",
  אחי: "אח",
  אשתי: "אישה",
  בעלי: "בעל",
  בתי: "בת",
  בני: "בן",
  אמי: "אמא",
  אבי: "אבא",
  חברתי: "חברה",
  חברי: "חבר",
  סבתי: "סבתא",
  דודתי: "דודה",
  דודי: "דוד",
  בוסית: "בוס",
};

function hebrewRelation(words: string): string | null {
  const own = /^(?:ה)?(\S+(?:\s+\S+)?)\s+שלי$/u.exec(words);
  if (own) return RELATIONS_HE.has(own[1]!) ? own[1]! : null;
  return HE_POSSESSIVE[words] ?? null;
}

/** The sentence without niqqud and without lead-ins ("remember that…", "תזכור ש…"). */
function bareSentence(sentence: string): string {
  return withoutPoints(sentence)
    .replace(EN_LEAD_IN, "")
    .replace(HE_LEAD_IN, "")
    .trim()
    .replace(/[.!…]+$/u, "");
}

/** Words of a statement about oneself, in English and Hebrew. */
const FIRST_PERSON =
  /\b(?:i'?m|i am|i'?ve|i have|i'?d|i like|i love|i hate|i prefer|i don'?t|i work|i live|we'?re|we are)\b|(?:^|[\s,.!?])(?:אני|אנחנו)(?=$|[\s,.!?])/iu;

/**
 * Whether a message may tell something about the user: not when each of its sentences is a
 * question, a request to Memo or small talk ("thanks!", "my tasks", "done 2"). The model is asked
 * only about messages that may (a paid call after nearly every turn otherwise).
 */
export function mayHoldFacts(message: HistoryMessage): boolean {
  if (!isExtractable(message)) return false;
  // Everyday commands ("my tasks", "done 2", "remind me at 9 to …") say nothing about the user.
  if (recognizeCommand(message.content, message.createdAt, "UTC")) return false;
  // A request that says something about the user ("remind me to buy bread, I'm celiac") is asked
  // about. "my" alone is not enough: "add apples to my shopping list" is a command, nothing more.
  if (FIRST_PERSON.test(message.content) && message.content.trim().split(/\s+/).length > 3) return true;
  return statementsOf(message.content, bareSentence).length > 0;
}

/**
 * Words saying something changed or began ("moved", "started", "since", "עברתי", "מאז"): a past
 * period beside them is when the fact became true. Beside other words ("Dana's birthday is in
 * May") a period is part of what the fact says and stays in it.
 */
const CHANGE_WORDS =
  /(?<![\p{L}])(?:moved|started|began|joined|switched|became|changed|quit|left|got|since|עברתי|עברנו|עבר|עברה|עברו|התחלתי|התחלנו|הצטרפתי|עזבתי|החלפתי|נהייתי|מאז)(?![\p{L}])/iu;

/**
 * When a fact said in `sentence` became true, read in code at `saidAt` in `timeZone` (D6, D10): a
 * past period the sentence names beside a word of change, read whole, with the sentence left
 * without its words; otherwise nothing (the fact holds from when it was said, and vague words
 * such as "recently" stay in it as the user's own).
 */
function factTime(
  sentence: string,
  saidAt: number,
  timeZone: string,
): { sentence: string; validFrom?: number; precision?: PastPrecision } {
  if (!CHANGE_WORDS.test(sentence)) return { sentence };
  const period = readPastPeriod(sentence, saidAt, timeZone, { thisYearOnly: true });
  if (!period) return { sentence };
  return { sentence: withoutPeriod(sentence, period), validFrom: period.from, precision: period.precision };
}

/** Facts the patterns find in one user message (questions, requests, notes and small talk give none). */
export function extractFactsByRules(message: HistoryMessage, timeZone = "UTC"): ExtractedFact[] {
  if (!isExtractable(message)) return [];
  const found: ExtractedFact[] = [];
  for (const bare of statementsOf(message.content, bareSentence)) {
    const { sentence, validFrom, precision } = factTime(bare, message.createdAt, timeZone);
    const rules = /[\u05d0-\u05ea]/u.test(sentence) ? HEBREW_RULES : ENGLISH_RULES;
    for (const rule of rules) {
      const result = rule(sentence);
      if (!result) continue;
      for (const shaped of Array.isArray(result) ? result : [result])
        found.push({
          ...shaped,
          importance: DEFAULT_IMPORTANCE[shaped.type],
          sourceMessageId: message.id,
          ...(validFrom !== undefined && shaped.type !== "entity" && { validFrom, precision }),
        });
      break;
    }
  }
  return found;
}

// ---- LLM ----

/** What the LLM answers: the facts, each naming the message (its number in the list) it came from. */
export const factExtractionSchema = z.object({
  facts: z.array(
    z.object({
      message: z.number().int().describe("The number of the message the fact comes from"),
      type: z.enum(MEMORY_TYPES),
      content: z
        .string()
        .describe(
          "The fact in the third person, short, in the user's language, e.g. 'Prefers morning meetings'",
        ),
      importance: z
        .number()
        .describe("0 to 1: goal 0.8, decision 0.7, preference 0.6, constraint 0.6, fact 0.5, entity 0.5"),
      subject: z.string().describe("Whom it is about: 'user' or the person ('sister', 'Dana')"),
      attribute: z.string().describe("What about them ('residence', 'workplace', 'birthday'), or ''"),
      people: z.array(z.string()).describe("The people it names"),
      since: z.string().describe("The words saying when it became true, as the user said them, or ''"),
      replaces: z.array(z.string()).describe("Numbers of known facts it replaces, e.g. ['K2']"),
    }),
  ),
  episodes: episodesField,
});

/** A stored fact the model may say a new one replaces. */
export interface KnownFact {
  id: string;
  content: string;
}

/** Known facts shown to the extraction model at most. */
export const KNOWN_FACTS_SHOWN = 30;

/** The messages of one extraction call: the user's messages numbered from 1, the known facts K1… */
export function factMessages(
  messages: readonly HistoryMessage[],
  known: readonly KnownFact[] = [],
): LLMMessage[] {
  const facts = known.slice(0, KNOWN_FACTS_SHOWN).map((f, i) => `K${i + 1}. ${capText(f.content, 200).text}`);
  return [
    { role: "system", content: FACTS_PROMPT },
    {
      role: "user",
      // Each message cut, so the call stays bounded however long the messages were.
      content: `${facts.length > 0 ? `Known facts:\n${facts.join("\n")}\n\n` : ""}Messages from the user:\n${messages.map((m, i) => `${i + 1}. ${capText(m.content, MEMORY_MESSAGE_MAX_CHARS).text}`).join("\n")}`,
    },
  ];
}

/**
 * The LLM's answer as facts: numbers mapped back to messages, unknown numbers and empty contents
 * dropped; "since" read in code at the message's time in `timeZone` (words it cannot read whole
 * give no date), "replaces" mapped back to the known facts' ids.
 */
export function factsFromAnswer(
  answer: Pick<z.infer<typeof factExtractionSchema>, "facts">,
  messages: readonly HistoryMessage[],
  known: readonly KnownFact[] = [],
  timeZone = "UTC",
): ExtractedFact[] {
  const facts: ExtractedFact[] = [];
  for (const item of answer.facts) {
    const source = messages[item.message - 1];
    if (!source) continue;
    const period =
      item.since.trim() === ""
        ? null
        : readPastPeriod(item.since, source.createdAt, timeZone, { thisYearOnly: true });
    const shaped = fact(item.type, item.content, {
      subject: item.subject.trim() || null,
      attribute: item.attribute.trim() || null,
      people: item.people,
    });
    if (!shaped) continue;
    const importance = Number.isFinite(item.importance)
      ? Math.min(1, Math.max(0, item.importance))
      : DEFAULT_IMPORTANCE[item.type];
    const replaces = item.replaces.flatMap((ref) => {
      const n = Number(/^\s*K?(\d+)\s*$/iu.exec(ref)?.[1]);
      const target = Number.isInteger(n) ? known[n - 1] : undefined;
      return target ? [target.id] : [];
    });
    facts.push({
      ...shaped,
      importance,
      sourceMessageId: source.id,
      ...(period && { validFrom: period.from, precision: period.precision }),
      ...(replaces.length > 0 && { replaces }),
    });
  }
  return facts;
}
