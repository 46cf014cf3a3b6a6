import { parseTime } from "./parseTime.js";
import { asksToBeReminded } from "./reminderWords.js";

/**
 * Second-brain messages that need no model: what Memo remembers about the user, forgetting, and
 * plain note commands ("note: …", "my notes", "search notes for …"), in English and Hebrew. Only
 * whole messages count; anything else goes to the planner.
 */
export type NoteCommand =
  | { action: "list_memories"; functionName: "memory.list"; args: { history?: true } }
  | { action: "recall_memory"; functionName: "memory.recall"; args: { question: string } }
  | { action: "forget_everything"; functionName: "memory.forgetAll"; args: Record<string, never> }
  | { action: "forget_memory"; functionName: "memory.forget"; args: { query: string } }
  | {
      action: "store_note";
      functionName: "notes.store";
      /** `namesTime`: the note mentions a time; the reply says how to get a reminder instead. */
      args: { operation: "store"; content: string; namesTime?: true };
    }
  | { action: "list_notes"; functionName: "notes.getAll"; args: { operation: "getAll"; documents?: true } }
  | {
      action: "delete_note";
      functionName: "notes.delete";
      /** `documents`: the words name a document (a PDF, a letter), so only documents are searched. */
      args:
        | { operation: "delete"; noteRef: string; documents?: true }
        | { operation: "delete"; query: string; documents?: true };
    }
  | { action: "search_notes"; functionName: "notes.search"; args: { operation: "search"; query: string } };

/** Lower case for matching, spaces folded, Hebrew geresh as an apostrophe, no closing punctuation or emoji. */
function tidy(text: string): string {
  return text
    .replace(/[׳’`]/g, "'")
    .replace(/\s+/g, " ")
    .replace(/^[\s\p{P}\p{S}]+|[\s.!?,;…\p{Extended_Pictographic}\uFE0F]+$/gu, "")
    .trim();
}

const EN_LEAD = String.raw`(?:(?:please|pls|memo|hey memo|can you|could you|would you)[, ]+)*`;
const HE_LEAD = String.raw`(?:(?:בבקשה|ממו|אפשר|תוכל)[, ]+)*`;

/** "What do you remember about me?", "מה אתה זוכר עליי?"… */
const LIST_MEMORIES = [
  new RegExp(
    String.raw`^${EN_LEAD}(?:what (?:do|did) you (?:remember|know|recall|keep)(?: about me| of me)?|what have you (?:remembered|learned|learnt)(?: about me)?|what did you learn about me|(?:show|list|tell)(?: me)? (?:my|your) memor(?:y|ies)(?: of me| about me)?|my memories)$`,
    "iu",
  ),
  new RegExp(
    String.raw`^${HE_LEAD}(?:מה (?:אתה|את) (?:זוכר|זוכרת|יודע|יודעת) (?:עליי|עלי|עליו)|מה (?:זכרת|שמרת|למדת) (?:עליי|עלי)|הזיכרונות שלי|(?:תראה|תראי) (?:לי )?מה (?:אתה זוכר|את זוכרת) (?:עליי|עלי))$`,
    "u",
  ),
];

/** "What changed?", "מה השתנה?": what Memo remembers, with what stopped being true. */
const LIST_CHANGES = [
  new RegExp(
    String.raw`^${EN_LEAD}(?:what(?:'s| has| have)? changed(?: about me| in what you (?:remember|know)(?: about me)?)?|what do you remember about me,? (?:with|including) (?:what|the) change[ds]?|(?:show|list)(?: me)? (?:what|how) (?:has )?changed(?: about me)?)$`,
    "iu",
  ),
  new RegExp(
    String.raw`^${HE_LEAD}(?:מה השתנה(?: עליי| עלי| אצלי| במה שאתה זוכר(?: עליי| עלי)?)?|(?:תראה|תראי)(?: לי)? מה השתנה)$`,
    "u",
  ),
];

/** The people a question about "my …" may name: family, friends and the people who serve the user. */
const RELATION_WORDS = [
  ...["wife", "husband", "partner", "girlfriend", "boyfriend", "son", "daughter", "kids?", "children"],
  ...["child", "mom", "mum", "mother", "dad", "father", "parents", "brother", "sister", "siblings?"],
  ...["grandma", "grandpa", "grandmother", "grandfather", "aunt", "uncle", "cousin", "niece", "nephew"],
  ...[
    "family",
    String.raw`(?:best\s+)?friends?`,
    "boss",
    "manager",
    "colleague",
    "doctor",
    "dentist",
    "dog",
    "cat",
  ],
].join("|");
/** The same in Hebrew, as said with "my": "אחותי", "הבן שלי", "אמא שלי". */
const HE_RELATION_WORDS = [
  ...["אחותי", "אחי", "אשתי", "בעלי", "בתי", "בני", "אמי", "אבי", "הורי", "ילדיי", "ילדי", "חברתי", "חברי"],
  "(?:ה)?(?:בן|בת|אמא|אבא|ילדים|הורים|אחות|אח|סבא|סבתא|דוד|דודה|חבר|חברה|בוס|רופא|רופאה|כלב|חתול|משפחה|בן הזוג|בת הזוג) (?:שלי|שלנו)",
].join("|");
/**
 * Questions about what the user told Memo before or what was true at a past time, asked as the
 * whole message: "where did I live in March?", "what did we decide about the trip?", "what do you
 * remember about my sister?", "where do I live?", "מה אמרתי על התקציב בחודש שעבר?", "איפה גרתי
 * במרץ?", "מה החלטנו על החופשה?". Past tense only ("what do I choose?" and "where do I work
 * tomorrow?" are not about memory), about the user's own life, one question and no request beside
 * it ("…and add milk" goes to the planner). Answered from memory, without a model.
 */
const RECALL = [
  new RegExp(
    String.raw`^${EN_LEAD}(?:what|where|who|when|which|how much|how many)\s+(?:did\s+(?:i|we)\s+(?:say|tell you|mention|decide|agree on|agree|choose|pick|live|work|stay|move|buy|pay)|have\s+(?:i|we)\s+(?:said|told you|mentioned|decided|agreed|chosen|picked))\b[^,;?.!]*$`,
    "iu",
  ),
  new RegExp(String.raw`^${EN_LEAD}where\s+do\s+(?:i|we)\s+(?:live|work)$`, "iu"),
  new RegExp(
    String.raw`^${EN_LEAD}what\s+(?:do|did)\s+you\s+(?:know|remember|recall)\s+about\s+(?:my|our)\s+(?:${RELATION_WORDS})\b[^,;?.!]*$`,
    "iu",
  ),
  new RegExp(
    String.raw`^${HE_LEAD}(?:מה|איפה|מי|מתי|איזה|איזו|כמה)\s+(?:אמרתי|אמרנו|סיפרתי|סיפרנו|החלטתי|החלטנו|סיכמנו|בחרתי|בחרנו|גרתי|גרנו|עבדתי|עבדנו)(?:\s+לך)?\s+(?:(?:על|לגבי)\s[^,;?.!]*|ב-?[^\s,;?.!]+(?:\s[^,;?.!]*)?)$`,
    "u",
  ),
  new RegExp(String.raw`^${HE_LEAD}(?:איפה|מתי|כמה זמן)\s+(?:גרתי|גרנו|עבדתי|עבדנו)(?:\s[^,;?.!]*)?$`, "u"),
  new RegExp(String.raw`^${HE_LEAD}איפה (?:אני גר|אני גרה|אנחנו גרים|אני עובד|אני עובדת)$`, "u"),
  new RegExp(
    String.raw`^${HE_LEAD}מה (?:אתה|את) (?:יודע|יודעת|זוכר|זוכרת) (?:על|לגבי) (?:${HE_RELATION_WORDS})(?:\s[^,;?.!]*)?$`,
    "u",
  ),
];

/** Words of a coming day: "what do you know about my flight tomorrow?" is about the calendar. */
const FUTURE_WORDS =
  /\b(?:tomorrow|tonight|next|upcoming|later)\b|(?:^|\s)(?:מחר|הערב|בשבוע הבא|בחודש הבא|הבא|הבאה)(?:\s|$)/iu;

/** A request beside the question ("… and add milk", "… וגם תוסיף"): the question is not the whole message. */
const ANOTHER_REQUEST =
  /\b(?:and|also|then|plus)\s+(?:add|remind|create|delete|remove|put|send|email|e-mail|forward|text|share|tell|set|book|schedule|call|make|show)\b|(?:^|\s)(?:וגם|ואז|ותוסיף|ותוסיפי|ותזכיר|ותזכירי|ותמחק|ותמחקי|ותשלח|ותשלחי|ותעביר|ותעבירי|ותשתף|ותשתפי|ותקבע|ותקבעי)(?:\s|$)/iu;

/** A note that is also to be sent on: "… and email it to Dana", "… ותשלח את זה לדנה". */
const SEND_THE_NOTE =
  /\b(?:and|then|also)\s+(?:send|email|e-mail|forward|text|share)\s+(?:it|this|that)\b|(?:^|\s)(?:ותשלח|ותשלחי|ותעביר|ותעבירי|ותשתף|ותשתפי)\s+(?:את\s+)?(?:זה|זאת|אותו|אותה)(?:\s|$)/iu;

/** "Forget everything", "תשכח הכל"… */
const FORGET_EVERYTHING = [
  new RegExp(
    String.raw`^${EN_LEAD}(?:forget (?:everything|all)(?: (?:about|of) me| you know(?: about me)?| you remember(?: about me)?)?|(?:erase|delete|wipe|clear) (?:all )?(?:your|my) memor(?:y|ies)(?: of me| about me)?|(?:erase|delete|wipe) everything you (?:know|remember) about me)$`,
    "iu",
  ),
  new RegExp(
    String.raw`^${HE_LEAD}(?:(?:תשכח|תשכחי|שכח|שכחי)(?: את)? (?:הכל|הכול|כל מה ש(?:אתה|את) (?:יודע|יודעת|זוכר|זוכרת)(?: עליי| עלי)?)(?: עליי| עלי)?|(?:תמחק|תמחקי|מחק|מחקי) את כל (?:הזיכרון|הזכרון|מה ש(?:אתה|את) (?:יודע|יודעת|זוכר|זוכרת)(?: עליי| עלי)?))$`,
    "u",
  ),
];

/**
 * "Forget that I like coffee", "forget I'm vegetarian", "תשכח שאני אוהב קפה": only a clause about
 * the user or what they said. "Forget that meeting" or "forget about the dentist" (a plan, a task)
 * is not taken here: the planner reads those whole.
 */
const EN_CLAUSE = String.raw`(?:i|i'm|i am|i've|i have|i'd|i was|i used to|my|me|we|we're|we are|our|what i (?:said|told you))\b`;
// A verb in the first person past ("עברנו", "החלטתי") says something the user told too.
const HE_CLAUSE = String.raw`(?:אני|אמרתי|סיפרתי|יש לי|אין לי|הייתי|היה לי|אנחנו|יש לנו|הבן שלי|הבת שלי|אשתי|בעלי|אחותי|אחי|אמא שלי|אבא שלי|(?!(?:שאלתי|ביקשתי|התכוונתי|חשבתי|דיברנו|קבענו|אמרנו|שאלנו)(?!\p{L}))\p{L}{2,}(?:תי|נו))(?![\p{L}\p{N}])`;
const FORGET_THAT = [
  new RegExp(
    String.raw`^${EN_LEAD}(?:forget|don't remember|do not remember|stop remembering) (?:that |about (?:the fact )?that )?(${EN_CLAUSE}.+)$`,
    "iu",
  ),
  new RegExp(
    String.raw`^${HE_LEAD}(?:תשכח|תשכחי|שכח|שכחי)(?: את זה)? (?:ש|על זה ש|מזה ש|מה ש)(${HE_CLAUSE}.*)$`,
    "u",
  ),
  // "forget that the wifi password is hunter2": a statement (X is Y) the user told Memo to keep,
  // as "remember that …" / "note: …" keeps it. "Forget that meeting" says no "is": the planner's.
  new RegExp(String.raw`^${EN_LEAD}forget that (\S+(?: \S+)*? (?:is|are|was|were) \S.*)$`, "iu"),
  new RegExp(
    String.raw`^${HE_LEAD}(?:תשכח|תשכחי|שכח|שכחי) ש(\p{L}+(?: \S+)*? (?:הוא|היא|הם|הן|זה|זו) \S.*)$`,
    "u",
  ),
];
/** "forget 2", "forget #2", "תשכח את 2": item 2 of what Memo listed it remembers. */
const FORGET_NUMBER = [
  new RegExp(String.raw`^${EN_LEAD}forget (?:#|no\.? ?|number |item )?(\d{1,2})$`, "iu"),
  new RegExp(String.raw`^${HE_LEAD}(?:תשכח|תשכחי|שכח|שכחי)(?: את)? (?:מספר |#)?(\d{1,2})$`, "u"),
];

/**
 * "note: …", "note that …", "remember that …", "פתק: …", "תזכור ש…" — what follows is the note. A
 * bare "note" needs a colon or a dash ("note 2", "note this down" are not notes).
 */
const STORE = [
  new RegExp(
    String.raw`^${EN_LEAD}(?:(?:new |quick )?note(?: to self)?\s*[:\-–]|note to self|(?:add|save|take|make|write)(?: down)? (?:a |this )?note(?: that)?\s*[:\-–]?|(?:note|remember) that)\s*(.+)$`,
    "isu",
  ),
  new RegExp(
    String.raw`^${HE_LEAD}(?:(?:פתק|הערה)(?: חדש| חדשה)?\s*[:\-–]|(?:תרשום|רשום|תרשמי|רשמי|שמור|תשמור|תשמרי)(?: לי)? (?:פתק|הערה)(?:\s*[:\-–]| ש)?|(?:תרשום|רשום|תרשמי|רשמי)(?: לי)?\s*:|(?:תזכור|תזכרי|זכור|זכרי) (?:ש|את זה ש|את זה:))\s*(.+)$`,
    "su",
  ),
];

/** What a note is not: a question, or a word that only points ("this", "2"). */
const NOT_NOTE_CONTENT = /\?|^(?:\d{1,3}|this|that|it|this down|it down|down|זה|את זה)$/iu;

/** "my notes", "show my notes", "הפתקים שלי"… */
const LIST_NOTES = [
  new RegExp(
    String.raw`^${EN_LEAD}(?:(?:show|list|open|see)(?: me)? (?:all )?(?:my |the )?notes|(?:all )?my notes|notes)$`,
    "iu",
  ),
  new RegExp(
    String.raw`^${HE_LEAD}(?:(?:תראה|תראי|הראה|הצג|תציג)(?: לי)? (?:את )?(?:כל )?הפתקים(?: שלי)?|(?:כל )?הפתקים שלי|פתקים)$`,
    "u",
  ),
];

/** "search notes for X", "search notes X", "notes about X", "חפש בפתקים X"… — X is the query. */
const SEARCH_NOTES = [
  new RegExp(
    String.raw`^${EN_LEAD}(?:search|look|find)(?: in| through)? (?:my |the )?notes(?: for| about| on| with)? (.+)$`,
    "iu",
  ),
  new RegExp(
    String.raw`^${EN_LEAD}(?:find|show)(?: me)? (?:a |the |my )?notes? (?:about|on|with|for) (.+)$`,
    "iu",
  ),
  new RegExp(String.raw`^${EN_LEAD}(?:my )?notes (?:about|on) (.+)$`, "iu"),
  new RegExp(
    String.raw`^${HE_LEAD}(?:חפש|תחפש|חפשי|תחפשי|מצא|תמצא|תמצאי)(?: לי)? (?:ב|את ה|בתוך ה)?פתקים?(?: שלי)? (?:על |של |עם |ל)?(.+)$`,
    "u",
  ),
  new RegExp(String.raw`^${HE_LEAD}(?:ה)?פתקים(?: שלי)? (?:על|לגבי|בנושא) (.+)$`, "u"),
];

/** "delete note 2", "תמחק פתק 2": note 2 of the last notes listing. */
const DELETE_NOTE_NUMBER = [
  new RegExp(
    String.raw`^${EN_LEAD}(?:delete|remove|erase) (?:the )?note (?:#|no\.? ?|number )?(\d{1,3})$`,
    "iu",
  ),
  new RegExp(
    String.raw`^${HE_LEAD}(?:תמחק|מחק|תמחקי|מחקי|הסר|תסיר|תסירי) (?:את )?(?:ה)?פתק (?:מספר |#)?(\d{1,3})$`,
    "u",
  ),
];
/** "delete the note about Dana", "תמחק את הפתק על דנה": the note those words name. */
const DELETE_NOTE_ABOUT = [
  new RegExp(
    String.raw`^${EN_LEAD}(?:delete|remove|erase) (?:the |my )?note (?:about|on|with|that says) (.+)$`,
    "iu",
  ),
  new RegExp(
    String.raw`^${HE_LEAD}(?:תמחק|מחק|תמחקי|מחקי|הסר|תסיר|תסירי) (?:את )?(?:ה)?פתק (?:על|של|עם|לגבי) (.+)$`,
    "u",
  ),
];

/** "my documents", "show my files", "המסמכים שלי": the documents kept as notes. */
const LIST_DOCUMENTS = [
  new RegExp(
    String.raw`^${EN_LEAD}(?:(?:show|list|open|see)(?: me)? (?:all )?(?:my |the )?(?:documents|docs|files|pdfs)|(?:all )?my (?:documents|docs|files|pdfs)|documents)$`,
    "iu",
  ),
  new RegExp(
    String.raw`^${HE_LEAD}(?:(?:תראה|תראי|הראה|הצג|תציג)(?: לי)? (?:את )?(?:כל )?(?:המסמכים|הקבצים)(?: שלי)?|(?:כל )?(?:המסמכים|הקבצים) שלי|מסמכים)$`,
    "u",
  ),
];

const EN_FORGET = "(?:forget|delete|remove|erase)";
const HE_FORGET = "(?:תשכח|תשכחי|שכח|שכחי|תמחק|תמחקי|מחק|מחקי|הסר|תסיר|תסירי)";
/** Words that name a kept document: "the school letter", "the invoice from the garage". */
const EN_DOCUMENT_NOUN =
  "(?:letter|document|doc|pdf|file|invoice|newsletter|form|contract|receipt|statement)s?";
const HE_DOCUMENT_NOUN = "(?:מכתב|מסמך|קובץ|חשבונית|עלון|טופס|חוזה|קבלה|ה-?pdf)";

/** "forget document 2", "תמחק מסמך 2": document 2 of the last listing. */
const FORGET_DOCUMENT_NUMBER = [
  new RegExp(
    String.raw`^${EN_LEAD}${EN_FORGET} (?:the )?(?:document|doc|file) (?:#|no\.? ?|number )?(\d{1,3})$`,
    "iu",
  ),
  new RegExp(String.raw`^${HE_LEAD}${HE_FORGET}(?: את)? (?:ה)?(?:מסמך|קובץ) (?:מספר |#)?(\d{1,3})$`, "u"),
];
/**
 * "forget the school letter", "delete the invoice from the garage", "תשכח את המכתב מבית הספר":
 * the words name a document (they say letter, document, file…); which one is found among the
 * documents only, asked when several fit.
 */
const FORGET_DOCUMENT = [
  new RegExp(
    String.raw`^${EN_LEAD}${EN_FORGET} (?:the |my |that |this )?((?:(?!(?:about|from|of|for|on|with|to|and) )[\p{L}'’-]+ ){0,2}${EN_DOCUMENT_NOUN}(?: (?:about|from|of|for|on|with) .+)?)$`,
    "iu",
  ),
  new RegExp(String.raw`^${HE_LEAD}${HE_FORGET}(?: את)? (ה?${HE_DOCUMENT_NOUN}(?:\s.+)?)$`, "iu"),
];

/**
 * Words that name something else than a document (a task, a reminder, an event, a list, a note):
 * "delete the reminder to pay the invoice" is about the reminder, never the invoice.
 */
const NOT_A_DOCUMENT =
  /(?<![\p{L}])(?:tasks?|reminders?|remind|events?|appointments?|meetings?|lists?|notes?|to-?dos?|items?|alarms?|ה?משימ(?:ה|ות|ת)|ה?תזכור(?:ת|ות)|ה?אירוע(?:ים)?|ה?פגיש(?:ה|ות|ת)|ה?רשימ(?:ה|ות|ת)|ה?פתק(?:ים)?|ה?הער(?:ה|ות))(?![\p{L}])/iu;

/**
 * A question about what a kept document says: "what did the school letter say about the trip?",
 * "what does the invoice say?", "מה כתוב במכתב מבית הספר על הטיול?". Searched in the notes (a
 * document's chunks are notes) with the words naming it and the topic; the answer quotes the
 * document and page, by the model when there is one.
 */
const DOCUMENT_QUESTION = [
  new RegExp(
    String.raw`^${EN_LEAD}(?:what|when|where|how much|which|who)(?: \p{L}+)? (?:did|does|do) (?:the |my |that |this )?((?:[\p{L}\p{N}'’-]+ ){0,5})${EN_DOCUMENT_NOUN} (?:say|write|mention|tell(?: me| us)?)(?: (?:about|on|regarding) (.+))?$`,
    "iu",
  ),
  new RegExp(
    String.raw`^${HE_LEAD}(?:מה|מתי|איפה|כמה|מי)\s+(?:כתוב|נכתב|היה כתוב|כתבו|אומר|אמרו|מופיע)\s+(?:ב-?|ב־)?ה?${HE_DOCUMENT_NOUN}((?:\s(?!על\s|לגבי\s)\S+){0,5})(?:\s+(?:על|לגבי)\s+(.+))?$`,
    "iu",
  ),
];

/** The words to search for in a question about a document: its naming words and its topic. */
function documentQuestion(text: string): string | null {
  for (const pattern of DOCUMENT_QUESTION) {
    const match = pattern.exec(text);
    if (!match) continue;
    const query = [match[1] ?? "", match[2] ?? ""].join(" ").replace(/\s+/g, " ").trim();
    return query || null;
  }
  return null;
}

/** A reminder in note's clothing: the planner's rule 2 makes it a task, so it is left to the planner. */
/** The plan actions that name remembered things: their exchanges stay out of long-term history. */
export const MEMORY_ACTIONS: ReadonlySet<string> = new Set([
  "list_memories",
  "forget_memory",
  "forget_everything",
]);

/**
 * Whether a request is a reminder or task rather than a note (planner rule 2): it says "remind",
 * or it names a time without being an explicit note ("note: the shop opens at 9" stays a note;
 * "remember to call the bank tomorrow at 9" is a task).
 */
export function isReminderRequest(text: string, nowMs: number, timeZone: string): boolean {
  if (asksToBeReminded(text)) return true;
  if (noteContent(text) !== null) return false;
  return parseTime(text, nowMs, timeZone) !== null;
}

/** The note an explicit note command keeps ("note: X" → X), or null. */
function noteContent(message: string): string | null {
  const content = captured(
    STORE,
    message
      .replace(/\s+/g, " ")
      .trim()
      .replace(/^[\s\p{P}\p{S}]+/u, ""),
  );
  if (!content || NOT_NOTE_CONTENT.test(content.trim())) return null;
  return content;
}

function captured(patterns: RegExp[], text: string): string | null {
  for (const pattern of patterns) {
    const match = pattern.exec(text);
    if (match) return (match[1] ?? "").trim();
  }
  return null;
}

/**
 * The memory commands (what Memo remembers, forget…, forget everything): recognized always, even
 * with the fast path off, like "connect Google" — privacy requests never depend on a model.
 */
export function recognizeMemoryCommand(message: string): NoteCommand | null {
  const text = tidy(message);
  if (LIST_MEMORIES.some((p) => p.test(text)))
    return { action: "list_memories", functionName: "memory.list", args: {} };
  if (LIST_CHANGES.some((p) => p.test(text)))
    return { action: "list_memories", functionName: "memory.list", args: { history: true } };
  if (FORGET_EVERYTHING.some((p) => p.test(text))) {
    return { action: "forget_everything", functionName: "memory.forgetAll", args: {} };
  }
  const forget = captured(FORGET_THAT, text);
  if (forget) return { action: "forget_memory", functionName: "memory.forget", args: { query: forget } };
  const number = captured(FORGET_NUMBER, text);
  if (number)
    return { action: "forget_memory", functionName: "memory.forget", args: { query: `#${number}` } };
  return null;
}

/**
 * Plain note commands, when the fast path is on. A note that says "remind" goes to the planner,
 * which makes it a reminder (planner rule 2); one that only mentions a time is kept as the user
 * asked, and the reply says how to get a reminder instead.
 */
export function recognizeNoteCommand(message: string, nowMs: number, timeZone: string): NoteCommand | null {
  const text = tidy(message);
  if (RECALL.some((p) => p.test(text)) && !ANOTHER_REQUEST.test(text) && !FUTURE_WORDS.test(text))
    return { action: "recall_memory", functionName: "memory.recall", args: { question: text } };
  if (LIST_NOTES.some((p) => p.test(text))) {
    return { action: "list_notes", functionName: "notes.getAll", args: { operation: "getAll" } };
  }
  if (LIST_DOCUMENTS.some((p) => p.test(text))) {
    return {
      action: "list_notes",
      functionName: "notes.getAll",
      args: { operation: "getAll", documents: true },
    };
  }
  // "find my note with the wifi details and email it to the babysitter": a search, a question or
  // a delete is the message's whole request only when nothing else is asked beside it; otherwise
  // the planner plans both (a second request is never dropped).
  if (ANOTHER_REQUEST.test(text)) return storeCommand(message, nowMs, timeZone);
  const documentNumber = captured(FORGET_DOCUMENT_NUMBER, text);
  if (documentNumber) {
    return {
      action: "delete_note",
      functionName: "notes.delete",
      args: { operation: "delete", noteRef: `#${documentNumber}`, documents: true },
    };
  }
  const document = captured(FORGET_DOCUMENT, text);
  if (document && !NOT_A_DOCUMENT.test(document)) {
    return {
      action: "delete_note",
      functionName: "notes.delete",
      args: { operation: "delete", query: document, documents: true },
    };
  }
  const number = captured(DELETE_NOTE_NUMBER, text);
  if (number) {
    return {
      action: "delete_note",
      functionName: "notes.delete",
      args: { operation: "delete", noteRef: `#${number}` },
    };
  }
  const about = captured(DELETE_NOTE_ABOUT, text);
  if (about) {
    return {
      action: "delete_note",
      functionName: "notes.delete",
      args: { operation: "delete", query: about },
    };
  }
  const asked = documentQuestion(text);
  if (asked) {
    return {
      action: "search_notes",
      functionName: "notes.search",
      args: { operation: "search", query: asked },
    };
  }
  const query = captured(SEARCH_NOTES, text);
  if (query) {
    return { action: "search_notes", functionName: "notes.search", args: { operation: "search", query } };
  }
  return storeCommand(message, nowMs, timeZone);
}

/** "note: X" as a note command, or null when it is none or asks for more than keeping X. */
function storeCommand(message: string, nowMs: number, timeZone: string): NoteCommand | null {
  // The note keeps the user's own text (closing punctuation included), only the command words go.
  const content = noteContent(message);
  if (!content) return null;
  // "note: remind me…" asks for a reminder, "note: … and email it to Dana" for an email too: the
  // planner plans them. Other words of a note ("… and call him back") are the note's own.
  if (asksToBeReminded(content) || SEND_THE_NOTE.test(content)) return null;
  const namesTime = parseTime(content, nowMs, timeZone) !== null;
  return {
    action: "store_note",
    functionName: "notes.store",
    args: { operation: "store", content, ...(namesTime ? { namesTime: true as const } : {}) },
  };
}
