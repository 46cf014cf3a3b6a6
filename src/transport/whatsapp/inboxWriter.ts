import type { InboxRepository, NewInboxMessage } from "../../db/repositories/inboxRepository.js";

interface Waiting {
  messages: NewInboxMessage[];
  resolve: (stored: string[]) => void;
  reject: (error: unknown) => void;
}

/** Most rows in one statement (bounded by Postgres's 65535 parameters: 7 per row). */
const MAX_ROWS = 1000;

/**
 * Stores webhook messages in the inbox with group commit: while one insert is in flight, the
 * messages of concurrent webhook calls wait and then go in together as one statement. An idle
 * webhook pays nothing extra; a busy one makes one round trip (and one WAL flush) per batch
 * instead of one per call. Each call still resolves only once its own rows are committed.
 */
export class InboxWriter {
  private readonly queue: Waiting[] = [];
  private writing = false;

  constructor(private readonly inbox: InboxRepository) {}

  /** Stores the messages; resolves with the ids that were new (redeliveries are dropped). */
  insert(messages: NewInboxMessage[]): Promise<string[]> {
    if (messages.length === 0) return Promise.resolve([]);
    return new Promise((resolve, reject) => {
      this.queue.push({ messages, resolve, reject });
      if (!this.writing) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.writing = true;
    try {
      while (this.queue.length > 0) {
        const batch: Waiting[] = [];
        let rows = 0;
        while (
          this.queue.length > 0 &&
          (batch.length === 0 || rows + this.queue[0]!.messages.length <= MAX_ROWS)
        ) {
          const next = this.queue.shift()!;
          batch.push(next);
          rows += next.messages.length;
        }
        await this.write(batch);
      }
    } finally {
      this.writing = false;
    }
  }

  private async write(batch: Waiting[]): Promise<void> {
    let stored: Set<string>;
    try {
      stored = new Set(await this.inbox.insert(batch.flatMap((w) => w.messages)));
    } catch (error) {
      // One call's bad data (SQLSTATE class 22 or 23) must not fail the others': each goes in on
      // its own. Anything else (the database is away) fails them all at once.
      if (batch.length === 1 || !isDataError(error)) {
        for (const waiting of batch) waiting.reject(error);
        return;
      }
      for (const waiting of batch) await this.write([waiting]);
      return;
    }
    // An id sent twice in one batch (two deliveries racing) is new for the first caller only.
    for (const waiting of batch) {
      const mine = waiting.messages.map((m) => m.waMessageId).filter((id) => stored.delete(id));
      waiting.resolve(mine);
    }
  }
}

/** A statement rejected for its data (class 22: data exception, 23: constraint violation). */
function isDataError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && /^2[23]/.test(code);
}
