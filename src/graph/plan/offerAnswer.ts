/**
 * The answer to a document's numbered offer (issue 37), planned and resolved in code (D13): "1 and
 * 2", "all", "none", "הכל", "1 ו-2" after Memo's offer add exactly the items chosen, at exactly the
 * local times offered, through the calendar and tasks capabilities (so undo and the ledger work as
 * for any add). An item offered without a time asks when. The offer is answered only while it is
 * the newest numbered thing Memo sent and younger than the conversation window.
 */
import { CONVERSATION_MAX_AGE_MS } from "../../config/lifetimes.js";
import { t } from "../../messages/index.js";
import { readOfferAnswer } from "../../nlu/offerAnswer.js";
import { instantToLocal, localToInstant } from "../../nlu/zonedTime.js";
import type { DocumentOffer, OfferItem } from "../../types/document.js";
import type { ConversationMessage, PlanStep, PlannerOutput, ResolverResult } from "../../types/index.js";
import type { FastPathTurn } from "./fastPath.js";

/** An event offered with a start and no end lasts this long (minutes). */
const DEFAULT_EVENT_MINUTES = 60;

/** Whether a user message answered an offer of `count` items (a number outside it answered nothing). */
function answered(text: string, count: number): boolean {
  const answer = readOfferAnswer(text, count);
  return answer !== null && (answer.kind !== "numbers" || answer.numbers.every((n) => n >= 1 && n <= count));
}

/** Whether an assistant message is the one `id` names (its WhatsApp id, or Memo's own before sending). */
function isMessage(message: ConversationMessage, id: string): boolean {
  return message.whatsappMessageId === id || message.localId === id;
}

/**
 * Whether the offer in `messages[index]` was answered by a user message after it: one quoting it,
 * or one quoting nothing while it was still the newest thing Memo numbered.
 */
function answeredBefore(
  messages: readonly ConversationMessage[],
  index: number,
  offer: DocumentOffer,
): boolean {
  const offerMessage = messages[index]!;
  let newest = true;
  for (const message of messages.slice(index + 1)) {
    const metadata = message.metadata;
    if (
      message.role === "assistant" &&
      (metadata?.documentOffer || metadata?.numbered || metadata?.disambiguationContext)
    )
      newest = false;
    if (message.role !== "user" || !answered(message.content, offer.items.length)) continue;
    const quoted = message.replyToMessageId;
    if (quoted ? isMessage(offerMessage, quoted) : newest) return true;
  }
  return false;
}

/**
 * The offer a message answers: the one it quotes (when it quotes an offer; quoting anything else it
 * answers none), else the newest thing Memo numbered when that is an offer (a listing, a choice
 * list or another offer after it replaces it). Either way younger than the window and not answered
 * yet (by a message before `current`, the one being read, which the window already holds): an
 * offer is answered once, so a second "1" adds nothing twice.
 */
function openOffer(
  messages: readonly ConversationMessage[],
  current: string,
  nowMs: number,
  quoted: string | undefined,
): DocumentOffer | null {
  const last = messages.at(-1);
  const before = last?.role === "user" && last.content === current ? messages.slice(0, -1) : messages;
  const open = (index: number): DocumentOffer | null => {
    const offer = before[index]!.metadata!.documentOffer!;
    if (answeredBefore(before, index, offer)) return null;
    return nowMs - offer.offeredAt <= CONVERSATION_MAX_AGE_MS ? offer : null;
  };
  if (quoted) {
    const index = before.findIndex((m) => m.role === "assistant" && isMessage(m, quoted));
    return index >= 0 && before[index]!.metadata?.documentOffer ? open(index) : null;
  }
  for (let i = before.length - 1; i >= 0; i--) {
    const message = before[i]!;
    if (message.role !== "assistant") continue;
    const metadata = message.metadata;
    if (metadata?.documentOffer) return open(i);
    if (metadata?.numbered || metadata?.disambiguationContext) return null;
  }
  return null;
}

/** "YYYY-MM-DDTHH:mm" (or a date alone, at midnight) as the instant it names in `timeZone`, ISO. */
function instantOf(local: string, timeZone: string): string {
  const [y, m, d] = local.slice(0, 10).split("-").map(Number);
  const [hour, minute] = local.length > 10 ? local.slice(11, 16).split(":").map(Number) : [0, 0];
  return new Date(
    localToInstant({ year: y!, month: m!, day: d!, hour: hour!, minute: minute! }, timeZone),
  ).toISOString();
}

/** The day after a "YYYY-MM-DD" date (an all-day event's exclusive end). */
function nextDay(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

/** One chosen item as a plan step and its resolved operation. */
function stepOf(
  stepId: string,
  item: OfferItem,
  timeZone: string,
  language: "he" | "en",
): { step: PlanStep; resolved: ResolverResult } {
  const base = { id: stepId, constraints: {}, changes: { title: item.title }, dependsOn: [] };
  const task = (args: Record<string, unknown>) => ({
    step: { ...base, capability: "database" as const, action: "create_task" },
    resolved: { stepId, type: "execute" as const, functionName: "tasks.create", args },
  });
  if (!item.start) {
    // No day read whole: asked, and the answer is read in code like any time question (D10); an
    // event is still an event once answered (offeredEventAt), with the day read kept when there is one.
    const question = t(language, "offers.askWhen", { title: item.title });
    const day = item.day ? { day: item.day } : {};
    if (item.kind === "event") {
      const args = { inputs: [{ summary: item.title, timeZone }] };
      return {
        step: { ...base, capability: "calendar", action: "create_event" },
        resolved: {
          stepId,
          type: "clarify",
          question,
          resume: { kind: "time", functionName: "calendar.create", args, understood: item.day ?? "", ...day },
        },
      };
    }
    const args = { operation: "create", text: item.title };
    return {
      step: task(args).step,
      resolved: {
        stepId,
        type: "clarify",
        question,
        resume: { kind: "time", functionName: "tasks.create", args, understood: item.day ?? "", ...day },
      },
    };
  }
  if (item.kind === "reminder") {
    const dueDate = item.start.length === 10 ? item.start : instantOf(item.start, timeZone);
    return task({ operation: "create", text: item.title, dueDate });
  }
  const allDay = item.start.length === 10;
  const start = allDay ? item.start : instantOf(item.start, timeZone);
  const end = allDay
    ? nextDay(item.end?.slice(0, 10) ?? item.start)
    : item.end
      ? instantOf(item.end, timeZone)
      : new Date(Date.parse(start) + DEFAULT_EVENT_MINUTES * 60_000).toISOString();
  const input = { summary: item.title, allDay, start, end, timeZone };
  return {
    step: { ...base, capability: "calendar", action: "create_event" },
    resolved: { stepId, type: "execute", functionName: "calendar.create", args: { inputs: [input] } },
  };
}

/**
 * An offered event asked its time, once answered: the time arguments of the answer ("dueDate", an
 * instant or a local day) as the event's start, an hour long (a day: all-day). Null when the
 * answer is no single time (a repeat): the event is not guessed.
 */
export function offeredEventAt(
  args: Record<string, unknown>,
  time: Record<string, unknown>,
): Record<string, unknown> | null {
  const [input] = (args.inputs as Record<string, unknown>[] | undefined) ?? [];
  const due = time.dueDate;
  if (!input || typeof due !== "string") return null;
  if (due.length === 10) return { inputs: [{ ...input, allDay: true, start: due, end: nextDay(due) }] };
  const end = new Date(Date.parse(due) + DEFAULT_EVENT_MINUTES * 60_000).toISOString();
  return { inputs: [{ ...input, allDay: false, start: due, end }] };
}

/** A turn that only says `answer`. */
function sayTurn(answer: string): FastPathTurn {
  return {
    plannerOutput: plannerOutputOf([
      { id: "A", capability: "general", action: "answer", constraints: {}, changes: {}, dependsOn: [] },
    ]),
    resolverResults: new Map([
      ["A", { stepId: "A", type: "execute", functionName: "respond", args: { answer } }],
    ]),
  };
}

function plannerOutputOf(plan: PlanStep[]): PlannerOutput {
  return {
    intentType: plan.every((s) => s.capability === "general") ? "conversation" : "operation",
    confidence: 1,
    riskLevel: "low",
    needsApproval: false,
    missingFields: [],
    plan,
  };
}

/** The turn of a message that answers the open offer, or null when it is no such answer. */
export function offerAnswerTurn(
  message: string,
  messages: readonly ConversationMessage[],
  nowMs: number,
  timeZone: string,
  language: "he" | "en",
  /** The message the answer quotes, when it quotes one. */
  quoted?: string,
): FastPathTurn | null {
  const offer = openOffer(messages, message, nowMs, quoted);
  if (!offer || offer.items.length === 0) return null;
  const answer = readOfferAnswer(message, offer.items.length);
  if (!answer) return null;
  if (answer.kind === "none") return sayTurn(t(language, "offers.none"));
  const numbers = answer.kind === "all" ? offer.items.map((_, i) => i + 1) : answer.numbers;
  const missing = numbers.filter((n) => n < 1 || n > offer.items.length);
  if (missing.length > 0) {
    return sayTurn(
      t(language, "offers.noSuchNumber", { count: offer.items.length, numbers: missing.join(", ") }),
    );
  }
  // An offer answered later than an item's time adds no item already past: it says so instead.
  const now = localOf(nowMs, timeZone);
  const passed = numbers.filter((n) => {
    const start = offer.items[n - 1]!.start;
    return start !== undefined && (start.length === 10 ? start < now.slice(0, 10) : start <= now);
  });
  const passedText = t(language, "offers.passed", {
    titles: passed.map((n) => `“${offer.items[n - 1]!.title}”`).join(", "),
  });
  const left = numbers.filter((n) => !passed.includes(n));
  if (left.length === 0) return sayTurn(passedText);
  const chosen = left.map((n, i) =>
    stepOf(String.fromCharCode(65 + i), offer.items[n - 1]!, timeZone, language),
  );
  // The items with a time run at once; those asked about come after them, so a question left
  // unanswered (or "cancel") holds back only its own item.
  const dated = chosen.filter((c) => c.resolved.type === "execute").map((c) => c.step.id);
  // The question says what was added before it, so an unanswered question does not read as "nothing".
  const addedFirst = left.filter((_, i) => chosen[i]!.resolved.type === "execute");
  const before = addedFirst.length
    ? `${t(language, "offers.addedBeforeQuestion", { numbers: addedFirst.join(", ") })}\n`
    : "";
  for (const c of chosen)
    if (c.resolved.type === "clarify") {
      c.step = { ...c.step, dependsOn: dated };
      c.resolved = { ...c.resolved, question: `${before}${c.resolved.question}` };
    }
  const said: { step: PlanStep; resolved: ResolverResult }[] =
    passed.length > 0
      ? [
          {
            step: {
              id: "P",
              capability: "general",
              action: "answer",
              constraints: {},
              changes: {},
              dependsOn: [],
            },
            resolved: { stepId: "P", type: "execute", functionName: "respond", args: { answer: passedText } },
          },
        ]
      : [];
  const all = [...chosen, ...said];
  return {
    plannerOutput: plannerOutputOf(all.map((c) => c.step)),
    resolverResults: new Map(all.map((c) => [c.step.id, c.resolved])),
  };
}

/** The local wall time of `nowMs` in `timeZone`, "YYYY-MM-DDTHH:mm". */
function localOf(nowMs: number, timeZone: string): string {
  const local = instantToLocal(nowMs, timeZone);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${local.year}-${pad(local.month)}-${pad(local.day)}T${pad(local.hour)}:${pad(local.minute)}`;
}
