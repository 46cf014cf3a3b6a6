/**
 * "Change my time zone to London" and "what's my time zone?", in English and Hebrew, recognised
 * without the LLM at any point of a conversation. Patterns are anchored at the start of the message
 * (after a greeting or "please"), so a request that merely mentions time zones ("remind me to change
 * the time zone on my watch") is left to the planner.
 */

/** Longest message read as a command; longer ones are ordinary requests. */
const MAX_COMMAND_LENGTH = 160;
/** Longest place a command carries ("America/Argentina/Buenos_Aires", "Tel Aviv, Israel"). */
const MAX_PLACE_LENGTH = 60;
const MAX_PLACE_WORDS = 6;

/** End of a Hebrew word; `\b` only knows Latin letters. */
const HE_END = String.raw`(?=$|[\s,.:;!?\-–—])`;

const EN_LEAD = String.raw`(?:(?:hi|hey|hello|ok|okay|so|thanks|thank\s+you|great|cool|also|and|now|btw|oh)\b[\s,!.]*)*(?:memo\b[\s,!.:]*)?(?:(?:please|pls|plz|kindly)\s+)?(?:(?:can|could|would|will)\s+(?:you|u)\s+(?:please\s+)?)?(?:(?:i\s+(?:want|need|would\s+like)|i'd\s+like|i’d\s+like)\s+(?:you\s+)?to\s+|let'?s\s+|let’s\s+)?(?:please\s+)?`;
const EN_TIME_ZONE = String.raw`(?:time[\s-]?zone|tz)`;
const EN_CHANGE = String.raw`^${EN_LEAD}(?:change|set|update|switch|move|make|reset|put|adjust|correct|fix)\s+(?:(?:my|the|our)\s+)?(?:current\s+)?${EN_TIME_ZONE}(?:\s+(?:setting|preference))?(?:\s+(?:back|please))*`;
const EN_STATE = String.raw`^${EN_LEAD}my\s+(?:current\s+)?${EN_TIME_ZONE}`;
const EN_BARE = String.raw`^(?:my\s+)?${EN_TIME_ZONE}`;

const HE_LEAD = String.raw`(?:(?:היי|הי|שלום|אהלן|אוקיי|אוקי|טוב|תודה|וגם|גם|עכשיו)${HE_END}[\s,!.]*)*(?:ממו${HE_END}[\s,!.:]*)?(?:בבקשה${HE_END}[\s,]*)?(?:(?:אפשר|תוכל|תוכלי|תוכלו|אתה\s+יכול|את\s+יכולה|אני\s+רוצה|אני\s+צריך|אני\s+צריכה|רוצה|צריך|צריכה|בוא|בואי|בואו)\s+)?(?:בבקשה\s+)?`;
const HE_VERB = String.raw`(?:ת?שנה|ת?שני|ת?שנו|לשנות|עדכן|עדכני|עדכנו|ת?עדכן|ת?עדכני|לעדכן|הגדר|הגדירי|הגדירו|ת?גדיר|ת?גדירי|להגדיר|קבע|קבעי|ת?קבע|ת?קבעי|לקבוע|החלף|החליפי|ת?חליף|ת?חליפי|להחליף|שים|שימי|ת?שים|ת?שימי|לשים)`;
/** "אזור זמן", "אזור הזמן", with the common spelling "איזור". */
const HE_TIME_ZONE = String.raw`(?:ה)?אי?זור[\s\-]+(?:ה)?זמן`;
const HE_CHANGE = String.raw`^${HE_LEAD}${HE_VERB}\s+(?:לי\s+)?(?:את\s+)?${HE_TIME_ZONE}(?:\s+שלי)?(?:\s+בבקשה)?`;
const HE_STATE = String.raw`^${HE_LEAD}${HE_TIME_ZONE}\s+שלי`;
const HE_BARE = String.raw`^${HE_TIME_ZONE}`;

const PLACE = String.raw`(?<place>.+)$`;

/**
 * The command shapes, most specific first. `loose` ones have nothing between the command words
 * and the place but a space ("timezone Asia/Jerusalem"), so their place must not read as a sentence.
 * Hebrew changes need the "ל" of "to": it is how the sentence says where the zone goes.
 */
const COMMANDS: readonly { pattern: RegExp; loose: boolean }[] = [
  {
    pattern: new RegExp(String.raw`${EN_CHANGE}(?:\s*[:=]\s*|\s+(?:to|into|as)\s+)${PLACE}`, "iu"),
    loose: false,
  },
  { pattern: new RegExp(String.raw`${EN_CHANGE}\s+${PLACE}`, "iu"), loose: true },
  {
    pattern: new RegExp(
      String.raw`${EN_STATE}\s*(?:(?:is|should\s+be|will\s+be)(?:\s+now)?\s+|[:=]\s*)${PLACE}`,
      "iu",
    ),
    loose: false,
  },
  { pattern: new RegExp(String.raw`${EN_BARE}\s*[:=]\s*${PLACE}`, "iu"), loose: false },
  { pattern: new RegExp(String.raw`${EN_BARE}\s+${PLACE}`, "iu"), loose: true },
  {
    pattern: new RegExp(String.raw`${HE_CHANGE}(?:\s*[:=]\s*(?:ל[-־–]?\s*)?|\s+ל[-־–]?\s*)${PLACE}`, "u"),
    loose: false,
  },
  {
    pattern: new RegExp(
      String.raw`${HE_STATE}(?:\s*[:=\-–]\s*|\s+(?:(?:הוא|זה|היא)\s+)?(?:עכשיו\s+)?)${PLACE}`,
      "u",
    ),
    loose: false,
  },
  { pattern: new RegExp(String.raw`${HE_BARE}\s*[:=\-–]\s*${PLACE}`, "u"), loose: false },
  { pattern: new RegExp(String.raw`${HE_BARE}\s+${PLACE}`, "u"), loose: true },
];

/** Words of a sentence rather than a place name, for the loose shapes. */
const SENTENCE_WORDS =
  /(?:^|\s)(?:is|are|was|were|be|been|a|an|the|in|on|for|of|to|with|and|or|but|that|this|it|i|you|my|me|do|does|did|can|will|would|should|not|no|הוא|היא|זה|זאת|של|את|יש|אין|לא|עם|על|אני|אתה|מה|כמה|כי|אבל|או|גם)(?=$|\s)/iu;

/** First words that show the rest is not a place: "on my watch", "is wrong", "מה", "לא נכון". */
const NOT_A_PLACE =
  /^(?:on|in|of|for|at|from|with|when|if|and|or|but|so|because|back|to|too|also|is|are|was|will|would|should|wrong|incorrect|off|broken|not|messed|weird|different|strange|confusing|correct|right|fine|ok|okay|still|what|which|where|who|how|why|please|setting|settings|automatically|again|here|there|it)\b|^(?:מה|איזה|אילו|כמה|איפה|למה|מתי|של|לא|שגוי|טועה|נכון|בסדר|שוב|אוטומטית|בבקשה|הזה|הזאת|שלי)(?=$|\s)/iu;

/** Trailing politeness and punctuation that are not part of the place. */
function trimPlace(text: string): string {
  let place = text.trim();
  for (;;) {
    const next = place
      .replace(/[\s.!?,;:]+$/u, "")
      .replace(/\s+(?:please|pls|plz|thanks|thank\s+you|thx|now|for\s+me|instead)$/iu, "")
      .replace(/\s+(?:בבקשה|תודה|עכשיו|עבורי|בשבילי|במקום)$/u, "")
      .trim();
    if (next === place) return place;
    place = next;
  }
}

function acceptPlace(raw: string | undefined, loose: boolean): { place: string } | null {
  if (!raw) return null;
  const place = trimPlace(raw);
  if (!place || place.length > MAX_PLACE_LENGTH || place.split(/\s+/).length > MAX_PLACE_WORDS) return null;
  if (NOT_A_PLACE.test(place) || !/[\p{L}\d]/u.test(place)) return null;
  if (loose && SENTENCE_WORDS.test(place)) return null;
  return { place };
}

/** Recognizes a request to change the time zone, anywhere in a conversation; returns the place text, or null when the message is not such a request. */
export function parseTimeZoneCommand(text: string): { place: string } | null {
  const message = text.normalize("NFC").replace(/\s+/g, " ").trim();
  if (!message || message.length > MAX_COMMAND_LENGTH) return null;
  for (const { pattern, loose } of COMMANDS) {
    const found = acceptPlace(pattern.exec(message)?.groups?.place, loose);
    if (found) return found;
  }
  return null;
}

const EN_QUESTION = [
  new RegExp(
    String.raw`^${EN_LEAD}(?:what(?:'s|’s|\s+is)|which\s+is|tell\s+me|remind\s+me(?:\s+of)?|show\s+me|do\s+you\s+know)\s+(?:my|the)\s+(?:current\s+)?${EN_TIME_ZONE}(?:\s+(?:setting|preference))?(?:\s+(?:you\s+have(?:\s+for\s+me)?|(?:you\s+)?set(?:\s+for\s+me)?|for\s+me|now|again))?\s*[?.!]*$`,
    "iu",
  ),
  new RegExp(
    String.raw`^${EN_LEAD}(?:what|which)\s+${EN_TIME_ZONE}\s+(?:am\s+i(?:\s+(?:in|on|set\s+to|using))?|do\s+you\s+have(?:\s+for)?\s+me(?:\s+in)?|are\s+you\s+using(?:\s+for\s+me)?|did\s+you\s+set(?:\s+for\s+me)?|have\s+you\s+set(?:\s+for\s+me)?|is\s+mine|is\s+set)\s*[?.!]*$`,
    "iu",
  ),
  new RegExp(String.raw`^(?:my\s+)?${EN_TIME_ZONE}\s*\?+$`, "iu"),
];
const HE_QUESTION = [
  new RegExp(
    String.raw`^${HE_LEAD}(?:מה|מהו|איזה|מה\s+זה)\s+${HE_TIME_ZONE}(?:\s+(?:שלי|שלך\s+בשבילי|שהגדרת(?:\s+לי)?|(?:ה|ש)?מוגדר(?:\s+(?:לי|אצלך))?|שלי\s+אצלך))(?:\s+עכשיו)?\s*[?.!]*$`,
    "u",
  ),
  new RegExp(
    String.raw`^${HE_LEAD}באיזה\s+אי?זור[\s\-]+זמן\s+(?:אני|הגדרת\s+אותי|אני\s+מוגדרת?|הגדרת\s+לי)(?:\s+נמצאת?)?(?:\s+אצלך)?(?:\s+לפיך)?\s*[?.!]*$`,
    "u",
  ),
  new RegExp(String.raw`^${HE_TIME_ZONE}(?:\s+שלי)?\s*\?+$`, "u"),
];

/** "What's my time zone?", "מה אזור הזמן שלי?": a question about the user's own zone. */
export function isTimeZoneQuestion(text: string): boolean {
  const message = text.normalize("NFC").replace(/\s+/g, " ").trim();
  if (!message || message.length > MAX_COMMAND_LENGTH) return false;
  return [...EN_QUESTION, ...HE_QUESTION].some((pattern) => pattern.test(message));
}

/**
 * An answer to "which of these zones?": the number of a choice ("2", "2."), or words that may name
 * a place; `bare` when they are three words at most, a place name rather than a sentence that
 * happens to name one ("what's the capital of France?"). Null for no words.
 */
export function readZoneAnswer(text: string): { choice: number } | { place: string; bare: boolean } | null {
  if (!text) return null;
  const number = /^\s*(\d{1,2})\s*[.)]?\s*$/.exec(text);
  if (number) return { choice: Number(number[1]) };
  return { place: text, bare: text.trim().split(/\s+/).length <= 3 };
}
