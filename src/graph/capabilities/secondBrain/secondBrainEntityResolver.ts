import type { CapabilityContext, EntityResolution, EntityResolver } from "../../../types/capability.js";
import { t } from "../../../messages/index.js";
import type { DisambiguationState, PlanStep, ResolverResult } from "../../../types/index.js";
import { nonEmpty } from "../../../utils/args.js";
import type { MemoryPort, NoteMatch, NotesPort, StoredNote } from "../../../services/secondBrain/ports.js";
import { quoteOf } from "../../../services/secondBrain/replies.js";
import { decideMatch } from "../../../utils/fuzzy.js";
import {
  actionIds,
  bindToDependency,
  lastNumbered,
  latestNumbered,
  parseHandle,
} from "../../entities/references.js";
import { assertNever, declares } from "../../../contracts/contract.js";
import { secondBrainContract, type SecondBrainFunction } from "../../../contracts/secondBrain.js";

type Args = Record<string, unknown>;

/** How many notes or facts a "which one?" question offers. */
const MAX_CHOICES = 5;
/** Notes searched for the words that name one. */
const CANDIDATES = 10;
/**
 * How well the words must name a note to be taken as meant. Lower than for task names (0.55):
 * a note is a sentence, so the words the user names it by cover less of it ("the Dana note" on
 * "Dana's shoe size is 38" scores about 0.6).
 */
const NOTE_THRESHOLD = 0.4;
/** A remembered fact scoring under this is not what the user named. */
const FACT_THRESHOLD = 0.45;
/** Facts within this of the best are asked about together. */
const FACT_MARGIN = 0.12;

const notFound = (message: string): EntityResolution => ({ status: "not_found", message });

/**
 * What a risky plan asks before each operation: nothing (storing, reading, and "forget everything",
 * which asks already), the note it changes or deletes, or what it forgets. A new operation of the
 * contract fails `tsc` here until it says.
 */
const QUESTION: Record<SecondBrainFunction, "none" | "note" | "forget"> = {
  "notes.store": "none",
  "notes.search": "none",
  "notes.summarize": "none",
  "notes.getAll": "none",
  "notes.update": "note",
  "notes.delete": "note",
  "memory.list": "none",
  "memory.recall": "none",
  "memory.forget": "forget",
  "memory.forgetAll": "none",
};

/**
 * Which of the notes a search found the user's words name: one, several to ask about, or (none
 * named well enough) the search's own finds, one taken as meant only when it found just one.
 */
function chooseNote(query: string, found: NoteMatch[]): StoredNote[] {
  const decision = decideMatch(query, found, (m) => m.note.content, { threshold: NOTE_THRESHOLD });
  if (decision.kind === "one") return [decision.match.item.note];
  if (decision.kind === "several") return decision.matches.slice(0, MAX_CHOICES).map((m) => m.item.note);
  return found.slice(0, MAX_CHOICES).map((m) => m.note);
}

/** Forgetting one note the user's words named: asked first, quoting it. */
function forgetNoteQuestion(note: StoredNote, args: Args, language: "he" | "en"): EntityResolution {
  return {
    status: "confirm",
    question: t(language, "notes.forgetNote", { quote: quoteOf(note.content) }),
    args: { ...args, factIds: [], noteIds: [note.id] },
  };
}

/**
 * second-brain entity resolution: which note ("#2", "@1", "the wifi note") or which remembered
 * fact ("forget that I like coffee") a step means, asking when several fit; "forget everything"
 * is always confirmed first, naming what will be erased. Ids come only from the user's own notes
 * and facts, never from the model.
 */
/** "Which note?": the notes the words name, quoted, one to pick; the pick goes to `target`. */
function whichNote(
  step: PlanStep,
  query: string,
  notes: StoredNote[],
  args: Args,
  target: "noteId" | "noteIds",
  language: "he" | "en",
): EntityResolution {
  return {
    status: "disambiguation",
    entityLabel: t(language, "notes.entity"),
    disambiguation: {
      type: "note",
      stepId: step.id,
      query,
      candidates: notes.map((note) => ({ id: note.id, displayText: quoteOf(note.content, 80) })),
      allowMultiple: false,
      originalArgs: args,
      target,
    },
  };
}

export class SecondBrainEntityResolver implements EntityResolver {
  readonly capability = "second-brain" as const;

  constructor(
    private readonly notes: NotesPort,
    private readonly memory: MemoryPort,
  ) {}

  async resolve(
    step: PlanStep,
    result: ResolverResult,
    context: CapabilityContext,
  ): Promise<EntityResolution> {
    const args: Args = { ...(result.args ?? {}) };
    const functionName = result.functionName ?? "";
    // Not an operation of the contract: the executor refuses it.
    if (!declares(secondBrainContract, functionName)) return { status: "resolved", args };
    switch (functionName) {
      case "notes.update":
      case "notes.delete":
        return this.resolveNote(step, args, context);
      case "memory.forget":
        return this.resolveFacts(step, args, context);
      case "memory.forgetAll": {
        const counts = await this.memory.counts(context.phone);
        return {
          status: "confirm",
          question: t(context.language, "notes.confirmForgetAll", {
            facts: String(counts.facts),
            notes: String(counts.notes),
          }),
          args: { confirmed: true },
        };
      }
      // Nothing to find: what they store, search or list is in their arguments.
      case "notes.store":
      case "notes.search":
      case "notes.summarize":
      case "notes.getAll":
      case "memory.list":
      case "memory.recall":
        return { status: "resolved", args };
      default:
        return assertNever(functionName);
    }
  }

  /**
   * A risky plan's question before changing or deleting one note, or forgetting remembered facts,
   * quoting them. Storing and searching ask nothing; "forget everything" asks already.
   */
  async confirmation(step: PlanStep, args: Args, context: CapabilityContext): Promise<string | null> {
    const { language, phone } = context;
    const functionName = context.state.resolverResults.get(step.id)?.functionName ?? "";
    if (!declares(secondBrainContract, functionName)) return null;
    const asks = QUESTION[functionName];
    if (asks === "note" && typeof args.noteId === "string") {
      const [note] = await this.notes.getMany(phone, [args.noteId]);
      if (!note) return null;
      const key = functionName === "notes.delete" ? "notes.confirmDeleteNote" : "notes.confirmUpdateNote";
      return t(language, key, { quote: quoteOf(note.content) });
    }
    if (asks !== "forget") return null;
    const ids = new Set(Array.isArray(args.factIds) ? args.factIds : []);
    const facts = (await this.memory.listFacts(phone)).filter((f) => ids.has(f.id));
    if (facts.length > 0)
      return t(language, "notes.confirmForget", { quote: facts.map((f) => quoteOf(f.content)).join("; ") });
    // A note picked from "which note?": the pick chose which one, it did not agree to delete it.
    // One note the words named was asked about when it was resolved (a policy_confirmation answer).
    const noteId: unknown = Array.isArray(args.noteIds) ? args.noteIds[0] : undefined;
    if (typeof noteId !== "string" || context.answers.some((a) => a.reason === "policy_confirmation"))
      return null;
    const [note] = await this.notes.getMany(phone, [noteId]);
    return note ? t(language, "notes.forgetNote", { quote: quoteOf(note.content) }) : null;
  }

  applySelection(
    step: PlanStep,
    disambiguation: DisambiguationState,
    selection: string[],
    context: CapabilityContext,
  ): Promise<EntityResolution> {
    // Only what Memo itself offered: ids of this user's own notes or facts.
    const offered = new Set(disambiguation.candidates.map((c) => c.id));
    const chosen = selection.filter((id) => offered.has(id));
    if (chosen.length === 0) {
      const key = disambiguation.type === "note" ? "notes.whichNote" : "notes.whichMemory";
      return Promise.resolve(notFound(t(context.language, key)));
    }
    const args = { ...disambiguation.originalArgs };
    // "Forget that …" matching several notes: in a command the user typed (planned low-risk),
    // picking one of the quoted notes is the consent; a risky plan asks again (confirmation).
    if (disambiguation.target === "noteIds")
      return Promise.resolve({
        status: "resolved",
        args: { ...args, factIds: [], noteIds: chosen.slice(0, 1) },
      });
    // A document picked from "which one?": the pick chose it; deleting it is still asked (no undo).
    if (disambiguation.type === "note" && args.documents === true) {
      const picked = disambiguation.candidates.find((c) => c.id === chosen[0]);
      return Promise.resolve({
        status: "confirm",
        question: t(context.language, "documents.confirmDelete", {
          title: quoteOf(picked?.displayText ?? "").replace(/^📄\s*/u, ""),
        }),
        args: { ...args, noteId: chosen[0] },
      });
    }
    if (disambiguation.type === "note")
      return Promise.resolve({ status: "resolved", args: { ...args, noteId: chosen[0] } });
    return Promise.resolve({ status: "resolved", args: { ...args, factIds: chosen } });
  }

  private async resolveNote(
    step: PlanStep,
    args: Args,
    context: CapabilityContext,
  ): Promise<EntityResolution> {
    const { language, phone } = context;
    const ref = nonEmpty(args.noteRef);
    // "update it" after an earlier step of this message stored or found the note: that note.
    const binding = bindToDependency(
      context,
      "notes",
      { handle: ref, words: nonEmpty(args.query) },
      args.fromStep,
    );
    if (binding) {
      const notes = binding.status === "bound" ? await this.notes.getMany(phone, binding.ref.ids) : [];
      if (notes.length !== 1) return notFound(t(language, "notes.whichNote"));
      return { status: "resolved", args: { ...args, noteId: notes[0]!.id } };
    }
    const handle = ref ? parseHandle(ref) : null;
    if (handle) {
      const ids =
        handle.kind === "number"
          ? [lastNumbered(context.state.recentMessages, "note")?.ids[handle.n - 1]]
          : actionIds(context.state.latestActions, handle.n);
      const [note] = await this.notes.getMany(
        phone,
        ids.filter((id): id is string => typeof id === "string"),
      );
      if (!note)
        return notFound(
          t(language, handle.kind === "number" ? "notes.noSuchNumber" : "notes.notFoundAny", {
            n: String(handle.n),
          }),
        );
      // "forget document 2" after "my notes": note 2 must be a document, or nothing is deleted.
      if (args.documents === true && (!note.document || note.document.chunk))
        return notFound(t(language, "documents.notFound", { query: ref ?? "" }));
      return { status: "resolved", args: { ...args, noteId: note.id } };
    }
    const query = nonEmpty(args.query) ?? ref;
    if (!query) return notFound(t(language, "notes.whichNote"));
    const onlyDocuments = args.documents === true;
    const found = await this.asDocuments(phone, await this.notes.search(phone, query, { limit: CANDIDATES }));
    const chosen = chooseNote(query, onlyDocuments ? found.filter((m) => m.note.document) : found);
    if (chosen.length === 0)
      return notFound(t(language, onlyDocuments ? "documents.notFound" : "notes.notFound", { query }));
    // A document found by words is asked about first: deleting it cannot be undone.
    if (chosen.length === 1 && onlyDocuments)
      return {
        status: "confirm",
        question: t(language, "documents.confirmDelete", {
          title: chosen[0]!.document?.title ?? quoteOf(chosen[0]!.content),
        }),
        args: { ...args, noteId: chosen[0]!.id },
      };
    if (chosen.length === 1) return { status: "resolved", args: { ...args, noteId: chosen[0]!.id } };
    return whichNote(step, query, chosen, args, "noteId", language);
  }

  /**
   * Search matches with a document's chunks standing for the document (its head note, once, at
   * the rank of its best chunk): "forget the school letter" means the letter, not a paragraph.
   */
  private async asDocuments(phone: string, found: NoteMatch[]): Promise<NoteMatch[]> {
    const headIds = found.flatMap((m) =>
      m.note.document?.chunk && m.note.document.headNoteId ? [m.note.document.headNoteId] : [],
    );
    if (headIds.length === 0) return found;
    const heads = new Map((await this.notes.getMany(phone, headIds)).map((n) => [n.id, n]));
    const seen = new Set<string>();
    return found.flatMap((m) => {
      const head = m.note.document?.chunk ? heads.get(m.note.document.headNoteId ?? "") : m.note;
      if (!head || seen.has(head.id)) return [];
      seen.add(head.id);
      return [{ ...m, note: head }];
    });
  }

  private async resolveFacts(
    step: PlanStep,
    args: Args,
    context: CapabilityContext,
  ): Promise<EntityResolution> {
    const { language, phone } = context;
    const query = nonEmpty(args.query);
    if (!query) return notFound(t(language, "notes.whichMemory"));
    // "forget 2": item 2 of what Memo listed last, remembered things or notes.
    const handle = parseHandle(query);
    if (handle?.kind === "number") {
      const shown = latestNumbered(context.state.recentMessages);
      const id = shown?.type === "memory" || shown?.type === "note" ? shown.ids[handle.n - 1] : undefined;
      if (!id || !shown) return notFound(t(language, "notes.forgetNotFound", { query }));
      if (shown.type === "memory") return { status: "resolved", args: { ...args, factIds: [id] } };
      const [note] = await this.notes.getMany(phone, [id]);
      if (!note) return notFound(t(language, "notes.notFoundAny"));
      return {
        status: "confirm",
        question: t(language, "notes.confirmDeleteNote", { quote: quoteOf(note.content) }),
        args: { ...args, factIds: [], noteIds: [note.id] },
      };
    }
    const found = (await this.memory.findFacts(phone, query)).filter((f) => f.score >= FACT_THRESHOLD);
    if (found.length === 0) {
      // Not a remembered fact, but maybe a note ("remember that I'm pregnant" is kept as a note).
      // Only a note the words clearly name: one is asked about, several are offered to pick one.
      const candidates = await this.notes.search(phone, query, { limit: CANDIDATES });
      const decision = decideMatch(query, candidates, (m) => m.note.content, { threshold: NOTE_THRESHOLD });
      if (decision.kind === "one") return forgetNoteQuestion(decision.match.item.note, args, language);
      if (decision.kind === "several") {
        const notes = decision.matches.slice(0, MAX_CHOICES).map(({ item }) => item.note);
        return whichNote(step, query, notes, { ...args, factIds: [] }, "noteIds", language);
      }
      return notFound(t(language, "notes.forgetNotFound", { query }));
    }
    const best = found[0]!.score;
    const close = found.filter((f) => f.score >= best - FACT_MARGIN).slice(0, MAX_CHOICES);
    if (close.length === 1) return { status: "resolved", args: { ...args, factIds: [close[0]!.id] } };
    return {
      status: "disambiguation",
      entityLabel: t(language, "notes.entityMemory"),
      disambiguation: {
        type: "memory",
        stepId: step.id,
        query,
        candidates: close.map((f) => ({ id: f.id, displayText: f.content })),
        allowMultiple: true,
        originalArgs: args,
        target: "factIds",
      },
    };
  }
}
