import { z } from "zod";
import { operationLines, operationNames } from "../contracts/contract.js";
import { gmailContract } from "../contracts/gmail.js";
import { FROM_STEP_FIELD } from "./resolverMessagesPrompt.js";

/** The gmail operations of the gmail contract (issue 8). */
const GMAIL_OPERATIONS = operationNames(gmailContract, "gmail");

/** Which existing email the user means, in their words; never an id. Code searches the mailbox. */
const EmailReferenceSchema = z.object({
  handle: z
    .string()
    .nullish()
    .describe('"#N" for email N of the list Memo showed last, "@N" for latest action N'),
  from: z.string().nullish().describe("the sender's name or address as the user said it"),
  subject: z.string().nullish().describe("words of the subject"),
  words: z.string().nullish().describe("other words the email is about"),
});

/** GmailResolver's structured output. Optional fields also take null: models often send it. */
export const GmailOperationSchema = z.object({
  operation: z.enum(GMAIL_OPERATIONS),
  ...FROM_STEP_FIELD,
  query: z
    .string()
    .nullish()
    .describe("search: a Gmail search query (from:, subject:, is:unread, newer_than:2d…)"),
  maxResults: z.number().int().min(1).max(25).nullish().describe("search: how many, when the user says"),
  email: EmailReferenceSchema.nullish().describe(
    "read, reply, forward, label, archive, delete, markRead: the email meant",
  ),
  all: z.boolean().nullish().describe("label, archive, delete, markRead: every email that matches, not one"),
  thread: z.boolean().nullish().describe("read: the whole conversation"),
  to: z
    .array(z.string())
    .nullish()
    .describe("compose, send, forward: recipients' addresses (or names as said)"),
  cc: z.array(z.string()).nullish(),
  subject: z.string().nullish().describe("compose, send: the subject"),
  body: z.string().nullish().describe("compose, send, reply: the full text of the email, ready to send"),
  note: z.string().nullish().describe("forward: a short message above the forwarded email"),
  addLabels: z.array(z.string()).nullish().describe("label: label names to add"),
  removeLabels: z.array(z.string()).nullish().describe("label: label names to remove"),
  question: z.string().nullish().describe("Only when something essential is missing: the question to ask"),
});

export type GmailOperation = z.infer<typeof GmailOperationSchema>;

/** System prompt of GmailResolver. Static, first, cacheable. */
export const GMAIL_SYSTEM_PROMPT = `You turn one step of Memo's plan into an email operation. Memo is a personal secretary on WhatsApp; users write in Hebrew or English.
Answer with one JSON object: "operation" and only the fields it needs (leave the others out or null).

Operations:
${operationLines(gmailContract, "gmail")}
label, archive, delete, markRead: all true when the user means every matching email ("archive all the newsletters"), else one.

Naming an existing email (field "email"): never an id. "#N" in handle is email N of the list Memo showed last ("read 2" → handle "#2"); "@N" is latest action N; "it", "that", "זה", "אותו" mean the email an earlier step of this message found when the message lists such steps (set fromStep to its id), otherwise "@1". Otherwise put the user's words: from = the sender as said ("the email from Dana" → from "Dana"), subject / words = what it is about ("about the invoice" → words "invoice").

Writing email (compose, send, reply, forward note):
- to / cc: email addresses exactly as the user gave them; a person named without an address goes in as the name ("Dana"), Memo looks it up. Never invent an address.
- body: the complete text, ready to send, written as the user would write it, in the language the user asks for (else the language of their message); a greeting and the content they asked for; no placeholders such as [Your name]. Keep what the user dictated word for word when they dictated it.
- subject: short and specific; write one from the content when the user gave none.

Ask (question) only when the operation is impossible without an answer (no recipient at all, nothing to say), in the user's language. Never ask for approval: Memo shows the email and asks before sending by itself.`;
