import type { LLMMessage } from "../types/llm.js";

/**
 * The optional polish of the morning digest (spec 002 §9.5): the template's facts, reworded to
 * read warmly. Off unless MORNING_DIGEST_POLISH=on; the template is sent when this fails.
 */
const MORNING_BRIEF_POLISH_PROMPT = `You rewrite a WhatsApp morning summary so it reads warmly and naturally.
Rules:
- Keep every item, time and date exactly as given; add nothing, drop nothing, invent nothing.
- Keep the bullet lists; you may reword the greeting and the headings.
- Write in the summary's language ({language}); keep it short: no more than the original plus two lines.
- Plain text only (WhatsApp): no markdown headings, no tables.
Return only the rewritten summary.`;

/** The messages that ask for a polished digest. */
export function digestPolishMessages(digest: string, language: "he" | "en"): LLMMessage[] {
  return [
    {
      role: "system",
      content: MORNING_BRIEF_POLISH_PROMPT.replace("{language}", language === "he" ? "Hebrew" : "English"),
    },
    { role: "user", content: digest },
  ];
}
