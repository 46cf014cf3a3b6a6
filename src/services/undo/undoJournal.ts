import type {
  PgUndoRepository,
  UndoEntry,
  RowCopy,
  RowImage,
  RowScope,
  UndoBlock,
  UndoRecord,
} from "../../db/repositories/undoRepository.js";
import type { UndoRepositories } from "../../db/storage.js";
import type { Storage } from "../../db/transaction.js";
import type { Logger } from "../../utils/logger.js";
import type { ExternalRestorer, ExternalUndo } from "../../types/capability.js";

/** How long a change can be taken back when not configured (UNDO_WINDOW_MINUTES' default). */
export const DEFAULT_UNDO_WINDOW_MS = 10 * 60_000;

/** Where changes made outside a transaction are journaled, and for how long they can be taken back. */
export interface UndoSettings {
  journal: PgUndoRepository;
  windowMs: number;
}

/** What a change did, as undo's question and replies name it ("creating", "cleared"…). */
export type UndoAction = "create" | "delete" | "change" | "clear" | "add" | "tick" | "untick" | "complete";

/** What an undo reply names: "the task “Buy milk”", "3 notes", "the event “Dentist”". */
export interface UndoDescription {
  /** "change": several kinds at once (a turn that deleted a task and an event). */
  kind: "task" | "list" | "item" | "note" | "event" | "change";
  /** The one thing's name; absent when the change touched several (then `count`). */
  text?: string;
  count?: number;
  /** What it did (absent: told from its rows, created, deleted or changed). */
  action?: UndoAction;
  /** The list whose items it changed, or that it cleared. */
  list?: string;
  /** The items of a list it created or deleted. */
  items?: number;
}

/** What an undo of changed things of one kind names: the one thing's name, or how many when there are several. */
export function describeChanged<T>(
  kind: UndoDescription["kind"],
  things: readonly T[],
  nameOf: (thing: T) => string,
): UndoDescription {
  return things.length === 1 ? { kind, text: nameOf(things[0]!) } : { kind, count: things.length };
}

/**
 * Why a change cannot be taken back: an email went out ("email"), a Gmail change ("gmail"), a
 * setting ("settings"), disconnecting Google ("google"), something the user asked Memo to forget ("forgotten"),
 * a change whose earlier state could not be copied ("untracked"), a household command
 * ("household": it may have told someone else already).
 */
export type IrreversibleReason =
  "email" | "gmail" | "settings" | "google" | "forgotten" | "untracked" | "household";

const REASONS: readonly string[] = [
  "email",
  "gmail",
  "settings",
  "google",
  "forgotten",
  "untracked",
  "household",
];

/** A journaled reason as undo replies name it; one no longer written (an older version's) reads as "untracked". */
const reasonOf = (reason: unknown): IrreversibleReason =>
  typeof reason === "string" && REASONS.includes(reason) ? (reason as IrreversibleReason) : "untracked";

/**
 * Journals a change undo cannot take back, so "undo" right after it says so instead of reaching
 * past it to an older change. Holds no data, only the reason.
 */
export async function recordIrreversible(
  undo: UndoSettings,
  phone: string,
  entry: {
    operationId: string;
    /** The turn that made the change (default: the operation itself). */
    turnId?: string;
    reason: IrreversibleReason;
    now: number;
    /**
     * A forget: all the user's earlier entries go too. Their copies may hold what was forgotten (a
     * note's text before an edit, a fact's source note), and undoing them must never bring it back.
     */
    forgetEarlier?: boolean;
  },
): Promise<void> {
  const { journal } = undo;
  if (entry.forgetEarlier) await journal.forgetAll(phone);
  await journal.record(phone, {
    operationId: entry.operationId,
    ...(entry.turnId ? { turnId: entry.turnId } : {}),
    description: { kind: "irreversible", reason: entry.reason },
    images: [],
    now: entry.now,
    windowMs: undo.windowMs,
  });
}

/** A change a provider outside the database puts back on undo (Google Calendar). */

/** The rows a change touched: those in `before` or `after`, as they were and became; unchanged rows left out. */
export function imagesOf(before: RowCopy[], after: RowCopy[]): RowImage[] {
  const key = (c: RowCopy) => `${c.table}:${c.id}`;
  const afterByKey = new Map(after.map((c) => [key(c), c]));
  const beforeKeys = new Set(before.map(key));
  const images: RowImage[] = [];
  for (const copy of before) {
    const now = afterByKey.get(key(copy));
    if (now && JSON.stringify(now.row) === JSON.stringify(copy.row)) continue;
    images.push({ table: copy.table, id: copy.id, before: copy.row, after: now?.row ?? null });
  }
  for (const copy of after) {
    if (!beforeKeys.has(key(copy)))
      images.push({ table: copy.table, id: copy.id, before: null, after: copy.row });
  }
  return images;
}

/**
 * Records one change for undo, around the code that makes it: `before` copies the rows in scope,
 * `finish` copies them again and journals the difference (nothing when nothing changed). Called on
 * the change's own transaction client where it has one, so the journal commits with the change.
 */
export class UndoCapture {
  private copies: RowCopy[] = [];

  constructor(
    /** The journal on the change's own transaction client where it has one. */
    private readonly journal: PgUndoRepository,
    private readonly phone: string,
    private readonly scopes: RowScope[],
  ) {}

  /**
   * Copies the rows in scope as they are. Rows the operation creates (its `created_by_operation`
   * scopes) are not looked for: before it first runs there are none, and any found on a re-run are
   * its own, which undo must still take back (where they commit with the ledger entry, as in the
   * database executor, a re-run finds that entry and rolls back anyway). One statement at most.
   */
  async before(): Promise<void> {
    const existing = this.scopes.filter((scope) => scope.column !== "created_by_operation");
    this.copies = await this.journal.copy(this.phone, existing);
  }

  /** Journals the change; false when nothing in scope changed (nothing recorded). */
  async finish(entry: UndoChange): Promise<boolean> {
    const record = await this.entry(entry);
    if (!record) return false;
    await this.journal.record(this.phone, record);
    return true;
  }

  /**
   * The journal entry of the change, for the caller to write with its own (the operation ledger's
   * `record` takes it); null when nothing in scope changed.
   */
  async entry(entry: UndoChange): Promise<UndoRecord | null> {
    const after = await this.journal.copy(this.phone, this.scopes);
    const images = imagesOf(this.copies, after);
    if (images.length === 0 && !entry.external?.length) return null;
    return {
      operationId: entry.operationId,
      ...(entry.turnId ? { turnId: entry.turnId } : {}),
      description: { ...entry.description },
      images,
      ...(entry.external?.length ? { external: entry.external } : {}),
      now: entry.now,
      windowMs: entry.windowMs,
    };
  }
}

/** A change UndoCapture journals: what it names, and how long it can be taken back. */
export interface UndoChange {
  operationId: string;
  /** The turn that made the change (default: the operation itself). */
  turnId?: string;
  description: UndoDescription;
  now: number;
  windowMs: number;
  external?: ExternalUndo[];
}

/** Someone's later change that stands in the way of an undo: their household name (null: unknown) and what it was. */
export interface LaterChange {
  name: string | null;
  description: UndoDescription;
}

/** What "undo" did. */
export type UndoResult =
  | {
      kind: "restored";
      description: UndoDescription;
      /** Every change taken back was a creation: undo removed what was added. */
      removed: boolean;
      /** Restored reminders whose ring time passed meanwhile: the scheduler sends them now. */
      lateReminders: number;
      /** External changes the provider could not put back (their names). */
      notRestored: string[];
    }
  | { kind: "nothing" }
  /** The latest change was already taken back: undo goes back one change, never further. */
  | { kind: "already"; description: UndoDescription }
  | { kind: "expired"; description: UndoDescription }
  /** The latest change cannot be taken back; this undo is spent on saying so. */
  | { kind: "irreversible"; reason: IrreversibleReason }
  /** Putting it back failed; the change is spent (a further undo says there is nothing more). */
  | { kind: "failed"; description: UndoDescription }
  /** The message quoted something other than Memo's answer to the latest change: nothing undone. */
  | { kind: "notQuoted" }
  /**
   * Something the change touched was changed since (by `by`, when someone's journal entry names it):
   * nothing is put back, and the change stays the latest (it can be undone once that is taken back).
   */
  | { kind: "changed"; description: UndoDescription; by: LaterChange | null }
  /** A list the change was on is another member's and no longer shared with the user: nothing put back. */
  | { kind: "unshared"; description: UndoDescription; list: string | null };

/** The change "undo" would take back now: what the question asked first names. */
export interface PendingUndo {
  turnId: string;
  /** When its newest entry was made (epoch ms). */
  createdAt: number;
  description: UndoDescription;
}

/** What an entry's rows say it did, when its description does not: created, deleted or changed. */
function actionOfRows(entry: UndoEntry): UndoAction {
  const images = entry.images;
  if (images.length > 0 && images.every((i) => i.before === null)) return "create";
  if (images.length > 0 && images.every((i) => i.after === null)) return "delete";
  const external = externalOf(entry);
  if (external.length > 0 && external.every((c) => c.action === "remove")) return "create";
  if (external.length > 0 && external.every((c) => c.action === "restore")) return "delete";
  return "change";
}

/** What one undo of several entries (one turn) names: their kind and count, or their one name; and what they did. */
function describeTurn(entries: UndoEntry[]): UndoDescription {
  const changes = entries.filter((e) => e.description.kind !== "irreversible");
  const parts = changes.map((e) => ({
    ...(e.description as unknown as UndoDescription),
    action: (e.description.action as UndoAction | undefined) ?? actionOfRows(e),
  }));
  if (parts.length === 1) return parts[0]!;
  const kinds = new Set(parts.map((p) => p.kind));
  const actions = new Set(parts.map((p) => p.action));
  const lists = new Set(parts.map((p) => p.list));
  const count = parts.reduce((sum, p) => sum + (p.count ?? 1), 0);
  const list = lists.size === 1 ? parts[0]?.list : undefined;
  return {
    kind: kinds.size === 1 ? parts[0]!.kind : "change",
    count,
    ...(actions.size === 1 ? { action: parts[0]!.action } : {}),
    ...(list !== undefined ? { list } : {}),
  };
}

const externalOf = (entry: UndoEntry): ExternalUndo[] =>
  Array.isArray(entry.external) ? (entry.external as ExternalUndo[]) : [];

/** The result of an undo that something stands in the way of. */
function blockedResult(block: UndoBlock, description: UndoDescription): UndoResult {
  if (block.kind === "unshared") return { kind: "unshared", description, list: block.list };
  const by = block.by && {
    name: block.by.name,
    description: block.by.description as unknown as UndoDescription,
  };
  return { kind: "changed", description, by };
}

/**
 * "undo": takes back the user's newest turn of changes, within its window: all of that turn's
 * changes ("delete X and Y"), newest first, in one transaction. One level only, so undo is
 * idempotent: once the newest turn is taken back, another "undo" says so and reaches no older
 * change (a user repeating "undo" must not unpick their earlier work). Only while nothing it
 * touches was changed by anyone since (a member of the household on a shared list): then it says
 * who and puts nothing back. A change is restored once, however many undos race for it, and a
 * re-run of the same undo turn (operationId) reports the first undo again (and finishes its Google part).
 */
export class UndoService {
  constructor(
    private readonly options: {
      /** The undo journal, and the sent messages a quoted "undo" names (db/storage undoStorage). */
      storage: Storage<UndoRepositories>;
      /** How long a change can be taken back (UNDO_WINDOW_MINUTES). */
      windowMs: number;
      /** Puts back what lives outside the database (a Google Calendar event); absent: reported as not restored. */
      external?: ExternalRestorer;
      logger?: Logger;
    },
  ) {}

  get windowMs(): number {
    return this.options.windowMs;
  }

  /** Journals a change undo cannot take back (disconnecting Google), so "undo" after it says so. */
  async irreversible(
    phone: string,
    entry: { operationId: string; turnId?: string; reason: IrreversibleReason; now: number },
  ): Promise<void> {
    await recordIrreversible(
      { journal: this.options.storage.repositories.journal, windowMs: this.options.windowMs },
      phone,
      entry,
    );
  }

  /**
   * Whether a message quoting `quotedMessageId` names the latest change: the quoted message is
   * Memo's answer to the turn that made it (the turn id is the inbound message that answer replied to).
   */
  async quotesLatest(phone: string, quotedMessageId: string): Promise<boolean> {
    return (await this.quotedTurn(phone, quotedMessageId)) !== null;
  }

  /**
   * The change an "undo" (turn `operationId`) would take back now, or null when it would take
   * nothing back (nothing open, the latest is already undone, cannot be, or is past its window; or
   * this turn already took it back, a re-run). Undo asks about it first when messages came between.
   */
  async pending(phone: string, operationId: string, now: number): Promise<PendingUndo | null> {
    const { journal } = this.options.storage.repositories;
    if ((await journal.undoneBy(phone, operationId)).length > 0) return null;
    const latest = await journal.latest(phone);
    if (!latest || latest.undoneAt !== null || latest.expiresAt <= now) return null;
    if (latest.description.kind === "irreversible") return null;
    const entries = await journal.openOfTurn(phone, latest.turnId);
    return { turnId: latest.turnId, createdAt: latest.createdAt, description: describeTurn(entries) };
  }

  /** The latest open turn, when `quotedMessageId` is Memo's answer to it; else null. */
  private async quotedTurn(phone: string, quotedMessageId: string): Promise<string | null> {
    const { journal, outbound } = this.options.storage.repositories;
    const quoted = await outbound.get(quotedMessageId);
    if (!quoted?.inReplyTo || quoted.phone !== phone) return null;
    const latest = await journal.latestOpen(phone);
    return latest?.turnId === quoted.inReplyTo ? latest.turnId : null;
  }

  /**
   * Takes back the latest turn. With `quoted` (the message the user's "undo" quotes), only when it
   * is Memo's answer to that turn; otherwise nothing is undone ("notQuoted").
   */
  async undo(
    phone: string,
    operationId: string,
    now: number,
    options: {
      quoted?: string;
      /**
       * The turn the user agreed to take back (answering the question asked first): when the latest
       * change is another by now, nothing is undone.
       */
      turn?: string;
    } = {},
  ): Promise<UndoResult> {
    const quotedTurn =
      options.quoted !== undefined ? await this.quotedTurn(phone, options.quoted) : undefined;
    let taking: UndoEntry[] = [];
    let done;
    try {
      done = await this.options.storage.transaction(async ({ journal }) => {
        const previous = await journal.undoneBy(phone, operationId);
        if (previous.length > 0) return { entries: previous, rerun: true };
        // With no scheduler, this is where an idle user's stale copies go.
        await journal.purgeExpired(phone, now - this.options.windowMs);
        const latest = await journal.latest(phone);
        if (!latest) return null;
        if (latest.undoneAt !== null) {
          // Already said (a change undo cannot take back, or one it failed to): nothing more.
          if (latest.description.kind === "irreversible" || latest.restoreFailed) return null;
          return { entries: await journal.ofTurn(phone, latest.turnId), already: true };
        }
        if (quotedTurn !== undefined && latest.turnId !== quotedTurn) return { notQuoted: true };
        if (options.turn !== undefined && latest.turnId !== options.turn) return null;
        // Said once; the next undo then says there is nothing more.
        if (latest.description.kind === "irreversible") {
          if (!(await journal.markUndone(phone, latest.id, operationId, now))) return null;
          return { entries: [latest] };
        }
        if (latest.expiresAt <= now) return { entries: [latest], expired: true };
        const entries = (await journal.openOfTurn(phone, latest.turnId)).filter(
          (e) => e.description.kind !== "irreversible" || e.id === latest.id,
        );
        // Nothing it touches may have changed since, by anyone; nothing is spent when it has.
        const block = await journal.blocked(
          phone,
          entries.flatMap((e) => e.images),
          entries.at(-1)!.seq,
        );
        if (block) return { entries, block };
        taking = entries;
        for (const entry of entries)
          if (!(await journal.markUndone(phone, entry.id, operationId, now))) return null;
        // Newest first: a later step's change is undone before the earlier one it built on.
        for (const entry of entries) await journal.restore(phone, entry.images);
        return { entries };
      });
    } catch (error) {
      if (taking.length === 0) throw error;
      // The restore failed (and rolled back): the entries are spent, so the next undo moves on.
      this.options.logger?.error(
        {
          event: "UNDO_RESTORE_FAILED",
          err: error,
          entries: taking.map((e) => e.id),
          tables: [...new Set(taking.flatMap((e) => e.images.map((i) => i.table)))],
        },
        "undo could not put the change back",
      );
      await this.options.storage.repositories.journal.markFailed(
        phone,
        taking.map((e) => e.id),
        operationId,
        now,
      );
      return { kind: "failed", description: describeTurn(taking) };
    }
    if (!done) return { kind: "nothing" };
    if ("notQuoted" in done) return { kind: "notQuoted" };
    const { entries } = done;
    if (entries.length === 1 && entries[0]!.description.kind === "irreversible")
      return { kind: "irreversible", reason: reasonOf(entries[0]!.description.reason) };
    const description = describeTurn(entries);
    if ("block" in done && done.block) return blockedResult(done.block, description);
    if ("already" in done) return { kind: "already", description };
    if ("expired" in done) return { kind: "expired", description };
    if (entries.some((e) => e.restoreFailed)) return { kind: "failed", description };
    const { journal } = this.options.storage.repositories;
    const notRestored: string[] = [];
    // The provider's part, after the commit; a re-run turn (a crash before it was done) asks again.
    for (const entry of entries) {
      const external = externalOf(entry);
      if (external.length === 0 || entry.externalDone) continue;
      let all = true;
      for (const change of external) {
        const restored = this.options.external ? await this.options.external(phone, change) : false;
        if (!restored) {
          all = false;
          notRestored.push(change.summary);
        }
      }
      if (all || !this.options.external) await journal.markExternalDone(phone, entry.id);
    }
    const images = entries.flatMap((e) => e.images);
    const external = entries.flatMap(externalOf);
    // An addition's list is touched too (its updated_at): still a removal of what was added.
    const removed =
      (images.every((i) => i.before === null) && external.every((c) => c.action === "remove")) ||
      description.action === "create" ||
      description.action === "add";
    const lateReminders = images.filter((image) => {
      const fireAt = image.table === "tasks" ? image.before?.next_fire_at : undefined;
      return typeof fireAt === "string" && Date.parse(fireAt) <= now;
    }).length;
    return { kind: "restored", description, removed, lateReminders, notRestored };
  }
}
