import type { Logger } from "../../utils/logger.js";
import type { LLMService } from "../../types/llm.js";
import { EMAIL_THREAD_SUMMARY_PROMPT } from "../../prompts/emailThreadSummaryPrompt.js";
import type { EmailMessage } from "./gmailService.js";
import { t } from "../../messages/index.js";
import { shorten } from "./replies.js";

/** The longest summary sent to WhatsApp. */
const MAX_SUMMARY_CHARS = 1200;
/** Characters of each message the model reads (the newest text of a message comes first). */
const MODEL_CHARS_PER_MESSAGE = 2000;
/** Messages the model reads: the newest ones. */
const MODEL_MESSAGES = 15;
/** Messages an extractive summary names. */
const EXTRACT_MESSAGES = 5;

/** The message's own words: quoted history ("On … wrote:", "> …", forwarded originals) left out. @internal */
export function freshText(body: string): string {
  const lines = body.split(/\r?\n/);
  const end = lines.findIndex(
    (line) =>
      /^\s*>/.test(line) ||
      /^\s*On .+wrote:\s*$/i.test(line) ||
      /^\s*ב?תאריך .+(כתב|כתבה)\s*:?\s*$/.test(line) ||
      /^\s*-{2,}\s*(Original Message|Forwarded message|הודעה מקורית)/i.test(line),
  );
  return (end < 0 ? lines : lines.slice(0, end)).join("\n").trim();
}

/** First name of a sender, for "who said what". */
const firstName = (from: string) => from.split(/[\s@]/)[0] || from;

/** Without a model: who said what in the newest messages (their first line), and the last message in full, bounded. @internal */
export function extractiveSummary(
  messages: EmailMessage[],
  language: "he" | "en",
  when: (iso: string) => string,
): string {
  const recent = messages.slice(-EXTRACT_MESSAGES);
  const last = recent.at(-1);
  if (!last) return "";
  const lines = recent.slice(0, -1).map((m) => {
    const first =
      freshText(m.body)
        .split("\n")
        .find((l) => l.trim()) ?? "";
    return `• *${firstName(m.from)}*${m.date ? ` (${when(m.date)})` : ""}: ${shorten(first.trim(), 140, language)}`;
  });
  const earlier = messages.length - recent.length;
  if (earlier > 0) lines.unshift(t(language, "gmail.earlierMessages", { count: earlier }));
  const lastHeader = `${t(language, "gmail.latest")}: *${last.from}*${last.date ? ` (${when(last.date)})` : ""}`;
  const budget = Math.max(300, MAX_SUMMARY_CHARS - lines.join("\n").length - lastHeader.length);
  return [...lines, "", lastHeader, shorten(freshText(last.body), budget, language)].join("\n").trim();
}

/**
 * A long conversation condensed for WhatsApp: by the model when one is configured (it only
 * condenses text already fetched; it decides nothing), else extractively. Never logs the text.
 */
export async function summarizeThread(
  messages: EmailMessage[],
  options: {
    llm: LLMService | null;
    language: "he" | "en";
    when: (iso: string) => string;
    logger: Logger;
  },
): Promise<string> {
  const { llm, language, when, logger } = options;
  if (llm) {
    const transcript = messages
      .slice(-MODEL_MESSAGES)
      .map(
        (m) =>
          `From: ${m.from}${m.date ? ` (${when(m.date)})` : ""}\n${freshText(m.body).slice(0, MODEL_CHARS_PER_MESSAGE)}`,
      )
      .join("\n\n---\n\n");
    try {
      const { value } = await llm.text("resolver:gmail", [
        { role: "system", content: EMAIL_THREAD_SUMMARY_PROMPT },
        {
          role: "user",
          content: `Language: ${language === "he" ? "Hebrew" : "English"}\nSubject: ${messages[0]?.subject ?? ""}\n\n${transcript}`,
        },
      ]);
      return shorten(value.trim(), MAX_SUMMARY_CHARS, language);
    } catch (error) {
      // The model failed: the extractive summary still answers. The error, not the text, is logged.
      logger.warn(
        { capability: "gmail", err: error instanceof Error ? error.name : "unknown" },
        "thread summary by model failed",
      );
    }
  }
  return extractiveSummary(messages, language, when);
}
