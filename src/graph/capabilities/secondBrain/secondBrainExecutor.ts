import type { OperationLedger } from "../../../db/repositories/operationLedger.js";
import { t } from "../../../messages/index.js";
import { NoteValidationError } from "../../../services/secondBrain/secondBrainService.js";
import { userTextOf } from "../../errorText.js";
import { answerFromNotes, isQuestion, summarizeNotes } from "../../../services/secondBrain/answer.js";
import type {
  DocumentsPort,
  MemoryPort,
  NotesPort,
  RememberedFact,
  StoredNote,
} from "../../../services/secondBrain/ports.js";
import { passageOf, quoteOf } from "../../../services/secondBrain/replies.js";
import { nonEmpty } from "../../../utils/args.js";
import type { Logger } from "../../../utils/logger.js";
import {
  describeChanged,
  recordIrreversible,
  UndoCapture,
  type UndoDescription,
  type UndoSettings,
} from "../../../services/undo/undoJournal.js";
import type { CapabilityContext, Executor, ExecutorOutcome } from "../../../types/capability.js";
import { assertNever, type OperationSpec, type OutcomeOf } from "../../../contracts/contract.js";
import {
  secondBrainContract,
  type FactView,
  type NoteView,
  type SecondBrainArgs,
  type SecondBrainData,
  type SecondBrainFunction,
  type SecondBrainOperation,
  type SecondBrainResults,
} from "../../../contracts/secondBrain.js";
import { typedExecutor } from "../typedExecutor.js";

type RunContext = CapabilityContext & { operationId: string };

/** Notes a search shows. */
const SEARCH_LIMIT = 5;
/** Notes a listing shows. */
const LIST_LIMIT = 10;
/** Notes a summary reads. */
const SUMMARY_LIMIT = 8;

/** Whether an operation's spec says it only reads. */
function readsOnly(functionName: SecondBrainFunction): boolean {
  const spec: OperationSpec = secondBrainContract.operations[functionName];
  return spec.reads === true;
}

/** What an operation is as a change: a note change "undo" takes back, forgetting (not undoable), or neither. */
const CHANGE: Record<SecondBrainFunction, "note" | "forget" | null> = {
  "notes.store": "note",
  "notes.search": null,
  "notes.summarize": null,
  "notes.getAll": null,
  "notes.update": "note",
  "notes.delete": "note",
  "memory.list": null,
  "memory.recall": null,
  // Forgetting (facts, and the notes "forget that…" names or a fact came from): a privacy request.
  "memory.forget": "forget",
  "memory.forgetAll": "forget",
};

/** A document's chunk as replies and the answering model see it: its title and page first. */
function documentLabel(note: StoredNote, language: "he" | "en"): string | null {
  const document = note.document;
  if (!document?.chunk) return null;
  const page = document.page !== null ? `, ${t(language, "documents.page", { page: document.page })}` : "";
  return `📄 ${document.title}${page}`;
}

/** What an undo of a note change names. */
function undoDescription(data: SecondBrainData | undefined): UndoDescription | null {
  switch (data?.kind) {
    case "stored":
    case "updated":
      return { kind: "note", text: data.note.quote };
    case "deleted":
      return describeChanged("note", data.notes, (note) => note.quote);
    default:
      return null;
  }
}

/** The visible words of a list ("  a " → "a"; blank ones dropped). */
const strings = (words: readonly string[] | null | undefined): string[] =>
  (words ?? []).map(nonEmpty).filter((s): s is string => s !== undefined);

/** The notes an operation names by id: the one resolved, and any others. */
const namedNotes = (args: { noteId?: string | null; noteIds?: readonly string[] | null }): string[] =>
  [nonEmpty(args.noteId), ...strings(args.noteIds)].filter((id): id is string => !!id);

/** What the ledger keeps of a change: ids and counts only, never the user's words (so "forget" forgets). */
type Recorded =
  | { kind: "stored"; noteId: string }
  | { kind: "updated"; noteId: string }
  | { kind: "deleted" }
  | { kind: "forgotten"; notes: number }
  | { kind: "forgotAll" };

/** What running `F` gives: its outcome, and what the ledger keeps of it when it changed something. */
interface Ran<F extends SecondBrainFunction> {
  outcome: OutcomeOf<SecondBrainResults[F]>;
  record?: Recorded;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** "3 Nov" / "3 בנוב׳" in the user's zone. */
function dayOf(date: Date, zone: string, language: "he" | "en"): string {
  const key = `${language}|${zone}`;
  let format = formatters.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(language === "he" ? "he-IL" : "en-GB", {
      day: "numeric",
      month: "short",
      timeZone: zone,
    });
    formatters.set(key, format);
  }
  return format.format(date);
}

type Precision = "instant" | "day" | "week" | "month" | "year";

/**
 * When a remembered fact began or ended, as finely as it was said, in the user's zone and
 * language: "3 Nov 2026", "the week of 16 Nov 2026", "March 2026", "2019".
 */
function periodOf(at: number, precision: Precision, zone: string, language: "he" | "en"): string {
  const locale = language === "he" ? "he-IL" : "en-GB";
  const key = `${language}|${zone}|${precision}`;
  let format = formatters.get(key);
  if (!format) {
    const fields: Intl.DateTimeFormatOptions =
      precision === "year"
        ? { year: "numeric" }
        : precision === "month"
          ? { month: "long", year: "numeric" }
          : { day: "numeric", month: "short", year: "numeric" };
    format = new Intl.DateTimeFormat(locale, { ...fields, timeZone: zone });
    formatters.set(key, format);
  }
  const text = format.format(new Date(at));
  return precision === "week" ? t(language, "notes.weekOf", { day: text }) : text;
}

function success<R extends SecondBrainData>(
  data: R,
  extra: Pick<ExecutorOutcome, "latestAction" | "numbered" | "produced"> = {},
): OutcomeOf<R> {
  return { success: true, data, ...extra };
}

/** A failure the user can fix, in their language. */
function failure(errorCode: string, error: string): { outcome: OutcomeOf<never> } {
  return { outcome: { success: false, errorCode, error } };
}

function noteAction(action: string, notes: StoredNote[]): ExecutorOutcome["latestAction"] {
  return {
    action,
    summary: notes.length === 1 ? `note "${quoteOf(notes[0]!.content, 60)}"` : `${notes.length} notes`,
    externalIds: notes.map((n) => n.id),
  };
}

/**
 * second-brain: runs the entity-resolved note or memory operation. No LLM for changes; a question
 * answered from notes and a summary of notes use the model when there is one, always quoting the
 * notes used. Changes are recorded in the operation ledger (ids and counts only), so a turn re-run
 * after a crash stores, deletes and forgets nothing twice.
 */
export function createSecondBrainExecutor(
  notes: NotesPort,
  memory: MemoryPort,
  ledger: OperationLedger,
  logger?: Logger,
  /** Journals note changes for "undo" (default: none). Forgetting a fact is a privacy request: not undoable. */
  undo?: UndoSettings,
  /** The user's documents, for "my documents" (default: none: listed as notes). */
  documents?: DocumentsPort,
): Executor {
  /** A note as replies show it; `query`: what a search looked for (a chunk is quoted from there). */
  const view = (note: StoredNote, context: CapabilityContext, query?: string): NoteView => {
    const label = documentLabel(note, context.language);
    const passage = query
      ? passageOf(note.content, query, 200, note.document?.title)
      : quoteOf(note.content, 200);
    return {
      id: note.id,
      // A chunk of a document shows as the document: "📄 School trip letter, p. 1: …".
      quote: label ? `${label}: ${passage}` : quoteOf(note.content),
      date: dayOf(new Date(note.updatedAt), context.state.user.timezone, context.language),
    };
  };

  /**
   * The notes `ids` name, a document's chunk standing for its whole document (its head note):
   * deleting a document is deleting its head note, which takes the document and its chunks along.
   */
  async function withDocuments(phone: string, ids: readonly string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const named = await notes.getMany(phone, ids);
    const heads = named.map((n) =>
      n.document?.chunk && n.document.headNoteId ? n.document.headNoteId : n.id,
    );
    return [...new Set([...heads, ...ids.filter((id) => !named.some((n) => n.id === id))])];
  }

  async function replay(recorded: Recorded, context: RunContext): Promise<ExecutorOutcome> {
    switch (recorded.kind) {
      case "stored":
      case "updated": {
        const [note] = await notes.getMany(context.phone, [recorded.noteId]);
        if (!note) return success({ kind: "deleted", notes: [] });
        return success(
          { kind: recorded.kind, note: view(note, context) },
          {
            latestAction: noteAction(recorded.kind === "stored" ? "store" : "update", [note]),
          },
        );
      }
      case "deleted":
        return success({ kind: "deleted", notes: [] });
      case "forgotten":
        return success({ kind: "forgotten", facts: [], notes: recorded.notes });
      case "forgotAll":
        return success({ kind: "forgotAll" });
    }
  }

  async function store(
    args: SecondBrainArgs<"notes.store">,
    context: RunContext,
  ): Promise<Ran<"notes.store">> {
    const { phone, language } = context;
    const content = nonEmpty(args.content);
    if (!content) return failure("INVALID_ARGS", t(language, "notes.askContent"));
    const sourceMessageId = await memory.sourceMessageId(phone, context.state.input.whatsappMessageId);
    const category = nonEmpty(args.category);
    const tags = strings(args.tags);
    const note = await notes.store(phone, {
      content,
      ...(category ? { category } : {}),
      ...(tags.length > 0 ? { tags } : {}),
      ...(sourceMessageId !== undefined ? { sourceMessageId } : {}),
      operationId: context.operationId,
    });
    // The note mentions a time: the reply says how to get a reminder instead.
    const namesTime = args.namesTime === true;
    return {
      outcome: success(
        { kind: "stored", note: view(note, context), ...(namesTime ? { namesTime } : {}) },
        { latestAction: noteAction("store", [note]) },
      ),
      record: { kind: "stored", noteId: note.id },
    };
  }

  async function search(
    args: SecondBrainArgs<"notes.search">,
    context: RunContext,
  ): Promise<Ran<"notes.search">> {
    const { phone, language } = context;
    const query = nonEmpty(args.query) ?? context.state.input.message;
    const hits = (await notes.search(phone, query, { limit: SEARCH_LIMIT })).map((m) => m.note);
    // A document found by its chunks is shown by them (with their pages), not also by its head note.
    const quoted = new Set(hits.flatMap((n) => (n.document?.chunk ? [n.document.id] : [])));
    const found = hits.filter((n) => !n.document || n.document.chunk || !quoted.has(n.document.id));
    const message = context.state.input.enhancedMessage ?? context.state.input.message;
    // The model reads a document's chunk with its title and page, so its answer can name them.
    const read = found.map((n) => {
      const label = documentLabel(n, language);
      return label ? { ...n, content: `${label}: ${n.content}` } : n;
    });
    const answer = isQuestion(message)
      ? await answerFromNotes(message, read, {
          llm: context.llm,
          language,
          ...(logger ? { logger } : {}),
        })
      : undefined;
    return {
      outcome: success(
        {
          kind: "found",
          query,
          notes: found.map((n) => view(n, context, query)),
          ...(answer ? { answer } : {}),
        },
        {
          ...(found.length > 0 ? { numbered: { type: "note" as const, ids: found.map((n) => n.id) } } : {}),
          // For a step of this message that depends on the search ("find the gate note and update it").
          produced: {
            ids: found.map((n) => n.id),
            summary: noteAction("search", found)?.summary ?? "",
          },
        },
      ),
    };
  }

  async function summarize(
    args: SecondBrainArgs<"notes.summarize">,
    context: RunContext,
  ): Promise<Ran<"notes.summarize">> {
    const { phone, language } = context;
    const query = nonEmpty(args.query);
    const read = query
      ? (await notes.search(phone, query, { limit: SUMMARY_LIMIT })).map((m) => m.note)
      : (await notes.list(phone, { limit: SUMMARY_LIMIT })).notes;
    const text = await summarizeNotes(read, {
      llm: context.llm,
      language,
      ...(logger ? { logger } : {}),
    });
    return {
      outcome: success(
        { kind: "summary", ...(query ? { query } : {}), notes: read.map((n) => view(n, context)), text },
        read.length > 0 ? { numbered: { type: "note", ids: read.map((n) => n.id) } } : {},
      ),
    };
  }

  async function listNotes(
    args: SecondBrainArgs<"notes.getAll">,
    context: RunContext,
  ): Promise<Ran<"notes.getAll">> {
    if (args.documents === true && documents) {
      const listed = await documents.list(context.phone, { limit: LIST_LIMIT });
      const shown = listed.documents.filter((d) => d.noteId !== null);
      const paged = (source: string) => source === "pdf" || source === "scan";
      return {
        outcome: success(
          {
            kind: "documents",
            documents: shown.map((d) => ({
              id: d.noteId!,
              title: d.title,
              ...(paged(d.source) ? { pages: d.pageCount } : {}),
              date: dayOf(new Date(d.createdAt), context.state.user.timezone, context.language),
            })),
            total: listed.total,
          },
          // Numbered as notes: "forget document 2" / "delete note 2" deletes its head note.
          shown.length > 0 ? { numbered: { type: "note", ids: shown.map((d) => d.noteId!) } } : {},
        ),
      };
    }
    const { notes: shown, total } = await notes.list(context.phone, { limit: LIST_LIMIT });
    return {
      outcome: success(
        { kind: "list", notes: shown.map((n) => view(n, context)), total },
        shown.length > 0 ? { numbered: { type: "note", ids: shown.map((n) => n.id) } } : {},
      ),
    };
  }

  async function update(
    args: SecondBrainArgs<"notes.update">,
    context: RunContext,
  ): Promise<Ran<"notes.update">> {
    const { phone, language } = context;
    const id = nonEmpty(args.noteId);
    const content = nonEmpty(args.newContent);
    if (!id || !content) return failure("INVALID_ARGS", t(language, "notes.askNewContent"));
    const note = await notes.update(phone, id, { content });
    if (!note) return failure("NOT_FOUND", t(language, "notes.notFoundAny"));
    return {
      outcome: success(
        { kind: "updated", note: view(note, context) },
        { latestAction: noteAction("update", [note]) },
      ),
      record: { kind: "updated", noteId: note.id },
    };
  }

  async function remove(
    args: SecondBrainArgs<"notes.delete">,
    context: RunContext,
  ): Promise<Ran<"notes.delete">> {
    const { phone, language } = context;
    const removed = await notes.delete(phone, await withDocuments(phone, namedNotes(args)));
    if (removed.length === 0) return failure("NOT_FOUND", t(language, "notes.notFoundAny"));
    // Plain notes first, then the documents' head notes: the reply names both kinds.
    const deleted = [...removed.filter((n) => !n.document), ...removed.filter((n) => n.document)];
    const titles = deleted.flatMap((n) => (n.document ? [n.document.title] : []));
    return {
      outcome: success(
        {
          kind: "deleted",
          notes: deleted.map((n) => view(n, context)),
          ...(titles.length > 0 ? { documents: titles } : {}),
        },
        {
          latestAction: {
            action: "delete",
            summary: deleted.length === 1 ? "a note" : `${deleted.length} notes`,
          },
        },
      ),
      record: { kind: "deleted" },
    };
  }

  /**
   * A fact as replies show it: since when, when the user said when it began; until when, once
   * something newer ended it. A start nobody said is not shown (the day it was told is not it).
   */
  function factView(fact: RememberedFact, context: RunContext): FactView {
    const zone = context.state.user.timezone;
    const dated = fact.precision !== "instant";
    return {
      id: fact.id,
      type: fact.type,
      content: fact.content,
      ...(fact.status ? { status: fact.status } : {}),
      ...(dated && { since: periodOf(fact.validFrom, fact.precision, zone, context.language) }),
      ...(fact.validUntil !== null && {
        until: periodOf(fact.validUntil, "day", zone, context.language),
      }),
    };
  }

  async function listMemories(
    args: SecondBrainArgs<"memory.list">,
    context: RunContext,
  ): Promise<Ran<"memory.list">> {
    const { phone } = context;
    const history = args.history === true;
    const [all, counts] = await Promise.all([
      memory.listFacts(phone, { history: true }),
      memory.counts(phone),
    ]);
    const facts = history ? all : all.filter((f) => f.validUntil === null);
    const changed = all.length > facts.length;
    return {
      outcome: success(
        {
          kind: "memories",
          facts: facts.map((f) => factView(f, context)),
          hasSummary: counts.hasSummary,
          ...(history && { history }),
          ...(changed && { changed }),
        },
        facts.length > 0 ? { numbered: { type: "memory", ids: facts.map((f) => f.id) } } : {},
      ),
    };
  }

  async function recall(
    args: SecondBrainArgs<"memory.recall">,
    context: RunContext,
  ): Promise<Ran<"memory.recall">> {
    const question = args.question?.trim() || context.state.input.message;
    const found = await memory.recall(context.phone, question, context.state.user.timezone);
    const zone = context.state.user.timezone;
    return {
      outcome: success({
        kind: "recalled",
        ...(found.period && {
          period: periodOf(found.period.from, found.period.precision, zone, context.language),
        }),
        facts: found.facts.map((f) => factView(f, context)),
        episodes: found.episodes.map((e) => ({
          kind: e.kind,
          title: e.outcome ? `${e.title} → ${e.outcome}` : e.title,
          when: periodOf(e.occurredAt, "day", zone, context.language),
        })),
        chunks: found.chunks.map((c) => {
          const [from, to] = [c.startedAt, c.endedAt].map((at) =>
            periodOf(at, "day", zone, context.language),
          );
          return { when: from === to ? from! : `${from} – ${to}`, summary: c.summary };
        }),
      }),
    };
  }

  async function forget(
    args: SecondBrainArgs<"memory.forget">,
    context: RunContext,
  ): Promise<Ran<"memory.forget">> {
    const { phone } = context;
    // "forget that…" naming one of the user's notes, not a remembered fact (asked first).
    const noteIds = strings(args.noteIds);
    if (noteIds.length > 0) {
      const deleted = await notes.delete(phone, await withDocuments(phone, noteIds));
      return {
        outcome: success(
          { kind: "forgotten", facts: deleted.map((n) => quoteOf(n.content, 60)), notes: 0 },
          { latestAction: { action: "forget", summary: `deleted ${deleted.length} note(s)` } },
        ),
        record: { kind: "forgotten", notes: deleted.length },
      };
    }
    const forgotten = await memory.forget(phone, strings(args.factIds));
    return {
      outcome: success(
        { kind: "forgotten", facts: forgotten.facts, notes: forgotten.notes },
        {
          latestAction: {
            action: "forget",
            summary: `forgot ${forgotten.facts.length} remembered thing(s)`,
          },
        },
      ),
      record: { kind: "forgotten", notes: forgotten.notes },
    };
  }

  async function forgetAll(
    args: SecondBrainArgs<"memory.forgetAll">,
    context: RunContext,
  ): Promise<Ran<"memory.forgetAll">> {
    if (args.confirmed !== true) return failure("NOT_CONFIRMED", t(context.language, "notes.memoriesHint"));
    await memory.forgetEverything(context.phone);
    return { outcome: success({ kind: "forgotAll" }), record: { kind: "forgotAll" } };
  }

  /** Runs one operation: the switch covers every operation the contract declares. */
  function run(op: SecondBrainOperation, context: RunContext): Promise<Ran<SecondBrainFunction>> {
    switch (op.functionName) {
      case "notes.store":
        return store(op.args, context);
      case "notes.search":
        return search(op.args, context);
      case "notes.summarize":
        return summarize(op.args, context);
      case "notes.getAll":
        return listNotes(op.args, context);
      case "notes.update":
        return update(op.args, context);
      case "notes.delete":
        return remove(op.args, context);
      case "memory.list":
        return listMemories(op.args, context);
      case "memory.recall":
        return recall(op.args, context);
      case "memory.forget":
        return forget(op.args, context);
      case "memory.forgetAll":
        return forgetAll(op.args, context);
      default:
        return assertNever(op);
    }
  }

  return typedExecutor(secondBrainContract, {
    name: "SecondBrainExecutor",
    async execute(op, context) {
      const { functionName } = op;
      if (!readsOnly(functionName)) {
        const recorded = (await ledger.get(context.phone, context.operationId)) as Recorded | undefined;
        // A re-run of a turn whose change already happened: reported, not done twice.
        if (recorded !== undefined) return replay(recorded, context);
      }
      const noteIds = "noteId" in op.args ? namedNotes(op.args) : [];
      // A document's delete is not undoable: its row, file and chunks go with its head note, and
      // the journal keeps copies of notes only. It is a forgetting, said so to "undo".
      const forgetsDocument =
        functionName === "notes.delete" &&
        (await notes.getMany(context.phone, noteIds)).some((n) => n.document !== undefined);
      const capture =
        undo && CHANGE[functionName] === "note" && !forgetsDocument
          ? new UndoCapture(undo.journal, context.phone, [
              { table: "notes", column: "id", values: noteIds },
              { table: "notes", column: "created_by_operation", values: [context.operationId] },
            ])
          : null;
      await capture?.before();
      let ran: Ran<SecondBrainFunction>;
      try {
        ran = await run(op, context);
      } catch (error) {
        // Empty or over-long note text is the user's to fix: said so, nothing stored.
        if (error instanceof NoteValidationError) {
          return { success: false, errorCode: "INVALID_NOTE", error: userTextOf(error, context.language) };
        }
        throw error;
      }
      const { outcome, record } = ran;
      const description = outcome.success ? undoDescription(outcome.data) : null;
      if (capture && description && undo) {
        await capture.finish({
          operationId: context.operationId,
          turnId: context.state.traceId,
          description,
          now: context.now,
          windowMs: undo.windowMs,
        });
      } else if (undo && outcome.success && (CHANGE[functionName] === "forget" || forgetsDocument)) {
        // Forgotten things are gone for good: "undo" says so, reaching no further back. The user's
        // earlier entries go too, since their copies may hold what was forgotten (a note's text
        // before an edit, the notes of a fact's message) and stepping back must never restore it.
        await recordIrreversible(undo, context.phone, {
          operationId: context.operationId,
          turnId: context.state.traceId,
          reason: "forgotten",
          now: context.now,
          forgetEarlier: true,
        });
      }
      if (outcome.success && record) await ledger.record(context.phone, context.operationId, record);
      return outcome;
    },
  });
}
