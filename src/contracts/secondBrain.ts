/**
 * The second-brain capability's contract: every notes.* and memory.* operation its executor runs,
 * with the arguments it receives after entity resolution and the result it returns, and the plan
 * actions the planner may name (notes first, then what Memo remembers).
 */
import { z } from "zod";
import {
  actionsOf,
  defineContract,
  type ArgsOf,
  type CapabilityActions,
  type FunctionOf,
  type OperationOf,
  type Same,
} from "./contract.js";

const text = z.string().nullish();
const ids = z.array(z.string()).nullish();

/** A resolved note id (absent: no such note, refused as "which note?"). */
const noteId = text;

/** A note as replies show it. */
export interface NoteView {
  id: string;
  quote: string;
  /** The day it was written or last changed, in the user's zone and language ("3 Nov"). */
  date: string;
}

/** A remembered fact as replies show it. */
export interface FactView {
  id: string;
  type: string;
  content: string;
  status?: string;
  /** When it became true, as finely as it was said, in the user's zone and language ("the week of 16 Nov"); shown when said. */
  since?: string;
  /** When it stopped being true, in the user's zone and language; absent while it holds. */
  until?: string;
}

/** store: the note kept; `namesTime` when it mentions a time (the reply says how to get a reminder). */
interface Stored {
  kind: "stored";
  note: NoteView;
  namesTime?: boolean;
}

interface Updated {
  kind: "updated";
  note: NoteView;
}

/** delete: the notes removed (none: a re-run of a change whose note is gone since); `documents`: the titles of documents removed with theirs. */
interface Deleted {
  kind: "deleted";
  notes: NoteView[];
  documents?: string[];
}

/** search: the notes found, and the answer to a question read from them. */
interface Found {
  kind: "found";
  query: string;
  notes: NoteView[];
  answer?: string;
}

/** A stored document as "my documents" shows it (its id is its head note's: "forget document 2"). */
interface DocumentView {
  id: string;
  title: string;
  /** Pages of a paged document (a PDF); absent for a text without pages. */
  pages?: number;
  /** The day it was stored, in the user's zone and language. */
  date: string;
}

/** getAll with `documents`: the newest documents, and how many there are. */
interface DocumentListing {
  kind: "documents";
  documents: DocumentView[];
  total: number;
}

/** getAll: the newest notes, and how many there are. */
interface NoteListing {
  kind: "list";
  notes: NoteView[];
  total: number;
}

/** summarize: what the notes read say, with them as sources. */
interface Summary {
  kind: "summary";
  query?: string;
  notes: NoteView[];
  text: string;
}

/** memory.list: what Memo remembers about the user (with `history`, what stopped being true after). */
interface Memories {
  kind: "memories";
  facts: FactView[];
  hasSummary: boolean;
  history?: boolean;
  /** Some of what Memo remembers is no longer true ("what changed?" would show it). */
  changed?: boolean;
}

/** A remembered episode as replies show it: what kind, what, and the day, in the user's zone and language. */
interface EpisodeView {
  kind: string;
  title: string;
  when: string;
}

/** A summary of earlier conversation as replies show it, with the days it spans. */
interface ChunkView {
  when: string;
  summary: string;
}

/** memory.recall: what answers a question about the past, and the period it named ("March 2026"). */
interface Recalled {
  kind: "recalled";
  period?: string;
  facts: FactView[];
  episodes: EpisodeView[];
  chunks: ChunkView[];
}

/** memory.forget: the facts (or the note) forgotten, quoted, and how many notes went with them. */
interface Forgotten {
  kind: "forgotten";
  facts: string[];
  notes: number;
}

interface ForgotAll {
  kind: "forgotAll";
}

/** The operations of the second brain, in the order the prompts and the planner list them. */
export const secondBrainContract = defineContract("second-brain", {
  "notes.store": {
    args: z.object({
      content: text,
      category: text,
      tags: ids,
      /** Set in code only (the fast path): the note mentions a time. */
      namesTime: z.boolean().nullish(),
    }),
    creates: true,
    produces: "notes",
    actions: [{ name: "store_note" }],
    description:
      'keep a new note. "content" is what to keep, complete and in the user\'s own words and language, without the command words ("note:", "remember that", "תרשום", "תזכור ש"). Add "category" and "tags" only when obvious.',
  },
  "notes.search": {
    args: z.object({ query: text }),
    reads: true,
    produces: "notes",
    actions: [
      {
        name: "search_notes",
        hint: 'also a question about something the user noted: "what\'s the wifi password?", "מה הקוד של הלוקר?"',
        reads: true,
      },
    ],
    description:
      'find notes. "query" is the topic or the question\'s key words ("wifi password", "מתכון עוגה").',
  },
  "notes.summarize": {
    args: z.object({ query: text }),
    reads: true,
    actions: [{ name: "summarize_notes", reads: true }],
    description: 'sum up what the notes say about a topic ("query"), or all notes when no topic.',
  },
  "notes.getAll": {
    /** true: the documents (PDF, Word, text files) kept as notes ("my documents"). */
    args: z.object({ documents: z.boolean().nullish() }),
    reads: true,
    actions: [{ name: "list_notes", reads: true }],
    description: 'list every note; "documents": true lists the documents kept ("my documents").',
  },
  "notes.update": {
    args: z.object({ noteId, newContent: text }),
    produces: "notes",
    actions: [{ name: "update_note" }],
    description:
      'change a note. Name it by "noteRef" when the user points at a listed note ("#2") or the latest action ("@1", "it"; after an earlier step of this message, "it" is what that step stored or found: set fromStep to its id), else by "query" with the user\'s words; "newContent" is the whole new text.',
  },
  "notes.delete": {
    args: z.object({ noteId, noteIds: ids }),
    actions: [{ name: "delete_note" }],
    description: "remove a note, named as for update.",
  },
  "memory.list": {
    /** true: also what stopped being true ("what changed?"). */
    args: z.object({ history: z.boolean().nullish() }),
    reads: true,
    actions: [
      {
        name: "list_memories",
        hint: '"what do you remember about me?"; "what changed?" lists what stopped being true too',
        reads: true,
        functionName: "memory.list",
      },
    ],
    description: "what Memo remembers about the user.",
  },
  "memory.recall": {
    /** The user's question, with its time words as said ("where did I live in March?"). */
    args: z.object({ question: text }),
    reads: true,
    actions: [
      {
        name: "recall_memory",
        hint: '"where did I live in March?", "what did I tell you about Dana?", "מה אמרתי על התקציב בחודש שעבר?"',
        reads: true,
        functionName: "memory.recall",
      },
    ],
    description:
      "answer a question about what the user told Memo before, or what was true at a past time, from what Memo remembers.",
  },
  "memory.forget": {
    /** The remembered facts meant, or the note "forget that…" named instead (asked first). */
    args: z.object({ factIds: ids, noteIds: ids }),
    actions: [
      {
        name: "forget_memory",
        hint: '"forget that I…", "תשכח ש…"; copy the words of what to forget into constraints',
        functionName: "memory.forget",
      },
    ],
    description: "forget the remembered facts (or the note) the user's words name.",
  },
  "memory.forgetAll": {
    /** true once the user said yes to the question naming what it erases; nothing is erased without it. */
    args: z.object({ confirmed: z.boolean().nullish() }),
    actions: [{ name: "forget_everything", functionName: "memory.forgetAll" }],
    description: "forget everything Memo remembers and every note.",
  },
});

type SecondBrainContract = typeof secondBrainContract;
export type SecondBrainFunction = FunctionOf<SecondBrainContract>;
/** One second-brain operation with its arguments, as the executor switches on it. */
export type SecondBrainOperation = OperationOf<SecondBrainContract>;
export type SecondBrainArgs<F extends SecondBrainFunction> = ArgsOf<SecondBrainContract, F>;

/**
 * What each operation returns as data (the reply template's input). A change the ledger shows as
 * done, re-run after its note was deleted, reports the note deleted.
 */
export interface SecondBrainResults {
  "notes.store": Stored | Deleted;
  "notes.search": Found;
  "notes.summarize": Summary;
  "notes.getAll": NoteListing | DocumentListing;
  "notes.update": Updated | Deleted;
  "notes.delete": Deleted;
  "memory.list": Memories;
  "memory.recall": Recalled;
  "memory.forget": Forgotten;
  "memory.forgetAll": ForgotAll;
}

/** Any result of the second brain. */
export type SecondBrainData = SecondBrainResults[SecondBrainFunction];

// Every operation has a result type, and every result type an operation.
const _resultsCoverOperations: Same<keyof SecondBrainResults, SecondBrainFunction> = true;
void _resultsCoverOperations;

/** The note actions the planner may name. */
export const secondBrainActions: CapabilityActions = {
  capability: "second-brain",
  actions: actionsOf(secondBrainContract, "notes"),
};

/** What Memo remembers about the user: the actions, each with the executor function it runs as it is. */
export const memoryActions: CapabilityActions = {
  capability: "second-brain",
  actions: actionsOf(secondBrainContract, "memory"),
};
