/**
 * The turn state the planner reads for one corpus item, built as Memo's own nodes build it: the
 * user in the item's zone and language, `now` from its local wall time (buildTimeContext, as
 * context_assembly does), the window from its history a minute apart with the message itself last,
 * its latest actions, whether it was forwarded, and a document caption's context folded into the
 * message as reply_context folds it (describeDocument + withAddedContext).
 */
import { describeDocument } from "../../src/graph/nodes/replyContextNode.js";
import { withAddedContext } from "../../src/prompts/conversationContext.js";
import { estimateTokens } from "../../src/services/memory/limits.js";
import type { DocumentContext } from "../../src/types/document.js";
import type { ConversationMessage, LatestAction, User } from "../../src/types/index.js";
import type { MemoState } from "../../src/types/state.js";
import { buildTimeContext } from "../../src/utils/timeContext.js";
import { nowOf, wallInstant, zoneOf, type PlannerItem } from "./corpus.js";

/** The evaluated user's phone (one user; nothing is stored). */
const PHONE = "972500000038";
const MINUTE_MS = 60_000;

function message(role: "user" | "assistant", content: string, timestamp: number): ConversationMessage {
  return { role, content, timestamp, estimatedTokens: estimateTokens(content) };
}

/** The document an item's message is the caption of, as the documents service hands it to the graph. */
function documentOf(item: PlannerItem): DocumentContext | undefined {
  if (!item.document) return undefined;
  const fileName = item.document.fileName ?? null;
  const source = fileName?.toLowerCase().endsWith(".pdf")
    ? "pdf"
    : fileName?.toLowerCase().endsWith(".docx")
      ? "docx"
      : "text";
  return {
    documentId: `${item.id}-document`,
    noteId: `${item.id}-note`,
    title: item.document.title,
    fileName,
    source,
    pageCount: 1,
    excerpt: item.document.excerpt,
  };
}

/** The user as stored: every capability on, Google connected, in the item's zone and language. */
function userOf(item: PlannerItem, nowMs: number): User {
  const at = new Date(nowMs).toISOString();
  return {
    phone: PHONE,
    displayName: null,
    timeZone: zoneOf(item),
    language: item.language,
    planTier: "free",
    capabilities: { calendar: true, gmail: true, database: true, secondBrain: true },
    googleConnected: true,
    lastInboundAt: at,
    digestEnabled: false,
    digestLocalTime: "08:00",
    quietStart: null,
    quietEnd: null,
    calendarSchedule: null,
    sabbathQuiet: false,
    sabbathCity: null,
    hebrewBirthday: null,
    weeklyReviewEnabled: false,
    weeklyReviewDay: null,
    weeklyReviewTime: null,
    voiceReplies: false,
    timeZoneChoices: null,
    createdAt: at,
    updatedAt: at,
  };
}

/** The state the planner node reads when the item's message arrives. */
export function plannerStateOf(item: PlannerItem): MemoState {
  const timeZone = zoneOf(item);
  const nowMs = nowOf(item);
  const user = userOf(item, nowMs);
  const history = item.history ?? [];
  // The window as context_assembly loads it: the earlier messages a minute apart, then this one.
  const recentMessages = [
    ...history.map((m, i) => message(m.role, m.text, nowMs - (history.length - i) * MINUTE_MS)),
    {
      ...message("user", item.message, nowMs),
      ...(item.forwarded ? { metadata: { forwarded: true } } : {}),
    },
  ];
  // Most recent first, each a minute before the one above it (they happened before the message).
  const latestActions: LatestAction[] = (item.latestActions ?? []).map((a, i) => ({
    createdAt: nowMs - (i + 1) * MINUTE_MS,
    capability: a.capability,
    action: a.action,
    summary: a.summary,
    ...(a.when ? { when: new Date(wallInstant(a.when, timeZone)).toISOString() } : {}),
  }));
  const documentContext = documentOf(item);
  return {
    authContext: { user },
    user: {
      phone: PHONE,
      timezone: timeZone,
      language: item.language,
      planTier: user.planTier,
      googleConnected: user.googleConnected,
      capabilities: user.capabilities,
    },
    input: {
      message: item.message,
      triggerType: "user",
      userPhone: PHONE,
      ...(item.forwarded ? { forwarded: true } : {}),
      ...(documentContext
        ? {
            documentContext,
            enhancedMessage: withAddedContext(item.message, [describeDocument(documentContext)]),
          }
        : {}),
    },
    now: buildTimeContext(nowMs, timeZone, item.language),
    recentMessages,
    longTermSummary: undefined,
    latestActions,
    refs: { steps: {} },
    plannerOutput: undefined,
    routingSuggestions: [],
    clarificationQuestion: undefined,
    hitlRequest: null,
    pendingHITL: null,
    hitlResults: {},
    hitlRounds: 0,
    disambiguation: undefined,
    resolverResults: new Map(),
    pendingExecutorArgs: {},
    executorArgs: new Map(),
    executionResults: new Map(),
    executedOperations: {},
    routerPasses: 0,
    formattedResponse: [],
    finalResponse: undefined,
    documentOffer: undefined,
    acted: false,
    error: undefined,
    metadata: {
      startTime: nowMs,
      nodeExecutions: [],
      llmCalls: 0,
      totalTokens: 0,
      totalCost: 0,
      llmUsage: [],
    },
    threadId: PHONE,
    traceId: `eval-${item.id}`,
  };
}
