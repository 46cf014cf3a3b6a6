import { Client } from "@langchain/langgraph-sdk";
import type pg from "pg";
import { readOnlySnapshot, userExists, userTimeZone } from "../db/repositories/replayRepository.js";
import type { HITLInterruptPayload } from "../types/index.js";
import { redactPayload } from "../services/tracing/redact.js";
import { storedInbound, type StoredInbound } from "../transport/replay/replaySource.js";
import { phoneTag } from "../utils/phone.js";
import { UnknownUserError } from "./replayUser.js";

/** The graph id of Memo's langgraph.json. */
const GRAPH_ID = "memo";

export interface DevServerReplayOptions {
  /** The user's database: only read, inside one read-only transaction. */
  source: pg.Pool;
  /** The words go too (LANGSMITH_INCLUDE_CONTENT, as for traces); otherwise only "[redacted]" (default: false). */
  includeContent?: boolean;
  /** The normalized phone. */
  phone: string;
  /** Replay what the user sent from then on (default: every stored message). */
  since?: Date;
  /** Replay only the last N of those (default: all). */
  last?: number;
  /** The dev server (`npx @langchain/langgraph-cli dev`), e.g. http://127.0.0.1:2024. */
  url: string;
  /** Told of each message as soon as the dev server has run it. */
  onMessage?: (turn: DevServerTurn, index: number, total: number) => void;
}

/** One stored message as the dev server ran it. */
interface DevServerTurn {
  /** When the user sent it. */
  at: Date;
  /** What was sent to the dev server: the words, or "[redacted]". */
  text: string;
  /** It answered the question the thread was paused on (a resume), rather than starting a turn. */
  resumed: boolean;
  /** Memo's reply, or the question it asks as Studio shows it. */
  reply: string;
  status: "completed" | "waiting";
}

export interface DevServerReplay {
  /** The dev server's thread holding every turn: open it in Studio. */
  threadId: string;
  /** The phone the turns ran as: a fresh stand-in made from the user's tag and the replay, never their number. */
  phone: string;
  turns: DevServerTurn[];
}

/**
 * A phone number for the dev server's user: "999" (no country's code) and digits of the user's
 * keyed tag and the replay's id, so each replay starts a fresh stand-in and the number never leaves.
 */
function standInPhone(tag: string): string {
  return `999${BigInt(`0x${tag.replace(/[^0-9a-f]/g, "0")}`)
    .toString()
    .slice(-9)
    .padStart(9, "0")}`;
}

/** The question the thread is paused on, if any. */
async function pausedOn(client: Client, threadId: string): Promise<HITLInterruptPayload | undefined> {
  const state = await client.threads.getState(threadId);
  return state.tasks.flatMap((task) => task.interrupts ?? []).at(-1)?.value as
    HITLInterruptPayload | undefined;
}

/**
 * Replays a user's stored messages, oldest first, into the LangGraph dev server as one thread, so
 * LangGraph Studio shows each turn node by node and can fork from any checkpoint. Redacted as
 * traces are: the phone becomes a stand-in made from its keyed tag, message ids their tags, and
 * the words go only with LANGSMITH_INCLUDE_CONTENT (phone numbers in them tagged). A message sent
 * while the thread is paused on a question resumes it, as an answer. The source is only read; the
 * dev server's graph is dry for the outside world (src/app/studioGraph.ts).
 */
export async function replayIntoDevServer(options: DevServerReplayOptions): Promise<DevServerReplay> {
  const { source, phone } = options;
  const { stored, known, timeZone } = await readOnlySnapshot(source, async (client) => ({
    known: await userExists(client, phone),
    timeZone: await userTimeZone(client, phone),
    stored: await storedInbound(client, phone, options.since),
  }));
  if (!known) throw new UnknownUserError("no user with that phone number in the database");
  const replayable = stored.filter((message) => !message.skip);
  const messages = options.last === undefined ? replayable : replayable.slice(-options.last);

  // Nothing to replay: said so, rather than an empty thread to open.
  if (messages.length === 0) throw new Error("no messages to replay (none stored in that window)");

  const redaction = { includeContent: options.includeContent ?? false, tag: phoneTag };
  const tag = phoneTag(phone);
  const client = new Client({ apiUrl: options.url });
  const thread = await client.threads.create({ metadata: { replay: true, user: tag } });
  // Each replay's message ids are its own: a second replay of the same messages must not find the
  // first one's (a reply-to would quote it, and its stored messages would stand for these).
  const replayId = thread.thread_id.replace(/-/g, "").slice(-8);
  // And so is its stand-in user: a fresh one, with none of an earlier replay's history or data.
  const standIn = standInPhone(`${tag}${replayId}`);
  const ownId = (id: string | undefined) => (id ? `replay-${replayId}-${id}` : undefined);
  const turns: DevServerTurn[] = [];
  for (const [index, message] of messages.entries()) {
    // Only keys the trace redaction keeps as identifiers (tagged) are ids; the text is the words.
    const redacted = redactPayload(
      { text: message.text, whatsappMessageId: message.id, replyToMessageId: message.replyTo },
      redaction,
    );
    const said = {
      ...redacted,
      whatsappMessageId: ownId(redacted.whatsappMessageId),
      replyToMessageId: ownId(redacted.replyToMessageId),
    };
    const paused = await pausedOn(client, thread.thread_id);
    const values = (await client.runs.wait(
      thread.thread_id,
      GRAPH_ID,
      paused
        ? resume(said.text, message)
        : {
            input: {
              phone: standIn,
              message: said.text,
              ...(said.whatsappMessageId ? { messageId: said.whatsappMessageId } : {}),
              ...(said.replyToMessageId ? { replyTo: said.replyToMessageId } : {}),
              ...(timeZone ? { timeZone } : {}),
              ...(message.transcribed ? { media: { voiceTranscription: said.text } } : {}),
            },
          },
    )) as { finalResponse?: string };
    const question = await pausedOn(client, thread.thread_id);
    const turn: DevServerTurn = {
      at: message.at,
      text: said.text,
      resumed: paused !== undefined,
      reply: question ? (question.description ?? question.question) : (values.finalResponse ?? ""),
      status: question ? "waiting" : "completed",
    };
    turns.push(turn);
    options.onMessage?.(turn, index, messages.length);
  }
  return { threadId: thread.thread_id, phone: standIn, turns };
}

/** The answer to the open question, as MemoRuntime resumes with it: the text, and a tapped option's id. */
function resume(text: string, message: StoredInbound) {
  return { command: { resume: { text, ...(message.optionId ? { optionId: message.optionId } : {}) } } };
}
