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
  | { kind: "accept" };

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
