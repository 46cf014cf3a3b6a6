import type { Logger } from "../../utils/logger.js";
import type { LLMService } from "../../types/llm.js";
import { NOTES_ANSWER_PROMPT, NOTES_SUMMARY_PROMPT } from "../../prompts/notesAnswerPrompt.js";
import type { StoredNote } from "./ports.js";
import { quoteOf } from "./replies.js";

/** The longest answer or summary sent to WhatsApp. */
const MAX_ANSWER_CHARS = 900;
/** Characters of each note the model reads. */
const MODEL_CHARS_PER_NOTE = 1500;

/** Whether a message asks something (and so deserves an answer above the notes found). */
export function isQuestion(message: string): boolean {
  return (
    /\?\s*$/.test(message.trim()) ||
    /^(what|what's|whats|where|when|who|which|how|do i|did i|is|are|מה|איפה|מתי|מי|איזה|איזו|כמה|האם|איך)(?![\p{L}\p{N}])/iu.test(
      message.trim(),
    )
  );
}

/**
 * The notes for the model, each fenced as <note id="N">…</note> (cited as [N]): their text is data
 * (D14), and a note cannot close its own fence.
 */
function numbered(notes: StoredNote[]): string {
  return notes
    .map((n, i) => {
      const text = n.content
        .slice(0, MODEL_CHARS_PER_NOTE)
        .replace(/<\/?note\b/gi, (tag) => tag.replace("<", "‹"));
      return `<note id="${i + 1}">\n${text}\n</note>`;
    })
    .join("\n");
}

/**
 * The model's text with only citations of notes that were given: "[7]" when there are three
 * notes is removed, so every citation the user reads points at a quoted note. Null when nothing
 * is cited at all (the answer could not be checked against the notes).
 */
function checkedCitations(text: string, count: number): string | null {
  let cited = 0;
  const cleaned = text.replace(/\[(\d{1,2})\]/g, (whole, n: string) => {
    const i = Number(n);
    if (i >= 1 && i <= count) {
      cited++;
      return whole;
    }
    return "";
  });
  const trimmed = cleaned.replace(/[ \t]+\n/g, "\n").trim();
  if (cited === 0 || trimmed === "") return null;
  return trimmed.length > MAX_ANSWER_CHARS ? `${trimmed.slice(0, MAX_ANSWER_CHARS - 1)}…` : trimmed;
}

interface AnswerOptions {
  llm: LLMService | null;
  language: "he" | "en";
  logger?: Logger;
}

/**
 * An answer to the user's question from the notes found, citing them ("… [2]"), or undefined
 * without a model, when the model fails, or when its answer cites no note: the notes are quoted
 * below it either way, so the user can always check.
 */
export async function answerFromNotes(
  question: string,
  notes: StoredNote[],
  { llm, language, logger }: AnswerOptions,
): Promise<string | undefined> {
  if (!llm || notes.length === 0) return undefined;
  try {
    const { value } = await llm.text("resolver:second-brain", [
      { role: "system", content: NOTES_ANSWER_PROMPT },
      {
        role: "user",
        content: `Language: ${language === "he" ? "Hebrew" : "English"}\nQuestion: ${question}\n\nNotes:\n${numbered(notes)}`,
      },
    ]);
    return checkedCitations(value, notes.length) ?? undefined;
  } catch (error) {
    // The notes and the question are the user's own words: only that it failed is logged.
    logger?.warn({ event: "NOTES_ANSWER_FAILED", err: (error as Error).name }, "answer from notes failed");
    return undefined;
  }
}

/** A summary of notes citing them, by the model when there is one; otherwise their first lines. */
export async function summarizeNotes(
  notes: StoredNote[],
  { llm, language, logger }: AnswerOptions,
): Promise<string> {
  const extractive = () => notes.map((n, i) => `• ${quoteOf(n.content, 80)} [${i + 1}]`).join("\n");
  if (!llm || notes.length === 0) return extractive();
  try {
    const { value } = await llm.text("resolver:second-brain", [
      { role: "system", content: NOTES_SUMMARY_PROMPT },
      {
        role: "user",
        content: `Language: ${language === "he" ? "Hebrew" : "English"}\n\nNotes:\n${numbered(notes)}`,
      },
    ]);
    return checkedCitations(value, notes.length) ?? extractive();
  } catch (error) {
    logger?.warn({ event: "NOTES_SUMMARY_FAILED", err: (error as Error).name }, "notes summary failed");
    return extractive();
  }
}
