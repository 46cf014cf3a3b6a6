import { createHash } from "node:crypto";
import { readFile, rename, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { MemorySaver } from "@langchain/langgraph";
import { PGlite } from "@electric-sql/pglite";
import type pg from "pg";
import type { AppConfig } from "../config/env.js";
import { PGLITE_EXTENSIONS } from "../db/database.js";
import { migrate } from "../db/migrate.js";
import { MIGRATIONS } from "../db/migrations/index.js";
import { createPglitePool } from "../db/pglitePool.js";
import { PgConversationStore } from "../db/repositories/conversationStore.js";
import { createMemoRuntime } from "./createMemoRuntime.js";
import type { MemoReply } from "../types/reply.js";
import type { ConversationMessage } from "../types/index.js";
import type { Logger } from "../utils/logger.js";
import { estimateTokens } from "../services/memory/limits.js";
import type { Tracing } from "../services/tracing/tracing.js";
import { buildReplyPayloads } from "../transport/whatsapp/outboundFormat.js";
import {
  copyUserData,
  latestConversation,
  readOnlySnapshot,
  userExists,
  type CopyReport,
} from "../db/repositories/replayRepository.js";
import { storedInbound, type StoredInbound } from "../transport/replay/replaySource.js";
import { MemoError } from "../utils/errors.js";

/** Messages of the conversation the rebuilt window starts with (the window's own limit). */
const WINDOW_MESSAGES = 10;

/** The phone is not one of Memo's users. */
export class UnknownUserError extends MemoError {}

/** One stored message, replayed. */
export interface ReplayedMessage extends StoredInbound {
  /** What the current graph answers, as WhatsApp would show it; null when skipped. */
  newReply: string | null;
  status?: MemoReply["status"];
  /** The new reply differs from the old one (whitespace aside). */
  changed: boolean;
}

export interface ReplayOptions {
  /** The user's database: only read, inside one read-only transaction. */
  source: pg.Pool;
  /** The current environment's settings: the LLM, the fast path, memory mode. */
  config: AppConfig;
  /** The normalized phone. */
  phone: string;
  /** Replay what the user sent from then on (default: every stored message). */
  since?: Date;
  logger: Logger;
  /** LangSmith tracing of the replayed turns (default: none). */
  tracing?: Tracing | null;
  /** The LangSmith thread of the replayed turns (default: the user's own). */
  threadId?: string;
  /** Told what will be replayed once the copy is made, before the first turn. */
  onStart?: (plan: { total: number; start: Date; copied: CopyReport }) => void;
  /** Told of each message as soon as it is replayed (the CLI prints as it goes). */
  onMessage?: (message: ReplayedMessage, index: number, total: number) => void;
}

export interface ReplayReport {
  messages: ReplayedMessage[];
  /** Where the copy of the user's data stops: `since`, or the first message's time. */
  start: Date;
  copied: CopyReport;
}

const normalized = (text: string | null | undefined) => (text ?? "").replace(/\s+/g, " ").trim();

/** The reply as the sender would show it: bodies of the WhatsApp messages, buttons' question only. */
function shown(phone: string, reply: MemoReply, like: "sent" | "conversation"): string {
  if (like === "conversation") return reply.text;
  const payloads = buildReplyPayloads(phone, {
    text: reply.text,
    ...(reply.question ? { question: reply.question } : {}),
    options: reply.options,
    ...(reply.expectedInput ? { expectedInput: reply.expectedInput } : {}),
    language: "en",
  });
  return payloads
    .map((p) => (p.type === "text" ? p.text.body : p.type === "interactive" ? p.interactive.body.text : ""))
    .join("\n");
}

/**
 * Re-runs a user's stored messages, in order, through the current graph in a scratch database: an
 * in-memory PGlite with every migration, holding a copy of the user's data as it was at the start
 * (see copyUserData). Each turn runs at its message's original time (the runtime's clock) with the
 * LLM of `config`. Nothing is sent (no WhatsApp client exists here) and the source is never
 * written: it is read once, in a read-only transaction, before the first turn.
 */
export async function replayUser(options: ReplayOptions): Promise<ReplayReport> {
  const { source, config, phone, logger } = options;
  const { stored, known } = await readOnlySnapshot(source, async (client) => ({
    known: await userExists(client, phone),
    stored: await storedInbound(client, phone, options.since),
  }));
  if (!known) throw new UnknownUserError("no user with that phone number in the database");
  const start = options.since ?? stored[0]?.at ?? new Date();

  const { pglite, pool: scratch } = await openScratch(logger);
  try {
    const copied = await readOnlySnapshot(source, (client) => copyUserData(client, scratch, phone, start));
    await rebuildWindow(scratch, phone);
    options.onStart?.({ total: stored.length, start, copied });

    let now = start.getTime();
    const memo = createMemoRuntime({
      config,
      pool: scratch,
      checkpointer: new MemorySaver(),
      logger,
      clock: () => now,
      ...(options.tracing ? { tracing: options.tracing } : {}),
      ...(options.threadId ? { traceThreadId: () => options.threadId! } : {}),
    });
    const messages: ReplayedMessage[] = [];
    for (const [index, message] of stored.entries()) {
      let replayed: ReplayedMessage;
      if (message.skip) {
        replayed = { ...message, newReply: null, changed: false };
      } else {
        now = message.at.getTime();
        const reply = await memo.runtime.invokeMemoGraph(phone, message.text, {
          ...(message.id ? { whatsappMessageId: message.id } : {}),
          ...(message.replyTo ? { replyToMessageId: message.replyTo } : {}),
          ...(message.optionId ? { optionId: message.optionId } : {}),
          ...(message.transcribed ? { audioTranscription: message.text } : {}),
        });
        // The summary and facts of this turn are in place before the next one, as they would be.
        await memo.longTerm.idle();
        const newReply = shown(phone, reply, message.oldReply?.from ?? "sent");
        replayed = {
          ...message,
          newReply,
          status: reply.status,
          changed: normalized(newReply) !== normalized(message.oldReply?.text),
        };
      }
      messages.push(replayed);
      options.onMessage?.(replayed, index, stored.length);
    }
    return { messages, start, copied };
  } finally {
    await scratch.end();
    await pglite.close();
  }
}

/**
 * An empty in-memory database with every migration applied. Making one takes seconds (initdb), so
 * the first replay keeps a dump of it in the temp folder, named by the migrations it holds, and
 * later ones load that; a dump that cannot be loaded (another PGlite) is made again.
 */
async function openScratch(logger: Logger): Promise<{ pglite: PGlite; pool: pg.Pool }> {
  const schema = createHash("sha256")
    .update(MIGRATIONS.map((m) => `${m.version}:${m.sql}`).join("\n"))
    .digest("hex")
    .slice(0, 16);
  const template = path.join(tmpdir(), `memo-replay-scratch-${schema}.tar`);
  try {
    const pglite = await PGlite.create({
      loadDataDir: new Blob([await readFile(template)]),
      extensions: PGLITE_EXTENSIONS,
    });
    return { pglite, pool: createPglitePool(pglite) };
  } catch {
    // No dump yet, or one this PGlite cannot read.
  }
  const pglite = await PGlite.create({ extensions: PGLITE_EXTENSIONS });
  const pool = createPglitePool(pglite);
  await migrate(pool, MIGRATIONS, logger);
  try {
    const dump = Buffer.from(await (await pglite.dumpDataDir("none")).arrayBuffer());
    // Written whole, then renamed: a replay running alongside never reads half a dump.
    const partial = `${template}.${process.pid}`;
    await writeFile(partial, dump);
    await rename(partial, template);
  } catch (error) {
    logger.debug({ err: error }, "replay: scratch template not kept");
  }
  return { pglite, pool };
}

/**
 * The conversation window as it stood at the start: the last messages of the copied conversation
 * (the stored window holds later ones). Older than 12 hours, they age out at the first turn as
 * they would have.
 */
async function rebuildWindow(pool: pg.Pool, phone: string): Promise<void> {
  const rows = await latestConversation(pool, phone, WINDOW_MESSAGES);
  if (rows.length === 0) return;
  const messages: ConversationMessage[] = rows.reverse().map((row) => ({
    role: row.role,
    content: row.content,
    timestamp: row.at.getTime(),
    estimatedTokens: estimateTokens(row.content),
    ...(row.wa ? { whatsappMessageId: row.wa } : {}),
  }));
  await new PgConversationStore(pool).save(phone, {
    messages,
    latestActions: [],
    disambiguation: null,
    recentTasks: [],
  });
}
