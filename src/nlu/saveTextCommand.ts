/**
 * "save it" / "save that" / "תשמור" / "תשמור את זה" after a forwarded message or a long pasted text
 * (issue 37): the user asks to keep that text as a note. Read whole: a message that says anything
 * more ("save it for Sunday") is not this command.
 */
const SAVE_IT =
  /^(?:please\s+)?(?:(?:save|store)(?:\s+(?:it|that|this|this one|that one))?|note\s+(?:it|that|this))(?:\s+(?:as a note|in my notes|to my notes))?(?:\s+please)?$|^(?:בבקשה\s+)?(?:תשמור|תשמרי|שמור|שמרי|תרשום|תרשמי)(?:\s+(?:את\s+)?(?:זה|זאת|הזה|ההודעה))?(?:\s+(?:בפתקים|כפתק|בצד))?(?:\s+בבקשה)?$/iu;

/** Whether `text` is a "save it" command. */
export function isSaveTextCommand(text: string): boolean {
  const said = text
    .toLowerCase()
    .replace(/\s+/gu, " ")
    .replace(/[\s.!?…,\p{Extended_Pictographic}\uFE0F]+$/u, "")
    .trim();
  return SAVE_IT.test(said);
}
