/**
 * The words around a holiday's name that move its day (docs/NLU.md, holidays): "a week before
 * Pesach", "after Pesach", "the second day of Rosh Hashana", "the Shabbat before Pesach", "במוצאי
 * פסח", "Yom Kippur eve", "every Hanukkah". One table of word patterns, read by the holiday phrase
 * (holidays.ts) and, for the words it does not read ("during Hanukkah", "Shabbat Chanukah", "חול
 * המועד פסח", "3 days after Pesach"), by the same phrase's loose-word test, so such a holiday is
 * asked about, never read as its bare first day (D10). The days are computed here, in code (D6).
 */
import {
  EN_COUNTS,
  EN_NUMBER_WORDS,
  EN_WEEKDAYS,
  HE_NUMBERS,
  HE_NUMBER_WORDS,
  HE_WEEKDAYS,
  words,
} from "./timeWords.js";
import { addDays, dayOfWeek, type LocalDate } from "./zonedTime.js";

/** Which day of a holiday a phrase names, from its first day. */
export type Qualifier =
  /** The first day: "on Pesach". */
  | { kind: "day" }
  /** The day before the first day: "erev Pesach", "Pesach eve", "the day before Pesach". */
  | { kind: "erev" }
  /** The evening before day `nth` (1 the first, -1 the last): "the first night of Hanukkah". */
  | { kind: "night"; nth: number }
  /** `days` days before the first day: "a week before Pesach", "יומיים לפני ראש השנה". */
  | { kind: "before"; days: number }
  /** The last `day` (0 = Sunday) before the first day: "the Shabbat before Pesach". */
  | { kind: "weekday"; day: number }
  /** Day `nth` of the holiday (1 the first, -1 the last): "the second day of Rosh Hashana". */
  | { kind: "nth"; nth: number }
  /** The day after its last day: "after Pesach", "אחרי פסח". */
  | { kind: "after" }
  /** The evening its last day ends: "במוצאי פסח". */
  | { kind: "motzei" };

/** The furthest before a holiday an offset may reach ("26 weeks before Pesach"); beyond, asked. */
const MAX_BEFORE_DAYS = 183;

const EN_ORDINALS = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth"];
const HE_ORDINALS = ["ראשון", "שני", "שלישי", "רביעי", "חמישי", "שישי", "שביעי", "שמיני"];
/** Hebrew amounts of days said in one word: "שבוע לפני פסח" is 7 days before it. */
const HE_DAY_AMOUNTS = new Map([
  ["יום", 1],
  ["יומיים", 2],
  ["שבוע", 7],
  ["שבועיים", 14],
]);
const SHABBAT = "shabbat|shabbos|sabbath";

/**
 * The words before a name that this grammar reads, each a named group (regex source, lowercased text).
 * The first night ("the first night of", "נר ראשון של") and the erev ("erev", "ערב", "before")
 * stay in holidays.ts.
 */
export const QUALIFIER_BEFORE = [
  String.raw`(?<nightNth>(?:the\s+)?(?<nightOrd>${words([...EN_ORDINALS.slice(1), "last"])})\s+(?:night|candle)\s+of\s+)`,
  String.raw`(?<eveningBefore>(?:the\s+)?(?:evening|night)\s+before\s+|(?:ו?[בל])?(?:ערב|לילה|ליל)\s+שלפני\s+)`,
  String.raw`(?<eveOf>(?:the\s+)?(?:eve\s+of|day\s+before)\s+)`,
  String.raw`(?<offset>(?<count>\d{1,3}|${EN_NUMBER_WORDS}|an|a)\s+(?<unit>days?|weeks?)\s+before\s+|(?<heCount>\d{1,3}|${HE_NUMBER_WORDS})\s+(?<heUnit>ימים|שבועות)\s+(?:ש)?לפני\s+|(?<heAmount>${words(HE_DAY_AMOUNTS.keys())})\s+(?:ש)?לפני\s+)`,
  String.raw`(?<weekdayBefore>(?:the\s+)?(?<weekday>${SHABBAT}|${words(EN_WEEKDAYS)})\s+before\s+|(?:ו?ב)?(?<heWeekday>שבת|יום\s+(?:${words(HE_WEEKDAYS.slice(0, 6))}))\s+(?:ש)?לפני\s+)`,
  String.raw`(?<ordinal>(?:the\s+)?(?<ord>${words([...EN_ORDINALS, "last"])})\s+day\s+of\s+|(?:ו?[בל]|ה)?יום\s+ה(?<heOrd>${words([...HE_ORDINALS, "אחרון"])})\s+(?:של\s+)?)`,
  String.raw`(?<end>(?:the\s+)?end\s+of\s+|(?:ו?ב)?סוף\s+)`,
  String.raw`(?<after>(?:the\s+day\s+)?after\s+|(?:ה?יום\s+)?(?:אחרי|שאחרי)\s+)`,
  String.raw`(?<motzei>(?:ו?ב)?מוצאי\s+)`,
].join("|");

/**
 * "every Pesach", "כל פסח": the holiday every year (a yearly rule, as "every year on Pesach");
 * "next / this / the coming Pesach": its next day, as the name alone.
 */
export const EVERY_BEFORE = String.raw`(?:(?<every>(?:every|each|(?:ו?ב)?כל)\s+)|(?<upcoming>(?:next|this|(?:the\s+)?coming)\s+))`;

/** A day of a holiday said after its name: "בחנוכה ביום השלישי" (with "ה": not "ביום שלישי", Tuesday). */
const HE_ORDINAL_DAY = String.raw`(?:ו?[בל])?יום\s+ה(?:${words([...HE_ORDINALS, "אחרון"])})`;

/**
 * The words after a name this grammar reads: "Pesach eve", "Yom Kippur eve", and the day of it
 * said after it, "בחנוכה ביום השלישי" (the third day of Hanukkah).
 */
export const QUALIFIER_AFTER = String.raw`(?:(?<eveAfter>\s+eve)|(?<ordinalAfter>\s+(?:ו?[בל])?יום\s+ה(?<heOrdAfter>${words([...HE_ORDINALS, "אחרון"])})))`;

/**
 * Time words left right before a holiday phrase that it did not read: "during", "over", "Shabbat",
 * "chol hamoed", "3 days (after)", "the middle of", "במהלך", "בשבוע", "ה-שני של". A holiday said with
 * one is asked about.
 */
export const LOOSE_BEFORE = new RegExp(
  String.raw`(?<![\p{L}\p{N}])(?:(?:\d{1,3}|a\s+few|few|several|${EN_NUMBER_WORDS}|an|a|כמה|${HE_NUMBER_WORDS})\s+)?(?:every|each|during|over|throughout|within|around|into|since|after|before|days?|weeks?|months?|nights?|${SHABBAT}|weekend|ch?ol\s+ha-?moed|(?:week|weekend|days?|nights?|morning|afternoon|evening|eve|end|start|beginning|middle|rest|half)\s+of|of|${words([...EN_ORDINALS, "last"])}|ו?[בל]?(?:כל|מהלך|זמן|אמצע|סוף|תחילת|מוצאי|חול\s+המועד|חוה"מ|ימי|שבוע|שבועות|שבת|יום|ימים|יומיים|שבועיים|ליל|לילה|הלילה|אחרי|לפני|שלפני|שאחרי|מאז)|ה?(?:${words([...HE_ORDINALS, "אחרון"])})\s+של)(?:\s+the)?\s+$`,
  "iu",
);

/**
 * Time words right after a holiday's name that no grammar reads ("Christmas week", "Pesach night":
 * the seder is the night before), and, after a day moved from the holiday, an event of it ("after
 * Christmas dinner" is not the day after Christmas): their length, 0 when none.
 */
export function looseAfter(rest: string, hebrewDay: boolean, moved: boolean): number {
  const time = hebrewDay ? "week|weekend|season|nights?" : "week|weekend|season";
  const events = "dinner|lunch|breakfast|brunch|meal|party|seder|services?|mass|break|vacation|holidays?";
  const words = moved ? `${time}|${events}` : time;
  const right = new RegExp(String.raw`^\s+(?:${words})(?![\p{L}\p{N}])`, "iu").exec(rest)?.[0].length ?? 0;
  return right || strayDayOf(rest);
}

/**
 * A day of the holiday said further on, past other words ("בחנוכה ב-18:00 ביום השלישי", "on
 * Hanukkah at 6 on the third day"): up to its end, so that the phrase with it is asked; 0 when none.
 */
function strayDayOf(rest: string): number {
  const en = String.raw`(?:on\s+)?the\s+(?:${words([...EN_ORDINALS, "last"])})\s+(?:day|night)`;
  const m = new RegExp(String.raw`(?<![\p{L}\p{N}])(?:${HE_ORDINAL_DAY}|${en})(?![\p{L}\p{N}])`, "iu").exec(
    rest,
  );
  return m ? (m.index ?? 0) + m[0].length : 0;
}

/** The qualifier a holiday phrase's groups say (null: said, but not a day that can be told). */
export function qualifierOf(groups: Record<string, string | undefined>): Qualifier | null {
  const g = (name: string) => groups[name];
  if (g("ordinalAfter") !== undefined) {
    // "ערב פסח ביום השלישי", "ביום השני של חנוכה ביום השלישי": two days said, neither told.
    const before = QUALIFIER_GROUPS.some((name) => g(name) !== undefined);
    return before ? null : { kind: "nth", nth: ordinal(g("heOrdAfter")) };
  }
  if (g("night") !== undefined || g("eveningBefore") !== undefined) return { kind: "night", nth: 1 };
  if (g("nightNth") !== undefined) return { kind: "night", nth: ordinal(g("nightOrd")) };
  if (g("erev") !== undefined || g("eveOf") !== undefined || g("eveAfter") !== undefined)
    return { kind: "erev" };
  if (g("offset") !== undefined) {
    const count = g("count") ?? g("heCount");
    const unit = g("unit") ?? g("heUnit") ?? "";
    const amount = g("heAmount");
    const days = amount
      ? (HE_DAY_AMOUNTS.get(amount) ?? 0)
      : numberOf(count) * (/^(?:weeks?|שבועות)$/u.test(unit) ? 7 : 1);
    return days >= 1 && days <= MAX_BEFORE_DAYS ? { kind: "before", days } : null;
  }
  if (g("weekdayBefore") !== undefined) {
    const said = (g("weekday") ?? g("heWeekday") ?? "").replace(/^יום\s+/u, "");
    const day = new RegExp(`^(?:${SHABBAT})$`, "u").test(said)
      ? 6
      : Math.max(EN_WEEKDAYS.indexOf(said), HE_WEEKDAYS.indexOf(said));
    return day >= 0 ? { kind: "weekday", day } : null;
  }
  if (g("ordinal") !== undefined) return { kind: "nth", nth: ordinal(g("ord") ?? g("heOrd")) };
  if (g("end") !== undefined) return { kind: "nth", nth: -1 };
  if (g("after") !== undefined) return { kind: "after" };
  if (g("motzei") !== undefined) return { kind: "motzei" };
  return { kind: "day" };
}

/** The groups of the words before a name (and "eve" after it) that name its day. */
const QUALIFIER_GROUPS = [
  ...["night", "eveningBefore", "nightNth", "erev", "eveOf", "eveAfter", "offset", "weekdayBefore"],
  ...["ordinal", "end", "after", "motzei"],
];

/** 1–8 for an ordinal word, -1 for "last"/"אחרון". */
function ordinal(word: string | undefined): number {
  if (word === "last" || word === "אחרון") return -1;
  const en = EN_ORDINALS.indexOf(word ?? "");
  return en >= 0 ? en + 1 : HE_ORDINALS.indexOf(word ?? "") + 1;
}

function numberOf(said: string | undefined): number {
  if (said === undefined) return 0;
  if (/^\d+$/u.test(said)) return Number(said);
  const spaced = said.replace(/\s+/gu, " ");
  return EN_COUNTS.get(spaced) ?? HE_NUMBERS.get(spaced) ?? 0;
}

/**
 * The day a qualifier names, from the holiday's first day and how many days it lasts on the user's
 * schedule (null when its end cannot be told); null when the day cannot be told ("the third day of
 * Shavuot" in Israel, where it lasts one day; "after Sukkot").
 */
export function qualifiedDay(
  qualifier: Qualifier,
  first: LocalDate,
  length: number | null,
): { date: LocalDate; evening: boolean } | null {
  const day = (offset: number, evening = false) => ({ date: addDays(first, offset), evening });
  /** Day `nth` (1-based, -1 the last) as an offset from the first day, if the holiday has it. */
  const index = (nth: number): number | null => {
    if (nth === 1) return 0;
    if (length === null || nth === 0) return null;
    if (nth === -1) return length - 1;
    return nth <= length ? nth - 1 : null;
  };
  switch (qualifier.kind) {
    case "day":
      return day(0);
    case "erev":
      return day(-1);
    case "night": {
      const i = index(qualifier.nth);
      return i === null ? null : day(i - 1, true);
    }
    case "before":
      return day(-qualifier.days);
    case "weekday":
      return day(-((dayOfWeek(first) - qualifier.day + 7) % 7 || 7));
    case "nth": {
      const i = index(qualifier.nth);
      return i === null ? null : day(i);
    }
    case "after":
      return length === null ? null : day(length);
    case "motzei":
      return length === null ? null : day(length - 1, true);
  }
}
