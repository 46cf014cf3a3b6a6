import { awaitAllCallbacks } from "@langchain/core/callbacks/promises";
import { RunnableLambda } from "@langchain/core/runnables";
import type { Run } from "@langchain/core/tracers/base";
import { Client } from "langsmith";
import type { TracingSettings } from "../../config/env.js";
import type { TriggerType } from "../../types/index.js";
import type { Logger } from "../../utils/logger.js";
import { phoneTag } from "../../utils/phone.js";
import { MemoTurnTracer, TURN_RUN_NAME } from "./memoTurnTracer.js";
import { redactPayload, scrubIdentifiers, type Tagger } from "./redact.js";

/** The turn a trace is about. */
export interface TracedTurn {
  /** The user's normalized phone; traces carry only its tag. */
  phone?: string;
  /** Memo's trace id (the WhatsApp message id, or a generated one). */
  traceId: string;
  trigger: TriggerType;
  /** The LangSmith thread instead of the user's own (a replay's). */
  threadId?: string;
}

/** What `graph.invoke` takes to trace one turn. */
export interface TurnTraceConfig {
  callbacks: MemoTurnTracer[];
  runName: string;
  metadata: Record<string, unknown>;
}

export interface TracingOptions {
  settings: TracingSettings;
  logger: Logger;
  /** Keyed tag of a phone number or message id (default: phoneTag, the tag the logs carry). */
  tag?: Tagger;
  /** Metadata on every trace (the replay's `replay: true`) (default: none). */
  metadata?: Record<string, unknown>;
}

/** LangChain's switches for tracing on its own, with its own client that knows nothing of redaction. */
const IMPLICIT_TRACING_VARIABLES = [
  "LANGSMITH_TRACING",
  "LANGSMITH_TRACING_V2",
  "LANGCHAIN_TRACING",
  "LANGCHAIN_TRACING_V2",
];

/**
 * Turns off LangChain's implicit tracing. @langchain/core reads LANGSMITH_TRACING (and its older
 * names) on every call and, when it is "true", traces any model call made without a tracer through
 * a client of its own: unredacted, phone numbers and all. Memo reads LANGSMITH_TRACING itself and
 * passes its own tracer, so the switches are cleared from the process environment, whatever they say.
 */
export function disableImplicitTracing(logger: Logger, env: NodeJS.ProcessEnv = process.env): void {
  for (const name of IMPLICIT_TRACING_VARIABLES) {
    if (env[name] === undefined) continue;
    if (name !== "LANGSMITH_TRACING" && env[name] === "true") {
      logger.warn({ variable: name }, `${name} is ignored: Memo traces only with LANGSMITH_TRACING=true`);
    }
    delete env[name];
  }
}

/**
 * LangSmith tracing of Memo's turns: one `memo-turn` trace per turn, its graph nodes as child runs,
 * their LLM calls below them, grouped into one thread per user (`thread_id` = "user-" + the
 * user's keyed tag). Everything sent goes through `redactPayload` first.
 */
/**
 * An error's class name from the string LangChain records (its message, then its stack, whose
 * first line is "GraphInterrupt: …"), e.g. "GraphInterrupt", "LLMError"; otherwise "Error".
 */
function errorName(error: unknown): string {
  if (typeof error !== "string") return "Error";
  return /(?:^|\n)\s*([A-Z][\w$]*(?:Error|Interrupt|Exception))\b/.exec(error)?.[1] ?? "Error";
}

export class Tracing {
  /** The LangSmith client; its queue is flushed by `flush`. */
  readonly client: Client;
  private readonly tag: Tagger;

  constructor(private readonly options: TracingOptions) {
    const { settings } = options;
    const tag = (this.tag = options.tag ?? phoneTag);
    const redact = <T>(values: T) => redactPayload(values, { includeContent: settings.includeContent, tag });
    this.client = new Client({
      apiUrl: settings.endpoint,
      apiKey: settings.apiKey,
      hideInputs: redact,
      hideOutputs: redact,
      // Metadata is Memo's and LangChain's own (ids, models, counts): phone numbers are still tagged.
      hideMetadata: (metadata) => redactPayload(metadata, { includeContent: true, tag }),
      // Errors say what broke. Their messages can hold words (LangGraph's interrupt "error" is the
      // question asked, with its options): without content only the error's name goes; numbers
      // are tagged either way.
      anonymizer: (values) =>
        settings.includeContent
          ? redactPayload(values, { includeContent: true, tag })
          : { ...values, error: errorName(values.error) },
    });
  }

  /** The user's LangSmith thread: "user-" + their keyed tag (the `user` field of their log lines). */
  threadIdOf(phone: string): string {
    return `user-${this.tag(phone)}`;
  }

  /** The callbacks, run name and metadata that make one `graph.invoke` a `memo-turn` trace. */
  turnConfig(turn: TracedTurn, label?: (run: Run) => void): TurnTraceConfig {
    const tracer = new MemoTurnTracer(
      { client: this.client, projectName: this.options.settings.project },
      {
        stray: new Set(),
        scrubExtra: (extra) => redactPayload(extra, { includeContent: true, tag: this.tag }),
        ...(label ? { label } : {}),
      },
    );
    return { callbacks: [tracer], runName: TURN_RUN_NAME, metadata: this.metadataOf(turn) };
  }

  /**
   * Runs scheduler work that calls a model outside the graph (the digest polish) as a trace of its
   * own, named `memo-turn` like a turn: LangChain calls inside it nest under it and carry its
   * metadata. `labels` adds what the result says (tokens, cost) to the root's metadata.
   */
  traceWork<T extends object>(
    turn: TracedTurn,
    kind: string,
    work: () => Promise<T>,
    labels?: (result: T) => Record<string, unknown>,
  ): Promise<T> {
    const label = (run: Run) => {
      const metadata = run.extra?.metadata as Record<string, unknown> | undefined;
      const extra = run.error || !labels ? {} : labels(run.outputs as T);
      run.extra = {
        ...run.extra,
        metadata: { ...metadata, status: run.error ? "failed" : "completed", ...extra },
      };
    };
    const config = this.turnConfig(turn, label);
    return RunnableLambda.from(async (_input: { kind: string }) => work()).invoke(
      { kind },
      { ...config, metadata: { ...config.metadata, kind } },
    );
  }

  /**
   * Sends every run still queued (LangChain's callbacks run in the background, then the client
   * batches). Resolves false if `timeoutMs` passes first; never throws.
   */
  async flush(timeoutMs: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const sent = (async () => {
      await awaitAllCallbacks();
      await this.client.awaitPendingTraceBatches();
      return true;
    })().catch((error: unknown) => {
      this.options.logger.warn({ err: error }, "LangSmith traces could not be sent");
      return false;
    });
    const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
    const result = await Promise.race([sent, late]);
    clearTimeout(timer);
    if (!result) this.options.logger.warn({ timeoutMs }, "LangSmith traces not all sent before shutdown");
    return result;
  }

  private metadataOf(turn: TracedTurn): Record<string, unknown> {
    const thread = turn.threadId ?? (turn.phone ? this.threadIdOf(turn.phone) : undefined);
    return {
      ...this.options.metadata,
      ...(thread ? { thread_id: thread } : {}),
      // A WhatsApp message id spells the sender's number: it goes as its tag.
      trace_id: scrubIdentifiers(turn.traceId, this.tag),
      trigger: turn.trigger,
    };
  }
}

/**
 * Memo's tracing, or null when LANGSMITH_TRACING is not "true" (no client, no callbacks: nothing
 * runs). LangChain's own implicit tracing is turned off either way.
 */
export function createTracing(
  settings: TracingSettings | null,
  logger: Logger,
  options: Pick<TracingOptions, "metadata"> = {},
): Tracing | null {
  disableImplicitTracing(logger);
  return settings ? new Tracing({ settings, logger, ...options }) : null;
}
