import type pg from "pg";
import { z } from "zod";
import type {
  ConversationMessage,
  DisambiguationContext,
  LatestAction,
  RecentTaskSnapshot,
} from "../../types/conversation.js";
import { CAPABILITY_NAMES } from "../../types/plan.js";
import { InvalidPhoneError } from "../../utils/errors.js";

/** The whole short-term window of one user, stored as one document. */
export interface StoredWindow {
  /** Oldest first; at most 10. */
  messages: ConversationMessage[];
  /** Oldest first; at most 10. */
  latestActions: LatestAction[];
  disambiguation: DisambiguationContext | null;
  /** At most 4. */
  recentTasks: RecentTaskSnapshot[];
}

/** Storage of conversation windows, one per phone. Every method takes the phone that scopes it. */
export interface ConversationStore {
  /** The stored window, or null when this phone has none. */
  load(phone: string): Promise<StoredWindow | null>;
  /** Replaces the phone's window with this one. */
  save(phone: string, window: StoredWindow): Promise<void>;
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
export function serializeWindow(window: StoredWindow): string {
  return JSON.stringify(window, jsonbSafe);
}

const messageSchema = z.looseObject({
  role: z.enum(["user", "assistant", "system"]),
  content: z.string(),
  timestamp: z.number(),
  estimatedTokens: z.number(),
});
const latestActionSchema = z.looseObject({
  createdAt: z.number(),
  capability: z.enum(CAPABILITY_NAMES),
  action: z.string(),
  summary: z.string(),
});
const recentTaskSchema = z.looseObject({ id: z.string(), text: z.string(), completed: z.boolean() });
const disambiguationSchema = z.looseObject({
  type: z.string(),
  query: z.string(),
  candidates: z.array(z.looseObject({ id: z.string(), displayText: z.string() })),
  createdAt: z.number(),
  expiresAt: z.number(),
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
export function parseStoredWindow(value: unknown): StoredWindow {
  const doc = typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
  return {
    messages: validEntries<ConversationMessage>(doc.messages, messageSchema),
    latestActions: validEntries<LatestAction>(doc.latestActions, latestActionSchema),
    disambiguation: disambiguationSchema.safeParse(doc.disambiguation).success
      ? (doc.disambiguation as DisambiguationContext)
      : null,
    recentTasks: validEntries<RecentTaskSnapshot>(doc.recentTasks, recentTaskSchema),
  };
}

/** ConversationStore over the `conversation_windows` table, in plain SQL on the app's pool. */
export class PgConversationStore implements ConversationStore {
  constructor(private readonly pool: pg.Pool) {}

  async load(phone: string): Promise<StoredWindow | null> {
    const { rows } = await this.pool.query<{ state: unknown }>(
      "SELECT state FROM conversation_windows WHERE user_phone = $1",
      [phone],
    );
    return rows[0] ? parseStoredWindow(rows[0].state) : null;
  }

  async save(phone: string, window: StoredWindow): Promise<void> {
    assertNormalizedPhone(phone);
    await this.pool.query(
      `INSERT INTO conversation_windows (user_phone, state) VALUES ($1, $2::jsonb)
       ON CONFLICT (user_phone) DO UPDATE SET state = EXCLUDED.state, updated_at = now()`,
      [phone, serializeWindow(window)],
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
