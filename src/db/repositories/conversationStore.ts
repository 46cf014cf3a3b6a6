import { withoutNul } from "../text.js";
import { prepared } from "../prepared.js";
import type pg from "pg";
import { z } from "zod";
import type { ConversationMessage, LatestAction, RecentTaskSnapshot } from "../../types/conversation.js";
import type { DisambiguationSnapshot } from "../../types/execution.js";
import { CAPABILITY_NAMES } from "../../types/plan.js";
import { InvalidPhoneError } from "../../utils/errors.js";
import type { NewHistoryMessage } from "./conversationHistory.js";
import { relevantChunks, type ChunkSummary } from "./chunkRepository.js";
import { relevantFacts, type Fact } from "./memoryRepository.js";
import { relevantEpisodes, type Episode } from "./episodeRepository.js";

/** The whole short-term window of one user, stored as one document. */
export interface StoredWindow {
  /** Oldest first; at most 10. */
  messages: ConversationMessage[];
  /** Oldest first; at most 10. */
  latestActions: LatestAction[];
  /** The disambiguation snapshot (spec 000 §5.1), until it expires. */
  disambiguation: DisambiguationSnapshot | null;
  /** At most 4. */
  recentTasks: RecentTaskSnapshot[];
}

/** The facts a turn's read also ranks for the planner (see `ConversationStore.loadTurn`). */
export interface TurnFactsQuery {
  /** The user's message: facts speaking of its words rank first. */
  text: string;
  /** The instant decay is computed at, and at which the facts must hold (epoch ms). */
  now: number;
  /** Episodes speaking of the message's words read at most (default: 12). */
  episodes?: number;
  /** Chunk summaries read at most, newest first (default: 10). */
  chunks?: number;
}

/** What the start of a turn reads: the window, and the long-term memory the planner sees. */
export interface TurnRead {
  /** The stored window, or null when this phone has none. */
  window: StoredWindow | null;
  /** The newest conversation chunks' summaries, newest first. */
  chunks: ChunkSummary[];
  /** The candidate facts for the message (ranked by the caller). */
  facts: Fact[];
  /** The user's IANA zone (dates in the planner's context are theirs), null without a user row. */
  timeZone: string | null;
  /** The candidate episodes speaking of the message's words (ranked by the caller; none when it names nothing). */
  episodes: Episode[];
}

/** Storage of conversation windows, one per phone. Every method takes the phone that scopes it. */
export interface ConversationStore {
  /**
   * Whether `save` also appends the messages it is handed to the conversation history
   * (`conversation_messages`), in the same statement as the window (default: false).
   */
  readonly keepsHistory?: boolean;
  /**
   * Whether `load` and `loadTurn` give Memo's messages that were stored before they were sent
   * (with a `localId`, no WhatsApp id) the id of the message that sent them, from the outbound
   * record (default: false): then the window need not be written again when a reply goes out.
   */
  readonly readsSentIds?: boolean;
  /** The stored window, or null when this phone has none. */
  load(phone: string): Promise<StoredWindow | null>;
  /**
   * The window, the user's newest chunk summaries and the facts for the message, in one read (absent: a store
   * that holds no long-term memory; the caller reads it elsewhere).
   */
  loadTurn?(phone: string, facts: TurnFactsQuery): Promise<TurnRead>;
  /**
   * Replaces the phone's window with this one; a store that `keepsHistory` also appends `history`
   * (in order, ids following it; a message already stored with the same role and WhatsApp id is
   * not stored again), all or nothing. Others ignore `history`.
   */
  save(phone: string, window: StoredWindow, history?: readonly NewHistoryMessage[]): Promise<void>;
  /** Forgets the phone's window; a no-op when there is none. */
  delete(phone: string): Promise<void>;
  /**
   * Adds one message to the stored window in a single statement, whatever the window holds now:
   * for messages Memo starts outside a turn (reminders), which must not overwrite a turn running
   * on another instance. Limits are applied by the next write of a whole window.
   */
  append(phone: string, message: ConversationMessage): Promise<void>;
}

/** The same rule as the table's CHECK, so every implementation refuses the same keys. */
const NORMALIZED_PHONE = /^[1-9][0-9]{5,14}$/;

function assertNormalizedPhone(phone: string): void {
  // A "+972..." key beside "972..." would silently split one user's memory in two.
  if (!NORMALIZED_PHONE.test(phone)) {
    throw new InvalidPhoneError("Conversation windows are keyed by normalized phones", {
      length: phone.length,
    });
  }
}

// Postgres jsonb refuses NUL characters and unpaired UTF-16 surrogates (a string cut inside an
// emoji); either would make a whole turn's memory unsavable, so they are cleaned on the way in.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function jsonbSafe(_key: string, value: unknown): unknown {
  return typeof value === "string" ? value.replaceAll("\u0000", "").replace(LONE_SURROGATE, "\uFFFD") : value;
}

/** The JSON text stored for a window. */
function serializeWindow(window: StoredWindow): string {
  return JSON.stringify(window, jsonbSafe);
}

const messageSchema = z.looseObject({
  role: z.enum(["user", "assistant", "system"]),
  content: z.string(),
  timestamp: z.number(),
  estimatedTokens: z.number(),
  // Absent in documents stored before messages kept what Memo added to them.
  metadata: z.looseObject({ addedContext: z.array(z.string()).optional() }).optional(),
});
const latestActionSchema = z.looseObject({
  createdAt: z.number(),
  capability: z.enum(CAPABILITY_NAMES),
  action: z.string(),
  summary: z.string(),
});
const recentTaskSchema = z.looseObject({ id: z.string(), text: z.string(), completed: z.boolean() });
const candidatesSchema = z.array(z.looseObject({ id: z.string(), displayText: z.string() }));
/** A snapshot without what a later choice acts with (stored before it was kept) reads as none. */
const disambiguationSchema = z.looseObject({
  type: z.string(),
  query: z.string(),
  candidates: candidatesSchema,
  createdAt: z.number(),
  expiresAt: z.number(),
  hitlId: z.string(),
  language: z.enum(["he", "en"]),
  step: z.looseObject({
    id: z.string(),
    capability: z.enum(CAPABILITY_NAMES),
    action: z.string(),
    constraints: z.record(z.string(), z.unknown()),
    changes: z.record(z.string(), z.unknown()),
  }),
  resolverResult: z.looseObject({ stepId: z.string(), type: z.enum(["execute", "clarify"]) }),
  plan: z.looseObject({ intentType: z.string(), riskLevel: z.string(), needsApproval: z.boolean() }),
  disambiguation: z.looseObject({
    type: z.string(),
    stepId: z.string(),
    query: z.string(),
    candidates: candidatesSchema,
    allowMultiple: z.boolean(),
    originalArgs: z.record(z.string(), z.unknown()),
  }),
});

/** The entries of `value` that match `schema`; anything else becomes an empty list. */
function validEntries<T>(value: unknown, schema: z.ZodType): T[] {
  if (!Array.isArray(value)) return [];
  return value.filter((entry) => schema.safeParse(entry).success) as T[];
}

/**
 * A stored document read back as a window. Entries that do not have the expected shape are
 * dropped: the window is short-term context, never worth failing a turn over.
 */
function parseStoredWindow(value: unknown): StoredWindow {
  const doc = typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
  return {
    messages: validEntries<ConversationMessage>(doc.messages, messageSchema),
    latestActions: validEntries<LatestAction>(doc.latestActions, latestActionSchema),
    disambiguation: disambiguationSchema.safeParse(doc.disambiguation).success
      ? (doc.disambiguation as DisambiguationSnapshot)
      : null,
    recentTasks: validEntries<RecentTaskSnapshot>(doc.recentTasks, recentTaskSchema),
  };
}

/**
 * The stored window of phone $1 (`state`) and, for its messages stored before they were sent, the
 * WhatsApp ids they were sent with (`sent`: localId → id, from `outbound_messages.local_id`). Should a
 * message have been sent twice (a crash between send and record), the first send's id is kept:
 * jsonb keeps a key's last value, hence newest first.
 */
const WINDOW_WITH_SENT_IDS = `SELECT w.state,
    (SELECT jsonb_object_agg(o.local_id, o.wa_message_id ORDER BY o.created_at DESC)
       FROM outbound_messages o
      WHERE o.phone = $1
        AND o.local_id IN (SELECT m->>'localId'
                             FROM jsonb_array_elements(CASE WHEN jsonb_typeof(w.state->'messages') = 'array'
                                                            THEN w.state->'messages' ELSE '[]'::jsonb END) m)
    ) AS sent
  FROM conversation_windows w WHERE w.user_phone = $1`;

/** The window with the WhatsApp ids its unsent-when-stored messages went out with (see `readsSentIds`). */
function withSentIds(window: StoredWindow, sent: unknown): StoredWindow {
  if (typeof sent !== "object" || sent === null) return window;
  const ids = sent as Record<string, unknown>;
  let changed = false;
  const messages = window.messages.map((message) => {
    const id = message.localId === undefined ? undefined : ids[message.localId];
    if (typeof id !== "string" || message.whatsappMessageId !== undefined) return message;
    changed = true;
    const { localId: _sent, ...rest } = message;
    return { ...rest, whatsappMessageId: id };
  });
  return changed ? { ...window, messages } : window;
}

const SAVE_WINDOW = `INSERT INTO conversation_windows (user_phone, state) VALUES ($1, $2::jsonb)
  ON CONFLICT (user_phone) DO UPDATE SET state = EXCLUDED.state, updated_at = now()`;

export interface PgConversationStoreOptions {
  /** `save` also appends the turn's messages to `conversation_messages` (default: false). */
  history?: boolean;
}

/** ConversationStore over the `conversation_windows` table, in plain SQL on the app's pool. */
export class PgConversationStore implements ConversationStore {
  readonly keepsHistory: boolean;
  readonly readsSentIds = true;

  constructor(
    private readonly pool: pg.Pool,
    options: PgConversationStoreOptions = {},
  ) {
    this.keepsHistory = options.history ?? false;
  }

  async load(phone: string): Promise<StoredWindow | null> {
    const { rows } = await this.pool.query<{ state: unknown; sent: unknown }>(WINDOW_WITH_SENT_IDS, [phone]);
    return rows[0] ? withSentIds(parseStoredWindow(rows[0].state), rows[0].sent) : null;
  }

  async loadTurn(phone: string, query: TurnFactsQuery): Promise<TurnRead> {
    const facts = relevantFacts(query.text, { now: query.now }, 2);
    const chunks = relevantChunks(query.chunks ?? 10, 2 + facts.params.length);
    const episodes = relevantEpisodes(
      query.text,
      query.episodes ?? 12,
      2 + facts.params.length + chunks.params.length,
    );
    // Prepared: every turn runs it, and planning its four parts cost about 1 ms a turn on the
    // embedded database (its text is one fixed variant, its result columns fixed types).
    const { rows } = await this.pool.query<{
      state: unknown;
      sent: unknown;
      chunks: unknown[];
      facts: unknown[];
      time_zone: string | null;
      episodes: unknown[];
    }>(
      prepared(
        `WITH facts AS (${facts.sql}), chunks AS (${chunks.sql}), episodes AS (${episodes.sql}),
            win AS (${WINDOW_WITH_SENT_IDS})
       SELECT (SELECT state FROM win) AS state, (SELECT sent FROM win) AS sent,
              (SELECT COALESCE(jsonb_agg(to_jsonb(c) ORDER BY c.chunk_number DESC), '[]'::jsonb) FROM chunks c) AS chunks,
              (SELECT time_zone FROM users WHERE phone = $1) AS time_zone,
              (SELECT COALESCE(jsonb_agg(to_jsonb(f)), '[]'::jsonb) FROM facts f) AS facts,
              (SELECT COALESCE(jsonb_agg(to_jsonb(e)), '[]'::jsonb) FROM episodes e) AS episodes`,
        [phone, ...facts.params, ...chunks.params, ...episodes.params],
      ),
    );
    const row = rows[0];
    return {
      window: row?.state ? withSentIds(parseStoredWindow(row.state), row.sent) : null,
      chunks: chunks.read(row?.chunks ?? []),
      facts: facts.parse(row?.facts ?? []),
      timeZone: row?.time_zone ?? null,
      episodes: episodes.parse(row?.episodes ?? []),
    };
  }

  async save(phone: string, window: StoredWindow, history: readonly NewHistoryMessage[] = []): Promise<void> {
    assertNormalizedPhone(phone);
    if (!this.keepsHistory || history.length === 0) {
      await this.pool.query(prepared(SAVE_WINDOW, [phone, serializeWindow(window)]));
      return;
    }
    // One statement, so the window and its messages' history are stored together or not at all.
    // The rows are inserted in the order given (ids follow it); a user without a `users` row
    // (nothing to keep a history for) still gets the window.
    await this.pool.query(
      prepared(
        `WITH saved AS (${SAVE_WINDOW} RETURNING 1)
       INSERT INTO conversation_messages (user_phone, role, content, whatsapp_message_id, created_at)
       SELECT $1, m.role, m.content, m.whatsapp_message_id, m.created_at
         FROM unnest($3::text[], $4::text[], $5::text[], $6::timestamptz[])
              WITH ORDINALITY AS m(role, content, whatsapp_message_id, created_at, n)
        WHERE EXISTS (SELECT 1 FROM users WHERE phone = $1)
        ORDER BY m.n
       ON CONFLICT (user_phone, role, whatsapp_message_id) DO NOTHING`,
        [
          phone,
          serializeWindow(window),
          history.map((m) => m.role),
          history.map((m) => withoutNul(m.content)),
          history.map((m) => m.whatsappMessageId ?? null),
          history.map((m) => (m.createdAt instanceof Date ? m.createdAt : new Date(m.createdAt))),
        ],
      ),
    );
  }

  async delete(phone: string): Promise<void> {
    await this.pool.query("DELETE FROM conversation_windows WHERE user_phone = $1", [phone]);
  }

  async append(phone: string, message: ConversationMessage): Promise<void> {
    assertNormalizedPhone(phone);
    const first: StoredWindow = {
      messages: [message],
      latestActions: [],
      disambiguation: null,
      recentTasks: [],
    };
    await this.pool.query(
      `INSERT INTO conversation_windows (user_phone, state) VALUES ($1, $2::jsonb)
       ON CONFLICT (user_phone) DO UPDATE
         SET state = jsonb_set(conversation_windows.state, '{messages}',
               CASE WHEN jsonb_typeof(conversation_windows.state->'messages') = 'array'
                    THEN conversation_windows.state->'messages' ELSE '[]'::jsonb END || $3::jsonb),
             updated_at = now()`,
      [phone, serializeWindow(first), JSON.stringify([message], jsonbSafe)],
    );
  }
}

/**
 * ConversationStore in a Map, for fast unit tests. It stores the same JSON text as the table and
 * reads it back the same way, so nothing passes here that the database would change or refuse.
 * @internal
 */
export class InMemoryConversationStore implements ConversationStore {
  private readonly documents = new Map<string, string>();

  load(phone: string): Promise<StoredWindow | null> {
    const text = this.documents.get(phone);
    return Promise.resolve(text === undefined ? null : parseStoredWindow(JSON.parse(text)));
  }

  save(phone: string, window: StoredWindow): Promise<void> {
    return Promise.resolve().then(() => {
      assertNormalizedPhone(phone);
      this.documents.set(phone, serializeWindow(window));
    });
  }

  delete(phone: string): Promise<void> {
    this.documents.delete(phone);
    return Promise.resolve();
  }

  async append(phone: string, message: ConversationMessage): Promise<void> {
    const window = (await this.load(phone)) ?? {
      messages: [],
      latestActions: [],
      disambiguation: null,
      recentTasks: [],
    };
    await this.save(phone, { ...window, messages: [...window.messages, message] });
  }

  /** How many phones have a stored window (tests). */
  get size(): number {
    return this.documents.size;
  }
}
