/**
 * The household commands of docs/HOUSEHOLD.md in their common English and Hebrew forms, the whole
 * message: read in code, with or without a model.
 */
export type HouseholdCommand =
  /** "add Dana 050-1234567 to my household": `phone` as typed. */
  | { kind: "invite"; name: string; phone: string }
  /** "my household", "who's in my household" */
  | { kind: "members" }
  /** "leave the household" */
  | { kind: "leave" }
  /** "remove Dana from the household"; `explicit` false for a bare "remove Dana" (only a member's name makes it one). */
  | { kind: "remove"; name: string; explicit: boolean }
  /** "stop" (after an invitation: no more from that person) */
  | { kind: "stop" }
  /** "accept" (typed instead of tapping Accept on an open invitation) */
  | { kind: "accept" }
  /** "share the shopping list with Dana" / "… with the household": `with` null for the household. */
  | {
      kind: "share";
      list: string;
      with: string | null;
      /** The words said "list" / "רשימה". */ saidList: boolean;
    }
  /** "stop sharing the shopping list" */
  | { kind: "unshare"; list: string }
  /** "create a shopping list for the household" */
  | { kind: "newSharedList"; list: string }
  /** "our tasks" */
  | { kind: "ourTasks" }
  /**
   * "Dana: call the plumber", "task for Dana: …": `target` is the words before the colon (only a
   * member's name makes it one).
   */
  | { kind: "assign"; target: string; text: string; explicit: boolean }
  /**
   * "remind Dana at 17:00 to pick up the kids": `rest` is what follows "remind" ("Dana at 17:00 …",
   * Hebrew: after "תזכיר ל"); the member's name is found at its start by the service.
   */
  | { kind: "remind"; rest: string; hebrew: boolean }
  /** "stop reminders from Yossi" / "allow reminders from Yossi" */
  | { kind: "reminders"; name: string; allow: boolean }
  /** "turn on list notices" / "turn off list notices" */
  | { kind: "listNotices"; on: boolean }
  /** "keep a copy" (of the shared lists lost by leaving) */
  | { kind: "keepCopy" };

/** A phone number as typed: digits with spaces, dashes, dots or brackets, maybe a leading + . */
const PHONE = String.raw`\(?(\+?\d[\d\s\-().]{4,}\d)\)?`;
const HOUSEHOLD_EN = String.raw`(?:my|our|the) household`;
/** "משק הבית" with the prefixes it takes here: ל (to), מ (from), את; and "שלי"/"שלנו". */
const HOUSEHOLD_HE = String.raw`משק הבית(?: שלי| שלנו)?`;
const POLITE_EN = String.raw`(?:(?:please|pls|memo|hey memo|can you|could you)[, ]+)*`;
const POLITE_HE = String.raw`(?:(?:בבקשה|ממו|תוכל|תוכלי)[, ]+)*`;
const ADD_EN = String.raw`(?:add|invite)`;
const ADD_HE = String.raw`(?:תוסיף|תוסיפי|הוסף|הוסיפי|להוסיף|תזמין|תזמיני|הזמן|הזמיני|להזמין)`;
const REMOVE_EN = String.raw`(?:remove|kick out|kick|take)`;
const REMOVE_HE = String.raw`(?:תוציא|תוציאי|הוצא|הוציאי|להוציא|תסיר|תסירי|הסר|הסירי|להסיר)`;

const INVITE = [
  new RegExp(String.raw`^${POLITE_EN}${ADD_EN} (.+?)[,:]? ${PHONE} (?:to|into|in) ${HOUSEHOLD_EN}$`),
  new RegExp(
    String.raw`^${POLITE_EN}${ADD_EN} (.+?) (?:to|into|in) ${HOUSEHOLD_EN}[,:]? (?:at |on )?${PHONE}$`,
  ),
  new RegExp(String.raw`^${POLITE_HE}${ADD_HE} (?:את )?(.+?)[,:]? ${PHONE} (?:ל|אל )${HOUSEHOLD_HE}$`),
  new RegExp(String.raw`^${POLITE_HE}${ADD_HE} (?:את )?(.+?) (?:ל|אל )${HOUSEHOLD_HE}[,:]? ${PHONE}$`),
];
const MEMBERS = [
  new RegExp(String.raw`^(?:show (?:me )?)?${HOUSEHOLD_EN}$`),
  new RegExp(String.raw`^who(?:'s| is| are) in ${HOUSEHOLD_EN}$`),
  /^household$/,
  new RegExp(String.raw`^(?:תראה לי (?:את )?)?${HOUSEHOLD_HE}$`),
  new RegExp(String.raw`^מי (?:נמצא |נמצאים )?ב${HOUSEHOLD_HE}$`),
];
const LEAVE = [
  new RegExp(String.raw`^${POLITE_EN}(?:i want to )?(?:leave|exit|quit) ${HOUSEHOLD_EN}$`),
  new RegExp(
    String.raw`^${POLITE_HE}(?:אני רוצה )?(?:עזוב|עזבי|לעזוב|אני עוזב|אני עוזבת|צא|צאי|לצאת|אני יוצא|אני יוצאת) (?:את |מ)${HOUSEHOLD_HE}$`,
  ),
];
const REMOVE_EXPLICIT = [
  new RegExp(String.raw`^${POLITE_EN}${REMOVE_EN} (.+?) (?:out of|from|off) ${HOUSEHOLD_EN}$`),
  new RegExp(String.raw`^${POLITE_HE}${REMOVE_HE} (?:את )?(.+?) מ${HOUSEHOLD_HE}$`),
];
const REMOVE_BARE = [
  new RegExp(String.raw`^${POLITE_EN}(?:remove|kick out) (.+)$`),
  new RegExp(String.raw`^${POLITE_HE}${REMOVE_HE} (?:את )?(.+)$`),
];
const STOP = /^(?:stop|block|no more|unsubscribe|עצור|עצרי|הפסק|הפסיקי|די|סטופ|תפסיק|תפסיקי)$/;

const ACCEPT =
  /^(?:accept|i accept|join|i'?ll join|אישור|מאשר|מאשרת|אני מאשר|אני מאשרת|מצטרף|מצטרפת|אני מצטרף|אני מצטרפת)$/;

const LIST_EN = String.raw`(?:the |my |our )?(.+?)(?: list)?`;
const LIST_HE = String.raw`(?:את )?(?:ה)?(?:רשימת |רשימה |הרשימה )?(.+?)`;
const SHARE = [
  new RegExp(String.raw`^${POLITE_EN}share ${LIST_EN} with (.+)$`),
  new RegExp(String.raw`^${POLITE_HE}(?:תשתף|שתף|תשתפי|שתפי|לשתף) ${LIST_HE} עם (.+)$`),
];
const UNSHARE = [
  new RegExp(String.raw`^${POLITE_EN}(?:stop sharing|unshare) ${LIST_EN}$`),
  new RegExp(String.raw`^${POLITE_HE}(?:תפסיק|הפסק|תפסיקי|הפסיקי) לשתף ${LIST_HE}$`),
];
/** Who a list is shared with, when it is the household itself rather than a person. */
const WHOLE_HOUSEHOLD = new RegExp(
  String.raw`^(?:${HOUSEHOLD_EN}|household|everyone|everybody|the family|my family|(?:ה)?${HOUSEHOLD_HE}|כולם|המשפחה)$`,
);
const NEW_SHARED_LIST = [
  new RegExp(
    String.raw`^${POLITE_EN}(?:create|make|start|open|new) (?:a )?(?:new )?(?:shared )?(?:list (.+?)|(.+?) list) for ${HOUSEHOLD_EN}$`,
  ),
  new RegExp(
    String.raw`^${POLITE_HE}(?:תיצור|צור|תיצרי|צרי|תפתח|פתח|תפתחי|פתחי) (?:רשימת |רשימה )(?:חדשה )?(.+?) (?:ל|עבור )${HOUSEHOLD_HE}$`,
  ),
];
const OUR_TASKS = [
  /^(?:show (?:me )?)?(?:our|household|the household'?s|shared) tasks$/,
  new RegExp(String.raw`^(?:תראה לי )?(?:את )?(?:ה)?משימות (?:שלנו|של ${HOUSEHOLD_HE}|המשותפות)$`),
];
/** Up to three words of letters (a name), and words before a colon that are never a member's name. */
const NAME_LIKE = /^[\p{L}'’-]+(?: [\p{L}'’-]+){0,2}$/u;
const NOT_A_NAME =
  /^(?:note|notes|todo|to do|reminder|task|tasks|memo|re|fw|fwd|ps|http|https|mailto|subject|פתק|הערה|תזכורת|משימה|משימות)$/;

/** "task for Dana: …" / "משימה לדנה: …" (explicit), or a bare "Dana: …"; group 1 the prefix, 2 the name. */
const ASSIGN = [/^((?:a )?task for )?([^:\n]{1,40}):\s*(.+)$/, /^(משימה (?:ל|עבור ))([^:\n]{1,40}):\s*(.+)$/];
const REMIND_OTHER = [
  new RegExp(String.raw`^${POLITE_EN}remind (?!(?:me|us|myself)(?: |$))(.+)$`),
  new RegExp(String.raw`^${POLITE_HE}(?:תזכיר|תזכירי|הזכר|הזכירי|להזכיר) ל(?!(?:י|נו)(?: |$))(.+)$`),
];
const REMINDERS_FROM = [
  {
    allow: false,
    pattern: new RegExp(String.raw`^${POLITE_EN}(?:stop|block|no more|turn off) reminders from (.+)$`),
  },
  {
    allow: true,
    pattern: new RegExp(String.raw`^${POLITE_EN}(?:allow|unblock|resume|turn on) reminders from (.+)$`),
  },
  {
    allow: false,
    pattern: new RegExp(
      String.raw`^${POLITE_HE}(?:תפסיק|הפסק|תפסיקי|עצור|עצרי|תחסום|חסום|תחסמי) (?:את )?(?:ה)?תזכורות (?:מ|של )(.+)$`,
    ),
  },
  {
    allow: true,
    pattern: new RegExp(
      String.raw`^${POLITE_HE}(?:תאפשר|אפשר|תאפשרי|תחזיר|תחזירי|תפתח|פתח) (?:את )?(?:ה)?תזכורות (?:מ|של )(.+)$`,
    ),
  },
];
const LIST_NOTICES = [
  {
    on: true,
    pattern:
      /^(?:turn on|start|enable) (?:shared )?list (?:notices|notifications|updates)$|^notify me (?:about|of) (?:shared )?list changes$/,
  },
  { on: false, pattern: /^(?:turn off|stop|disable) (?:shared )?list (?:notices|notifications|updates)$/ },
  { on: true, pattern: /^(?:תעדכן|עדכן|תעדכני|עדכני) אותי על שינויים ב(?:ה)?רשימות(?: המשותפות)?$/ },
  {
    on: false,
    pattern: /^(?:תפסיק|הפסק|תפסיקי|הפסיקי) לעדכן(?: אותי)? על (?:שינויים ב)?(?:ה)?רשימות(?: המשותפות)?$/,
  },
];
const KEEP_COPY =
  /^(?:please )?keep (?:a )?cop(?:y|ies)(?: please)?$|^(?:תשמור|שמור|תשמרי|שמרי) (?:לי )?(?:עותק|העתק)$/;

/** Lower case, one space, without surrounding punctuation (a phone's brackets and + stay). */
function normalize(text: string): string {
  return text
    .toLowerCase()
    .replace(/\s+/g, " ")
    .replace(/^[\s.,!?;:"'“”]+|[\s.,!?;:"'“”]+$/g, "")
    .trim();
}

/** The household command of a whole message, or null. */
export function recognizeHouseholdCommand(text: string): HouseholdCommand | null {
  const normalized = normalize(text);
  if (normalized === "") return null;
  for (const pattern of INVITE) {
    const m = pattern.exec(normalized);
    if (m?.[1] && m[2]) {
      // The name as the user wrote it (case kept), from the original message.
      return { kind: "invite", name: originalName(text, m[1]), phone: m[2].trim() };
    }
  }
  if (MEMBERS.some((p) => p.test(normalized))) return { kind: "members" };
  if (OUR_TASKS.some((p) => p.test(normalized))) return { kind: "ourTasks" };
  if (KEEP_COPY.test(normalized)) return { kind: "keepCopy" };
  for (const { on, pattern } of LIST_NOTICES)
    if (pattern.test(normalized)) return { kind: "listNotices", on };
  for (const { allow, pattern } of REMINDERS_FROM) {
    const m = pattern.exec(normalized);
    if (m?.[1]) return { kind: "reminders", name: originalName(text, m[1]), allow };
  }
  for (const pattern of NEW_SHARED_LIST) {
    const m = pattern.exec(normalized);
    const name = m?.[1] ?? m?.[2];
    if (name) return { kind: "newSharedList", list: originalName(text, name) };
  }
  for (const pattern of UNSHARE) {
    const m = pattern.exec(normalized);
    if (m?.[1]) return { kind: "unshare", list: originalName(text, m[1]) };
  }
  for (const pattern of SHARE) {
    const m = pattern.exec(normalized);
    if (m?.[1] && m[2]) {
      const who = m[2].trim();
      return {
        kind: "share",
        list: originalName(text, m[1]),
        with: WHOLE_HOUSEHOLD.test(who) ? null : originalName(text, who),
        saidList: /(?:^| )list(?: |$)|רשימ/.test(normalized),
      };
    }
  }
  for (const [i, pattern] of REMIND_OTHER.entries()) {
    const m = pattern.exec(normalized);
    if (m?.[1]) return { kind: "remind", rest: originalName(text, m[1]), hebrew: i === 1 };
  }
  for (const pattern of [ASSIGN[1]!, ASSIGN[0]!]) {
    const m = pattern.exec(normalized);
    if (m?.[2] && m[3]) {
      const target = m[2].trim();
      // Only what can be a person's name is looked up: not "remind me at 10:30", "https://…", "note: …".
      if (!NAME_LIKE.test(target) || NOT_A_NAME.test(target)) continue;
      return {
        kind: "assign",
        target: originalName(text, target),
        text: originalName(text, m[3]),
        explicit: !!m[1],
      };
    }
  }
  if (LEAVE.some((p) => p.test(normalized))) return { kind: "leave" };
  for (const pattern of REMOVE_EXPLICIT) {
    const m = pattern.exec(normalized);
    if (m?.[1]) return { kind: "remove", name: originalName(text, m[1]), explicit: true };
  }
  for (const pattern of REMOVE_BARE) {
    const m = pattern.exec(normalized);
    if (m?.[1]) return { kind: "remove", name: originalName(text, m[1]), explicit: false };
  }
  if (STOP.test(normalized)) return { kind: "stop" };
  if (ACCEPT.test(normalized)) return { kind: "accept" };
  return null;
}

/** `lowered` as it appears in `text`, with the user's capitals ("Dana", not "dana"). */
function originalName(text: string, lowered: string): string {
  const flat = text.replace(/\s+/g, " ");
  const at = flat.toLowerCase().indexOf(lowered);
  return (at >= 0 ? flat.slice(at, at + lowered.length) : lowered).trim();
}
