/**
 * "What can you do?" in its common English and Hebrew forms, the whole message: answered from the
 * capability list with no LLM call (and so also when no LLM is configured). Greetings and thanks
 * likewise get a short fixed reply.
 */
const HELP = [
  /^(help|menu|\?|commands)$/,
  /^(what|which) (can|could) (you|memo) (do|help( me)? with)( for me)?$/,
  /^what (do|are) you (do|able to do|good for)$/,
  /^what are your (capabilities|features|skills)$/,
  /^how (can|do) (you|i use you|memo) help( me)?$/,
  /^(עזרה|תפריט|פקודות)$/,
  /^מה (אתה|את|את\/ה) (יודע|יודעת|יכול|יכולה) לעשות( בשבילי)?$/,
  /^מה (אפשר|ניתן) לעשות (איתך|פה|כאן)$/,
  /^(במה|איך) (אתה|את) (יכול|יכולה) לעזור( לי)?$/,
];

/** A whole message that only greets: "hi", "good morning", "שלום"… */
const GREETING =
  /^(hi|hey|hello|hiya|yo|good (morning|afternoon|evening)|shalom|start|היי|הי|שלום|שלום לך|אהלן|הלו|בוקר טוב|ערב טוב|צהריים טובים|מה נשמע|מה קורה)( memo| ממו)?$/;
/** A whole message that only thanks. */
const THANKS =
  /^(thanks|thank you|thx|ty|thanks a lot|thank you so much|תודה|תודה רבה|תודה לך|תנקס|אלוף|מעולה תודה)( memo| ממו)?$/;

/** Lower case, trimmed, without surrounding punctuation or emoji. */
function normalize(text: string): string {
  return text
    .toLowerCase()
    .replace(/\s+/g, " ")
    .replace(/^[\s\p{P}\p{S}]+|[\s\p{P}\p{S}]+$/gu, "")
    .trim();
}

/** Whether the whole message asks what Memo can do. */
export function isHelpRequest(text: string): boolean {
  const normalized = normalize(text);
  if (normalized === "" && text.trim() === "?") return true;
  return HELP.some((pattern) => pattern.test(normalized));
}

/** Whether the whole message is a greeting. */
export function isGreeting(text: string): boolean {
  return GREETING.test(normalize(text));
}

/** Whether the whole message only thanks. */
export function isThanks(text: string): boolean {
  return THANKS.test(normalize(text));
}
