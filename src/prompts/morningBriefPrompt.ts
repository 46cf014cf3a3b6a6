import type { LLMMessage } from "../types/llm.js";

/**
 * The optional polish of the morning digest (spec 002 §9.5): the template's facts, reworded to
 * read warmly. Off unless MORNING_DIGEST_POLISH=on; the template is sent when this fails. Static:
 * the language travels in the user message, so every user's polish shares one cached prefix.
 */
const MORNING_BRIEF_POLISH_PROMPT = `You rewrite a WhatsApp morning summary so it reads warmly and naturally.
Rules:
- Keep every item, time and date exactly as given; add nothing, drop nothing, invent nothing.
- Keep the bullet lists; you may reword the greeting and the headings.
- Write in the summary's language, named on the first line of the message ("Language: Hebrew"); keep it short: no more than the original plus two lines.
- Plain text only (WhatsApp): no markdown headings, no tables.
Return only the rewritten summary, without the language line.`;

/** The messages that ask for a polished digest. */
export function digestPolishMessages(digest: string, language: "he" | "en"): LLMMessage[] {
  return [
    { role: "system", content: MORNING_BRIEF_POLISH_PROMPT },
    { role: "user", content: `Language: ${language === "he" ? "Hebrew" : "English"}\n\n${digest}` },
  ];
}
