import { randomUUID } from "node:crypto";
import { BinaryOperatorAggregate, Overwrite, type LangGraphRunnableConfig } from "@langchain/langgraph";
import { z } from "zod";
import type { MemoGraphDeps } from "./deps.js";
import { MemoStateAnnotation, type MemoUpdate } from "./state/memoState.js";
import type { InputContext } from "../types/state.js";
import { capText, MAX_MESSAGE_CHARS } from "../services/memory/limits.js";
import { normalizePhone } from "../utils/phone.js";
import { NodeInputError } from "./nodes/instrument.js";

/**
 * One turn as the LangGraph dev server takes it (LangGraph Studio shows it as a form): what the
 * transport hands MemoRuntime for an inbound message.
 */
export const TurnInputSchema = z.object({
  phone: z
    .string()
    .min(1)
    .describe("The sender's phone number (+972 50-123 4567 or 972501234567): the user and their data."),
  message: z.string().describe("What the user wrote (or the caption of their image)."),
  messageId: z.string().optional().describe("The message's WhatsApp id, so a later message can reply to it."),
  replyTo: z.string().optional().describe("The WhatsApp id of the earlier message this one replies to."),
  forwarded: z
    .boolean()
    .optional()
    .describe("WhatsApp marked it forwarded: someone else's words, data only."),
  timeZone: z
    .string()
    .optional()
    .describe("The user's time zone when Memo sees them for the first time (default: DEFAULT_TIME_ZONE)."),
  media: z
    .object({
      voiceTranscription: z
        .string()
        .optional()
        .describe("What the voice note said; `message` is then its text."),
      image: z
        .object({
          description: z.string().describe("What the image shows, as the vision model described it."),
          extractedText: z.string().optional().describe("The text read in it."),
        })
        .optional(),
    })
    .optional()
    .describe("What came with the message, as the transport analysed it."),
});

export type TurnInput = z.infer<typeof TurnInputSchema>;

/**
 * The state every turn starts from: each channel with a reducer back at its default. The dev server
 * keeps one thread's state from run to run where Memo discards a completed turn's checkpoints, so
 * a turn started there must not merge into the last one's results, ledger or trace id.
 */
function freshTurn(): MemoUpdate {
  const reset: Record<string, unknown> = {};
  for (const [key, channel] of Object.entries(MemoStateAnnotation.spec)) {
    // A channel without a reducer (LastValue) is written afresh by the node that owns it.
    if (channel instanceof BinaryOperatorAggregate && channel.initialValueFactory)
      reset[key] = new Overwrite(channel.initialValueFactory());
  }
  return reset;
}

/**
 * The turn's own channels, emptied once read: the dev server keeps every channel from run to run,
 * so a turn without `replyTo` (or media…) would otherwise read the previous turn's.
 */
const READ: Record<keyof TurnInput, null> = {
  phone: null,
  message: null,
  messageId: null,
  replyTo: null,
  forwarded: null,
  timeZone: null,
  media: null,
};

/** The dev server's id of the run a node runs in (each run, fork and resume has its own). */
export function runIdOf(config: LangGraphRunnableConfig): string | undefined {
  const runId = config.configurable?.run_id as unknown;
  return typeof runId === "string" && runId ? runId : undefined;
}

/**
 * turn_input (the dev server's graph only): maps a turn's input into Memo's state as
 * MemoRuntime.fresh does, the user loaded (created with `timeZone` on first contact) as the
 * transport would, and every per-turn channel reset.
 */
export function createTurnInputNode(deps: Pick<MemoGraphDeps, "users" | "defaultTimeZone" | "clock">) {
  return async (turn: TurnInput, config: LangGraphRunnableConfig): Promise<MemoUpdate> => {
    // The dev server does not check the form against the schema: a run without them fails here.
    if (!turn.phone) throw new NodeInputError("turn_input", "phone");
    if (typeof turn.message !== "string") throw new NodeInputError("turn_input", "message");
    const phone = normalizePhone(turn.phone);
    const user = await deps.users.getOrCreate(phone, { timeZone: turn.timeZone ?? deps.defaultTimeZone });
    // The run's id, not the message's: a message id sent again (a second replay, a run repeated
    // from the form) would otherwise find the first run's operations done and return their results.
    const traceId = runIdOf(config) ?? randomUUID();
    const image = turn.media?.image;
    const input: InputContext = {
      // Bounded as MemoRuntime bounds what reaches a model and the stored history.
      message: capText(turn.message, MAX_MESSAGE_CHARS).text,
      triggerType: "user",
      userPhone: phone,
      user,
      ...(turn.messageId ? { whatsappMessageId: turn.messageId } : {}),
      ...(turn.replyTo ? { replyToMessageId: turn.replyTo } : {}),
      ...(turn.forwarded ? { forwarded: true } : {}),
      ...(turn.media?.voiceTranscription ? { audioTranscription: turn.media.voiceTranscription } : {}),
      ...(image
        ? {
            imageContext: {
              imageId: `studio-${traceId}`,
              analysisResult: {
                description: image.description,
                ...(image.extractedText ? { extractedText: image.extractedText } : {}),
              },
              imageType: image.extractedText ? "structured" : "random",
              extractedAt: deps.clock(),
            },
          }
        : {}),
    };
    return { ...freshTurn(), ...READ, threadId: phone, traceId: new Overwrite(traceId), input };
  };
}
