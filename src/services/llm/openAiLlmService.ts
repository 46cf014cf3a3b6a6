import { AIMessage, HumanMessage, SystemMessage, type BaseMessage } from "@langchain/core/messages";
import { AsyncCaller } from "@langchain/core/utils/async_caller";
import { ChatOpenAI, type ChatOpenAIFields } from "@langchain/openai";
import type { z } from "zod";
import type { AppConfig } from "../../config/env.js";
import { resolveLLMConfig, type LLMModelConfig, type ResolvedLLMConfig } from "../../config/llmConfig.js";
import { type LLMNode } from "../../types/llm.js";
import type { Logger } from "../../utils/logger.js";
import { costUsd } from "./cost.js";
import { classifyFailure, LLMError } from "./llmError.js";
import type { LLMContentPart, LLMMessage, LLMResult, LLMService, LLMUsage } from "../../types/llm.js";
import { structuredMethodFor } from "./structuredMethod.js";
import { strictJsonSchemaOf, type JsonSchema } from "./strictSchema.js";
import { MemoError } from "../../utils/errors.js";
import { bufferedFetch } from "../../utils/bufferedFetch.js";

/** One attempt's answer and the tokens it took. */
interface Answer<T> {
  value: T;
  inputTokens: number;
  outputTokens: number;
}

/** Tokens as the server counted them (0 when it did not say). */
function tokensOf(message: BaseMessage): { inputTokens: number; outputTokens: number } {
  const usage = AIMessage.isInstance(message) ? message.usage_metadata : undefined;
  return { inputTokens: usage?.input_tokens ?? 0, outputTokens: usage?.output_tokens ?? 0 };
}

/**
 * JSON mode declares no schema to the server, so the model reads it at the end of the system
 * prompt: the same text on every call with this schema, so the cached prefix still holds.
 */
function withSchemaInPrompt(messages: LLMMessage[], schema: JsonSchema): LLMMessage[] {
  const shape = `Answer with one JSON object that matches this JSON Schema:\n${JSON.stringify(schema)}`;
  const last = messages.findLastIndex((m) => m.role === "system" && typeof m.content === "string");
  // One system message: some local servers' chat templates refuse a second.
  if (last < 0) return [{ role: "system", content: shape }, ...messages];
  return messages.map((m, i) => (i === last ? { ...m, content: `${m.content as string}\n\n${shape}` } : m));
}

/** System messages first, then the rest in the given order: a static prefix is what OpenAI caches. */
function toLangChain(messages: LLMMessage[]): BaseMessage[] {
  const ordered = [
    ...messages.filter((m) => m.role === "system"),
    ...messages.filter((m) => m.role !== "system"),
  ];
  return ordered.map((m) => {
    if (typeof m.content !== "string") return new HumanMessage({ content: m.content.map(toContentBlock) });
    return m.role === "system"
      ? new SystemMessage(m.content)
      : m.role === "user"
        ? new HumanMessage(m.content)
        : new AIMessage(m.content);
  });
}

/** A message part as OpenAI's chat API takes it; images travel inline as data URLs. */
function toContentBlock(part: LLMContentPart) {
  return part.type === "text"
    ? { type: "text" as const, text: part.text }
    : {
        type: "image_url" as const,
        image_url: { url: `data:${part.mimeType};base64,${part.data.toString("base64")}`, detail: "auto" },
      };
}

/** What zod rejected, by field and issue code only: the values are the user's words. */
function describeIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join(".") || "(root)"}: ${issue.code}`).join("; ");
}

/**
 * LLMService over ChatOpenAI (OpenAI or any OpenAI-compatible server). Each call goes to the
 * node's model, with ChatOpenAI's own retries on 429, 5xx and timeouts; if it still fails, or the
 * answer is not valid, it is tried once on the fallback model.
 */
/**
 * Rejects when the call's budget runs out, even while LangChain sits in a retry backoff (it looks
 * at the signal only between attempts). The abandoned attempt's own rejection is swallowed.
 */
function withinBudget<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    work.catch(() => undefined);
    return Promise.reject(new LLMTimeout());
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      work.catch(() => undefined);
      reject(new LLMTimeout());
    };
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/** The call's overall budget ran out. */
class LLMTimeout extends MemoError {
  /** The name classifyFailure reads as a timeout, as LangChain's own TimeoutError. */
  override name = "TimeoutError";

  constructor() {
    super("the LLM call's time budget ran out");
  }
}

/** LangChain's own retry decision (not exported, but every AsyncCaller carries it). */
const DEFAULT_FAILED_ATTEMPT = (
  new AsyncCaller({}) as unknown as { onFailedAttempt: (error: unknown) => unknown }
).onFailedAttempt;

/** A model bound to one structured-output schema, as `withStructuredOutput` builds it. */
type StructuredRunnable = ReturnType<ChatOpenAI["withStructuredOutput"]>;

class OpenAILLMService implements LLMService {
  private readonly models = new Map<string, ChatOpenAI>();
  /** Per schema, its structured-output runnable per model, name and method: built once. */
  private readonly structuredRunnables = new WeakMap<object, Map<string, StructuredRunnable>>();

  constructor(
    private readonly settings: ResolvedLLMConfig,
    private readonly apiKey: string,
    private readonly logger: Logger,
    private readonly clock: () => number,
  ) {
    for (const model of settings.unknownModels) {
      logger.warn(
        { model },
        "LLM model not in the model table: default capabilities assumed, cost counted as 0",
      );
    }
  }

  structured<T>(
    node: LLMNode,
    schema: z.ZodType<T>,
    messages: LLMMessage[],
    options: { name?: string } = {},
  ): Promise<LLMResult<T>> {
    // OpenAI accepts only [A-Za-z0-9_-] in schema and function names.
    const name = options.name ?? node.replace(/[^A-Za-z0-9_-]/g, "_");
    return this.call(node, (model, signal) =>
      this.structuredOnce(node, model, schema, messages, name, signal),
    );
  }

  text(node: LLMNode, messages: LLMMessage[]): Promise<LLMResult<string>> {
    return this.call(node, (model, signal) => this.textOnce(node, model, messages, signal));
  }

  private async structuredOnce<T>(
    node: LLMNode,
    model: LLMModelConfig,
    schema: z.ZodType<T>,
    messages: LLMMessage[],
    name: string,
    signal: AbortSignal,
  ): Promise<Answer<T>> {
    const runnable = this.structuredRunnable(model, schema, name);
    const sent =
      structuredMethodFor(model, this.settings.structuredOutputMethod) === "jsonMode"
        ? withSchemaInPrompt(messages, strictJsonSchemaOf(schema, name))
        : messages;
    const { raw, parsed } = (await runnable.invoke(toLangChain(sent), { signal })) as {
      raw: BaseMessage;
      parsed: unknown;
    };
    const tokens = tokensOf(raw);
    // With includeRaw, LangChain reports an unparsable answer as parsed: null instead of throwing.
    if (parsed === null || parsed === undefined) {
      throw this.invalidOutput(node, model, tokens, "the answer is not JSON of the expected shape");
    }
    const checked = schema.safeParse(parsed);
    if (!checked.success) {
      throw this.invalidOutput(
        node,
        model,
        tokens,
        `the answer breaks the schema (${describeIssues(checked.error)})`,
      );
    }
    return { value: checked.data, ...tokens };
  }

  private async textOnce(
    node: LLMNode,
    model: LLMModelConfig,
    messages: LLMMessage[],
    signal: AbortSignal,
  ): Promise<Answer<string>> {
    const message = await this.chat(model).invoke(toLangChain(messages), { signal });
    const tokens = tokensOf(message);
    if (message.text.trim() === "") throw this.invalidOutput(node, model, tokens, "the answer is empty");
    return { value: message.text, ...tokens };
  }

  /**
   * The node's model, then the fallback model once; throws the fallback's failure. The whole call,
   * retries and fallback included, has one time budget (twice LLM_TIMEOUT_MS).
   */
  private async call<T>(
    node: LLMNode,
    attempt: (model: LLMModelConfig, signal: AbortSignal) => Promise<Answer<T>>,
  ): Promise<LLMResult<T>> {
    const primary = this.settings.nodes[node];
    const fallback = this.settings.fallbacks[node];
    const started = this.clock();
    const signal = AbortSignal.timeout(this.settings.timeoutMs * 2);

    let first: LLMError;
    try {
      return this.succeed(
        node,
        primary,
        await withinBudget(attempt(primary, signal), signal),
        started,
        false,
      );
    } catch (error) {
      first = this.attemptFailed(node, primary, error, started);
    }
    // A fallback would only repeat: the same model, the same key (401/403), the same bad request
    // (400), or no time left.
    if (fallback.model === primary.model || [400, 401, 403].includes(first.status ?? 0) || signal.aborted)
      throw first;

    const fallbackStarted = this.clock();
    try {
      return this.succeed(
        node,
        fallback,
        await withinBudget(attempt(fallback, signal), signal),
        started,
        true,
        first.usage,
      );
    } catch (error) {
      const second = this.attemptFailed(node, fallback, error, fallbackStarted);
      throw new LLMError(
        second.kind,
        `LLM call for ${node} failed: ${first.kind} on ${primary.model}, then ${second.kind} on fallback ${fallback.model}`,
        {
          node,
          model: primary.model,
          fallbackModel: fallback.model,
          status: second.status,
          primaryKind: first.kind,
        },
        { cause: second, usage: this.sum(node, fallback.model, true, started, first.usage, second.usage) },
      );
    }
  }

  private succeed<T>(
    node: LLMNode,
    model: LLMModelConfig,
    answer: Answer<T>,
    started: number,
    fallback: boolean,
    earlier?: LLMUsage,
  ): LLMResult<T> {
    const own: LLMUsage = {
      node,
      model: model.model,
      inputTokens: answer.inputTokens,
      outputTokens: answer.outputTokens,
      costUsd: costUsd(model, answer.inputTokens, answer.outputTokens),
      durationMs: 0,
      fallback,
    };
    const usage = this.sum(node, model.model, fallback, started, earlier, own) ?? own;
    this.logger.debug(
      {
        node: usage.node,
        model: usage.model,
        inputTokens: usage.inputTokens,
        outputTokens: usage.outputTokens,
        costUsd: usage.costUsd,
        durationMs: usage.durationMs,
        fallback,
      },
      "llm call",
    );
    return { value: answer.value, usage };
  }

  /** Usage over the attempts that got an answer, timed from `started`; undefined when none did. */
  private sum(
    node: LLMNode,
    model: string,
    fallback: boolean,
    started: number,
    ...parts: (LLMUsage | undefined)[]
  ): LLMUsage | undefined {
    const known = parts.filter((p): p is LLMUsage => p !== undefined);
    if (known.length === 0) return undefined;
    return {
      node,
      model,
      inputTokens: known.reduce((n, p) => n + p.inputTokens, 0),
      outputTokens: known.reduce((n, p) => n + p.outputTokens, 0),
      costUsd: Math.round(known.reduce((n, p) => n + p.costUsd, 0) * 1e9) / 1e9,
      durationMs: Math.max(0, Math.round(this.clock() - started)),
      fallback,
    };
  }

  /** An answer came back but cannot be used; it still cost tokens. */
  private invalidOutput(
    node: LLMNode,
    model: LLMModelConfig,
    tokens: { inputTokens: number; outputTokens: number },
    reason: string,
  ): LLMError {
    return new LLMError(
      "invalid_output",
      `LLM answer for ${node} from ${model.model} is unusable: ${reason}`,
      { node, model: model.model },
      {
        usage: {
          node,
          model: model.model,
          ...tokens,
          costUsd: costUsd(model, tokens.inputTokens, tokens.outputTokens),
          durationMs: 0,
          fallback: false,
        },
      },
    );
  }

  /** One attempt's failure as an LLMError, logged without any message content. */
  private attemptFailed(node: LLMNode, model: LLMModelConfig, error: unknown, started: number): LLMError {
    const failure =
      error instanceof LLMError
        ? error
        : (() => {
            const { kind, status } = classifyFailure(error);
            return new LLMError(
              kind,
              `LLM call for ${node} failed on ${model.model}: ${kind}${status ? ` (HTTP ${status})` : ""}`,
              { node, model: model.model, ...(status ? { status } : {}) },
              // A parse error's message quotes the answer, which may quote the user: it stays out.
              kind === "invalid_output" ? {} : { cause: error },
            );
          })();
    this.logger.warn(
      {
        node,
        model: model.model,
        kind: failure.kind,
        status: failure.status,
        durationMs: Math.round(this.clock() - started),
      },
      "llm call failed",
    );
    return failure;
  }

  /** The model with structured output to `schema` (raw answer included), built on first use. */
  private structuredRunnable<T>(
    model: LLMModelConfig,
    schema: z.ZodType<T>,
    name: string,
  ): StructuredRunnable {
    const method = structuredMethodFor(model, this.settings.structuredOutputMethod);
    const key = JSON.stringify([this.chatKey(model), name, method]);
    let bySchema = this.structuredRunnables.get(schema);
    if (!bySchema) {
      bySchema = new Map<string, StructuredRunnable>();
      this.structuredRunnables.set(schema, bySchema);
    }
    let runnable = bySchema.get(key);
    if (!runnable) {
      // The strict JSON Schema, built once by OpenAI's own converter, not LangChain's conversion of
      // the zod schema: with zod 4 LangChain sends json_schema strict whatever it is told, function
      // calling strict only when asked, and leaves `.nullish()` fields out of `required`, which
      // strict mode refuses (docs/LLM.md).
      runnable = this.chat(model).withStructuredOutput(strictJsonSchemaOf(schema, name), {
        name,
        method,
        includeRaw: true,
        // Strict for both methods that carry a schema (unless turned off for a server that refuses
        // it); JSON mode has none to be strict about.
        ...(method === "jsonMode" ? {} : { strict: this.settings.structuredOutputStrict }),
      });
      bySchema.set(key, runnable);
    }
    return runnable;
  }

  private chatKey(model: LLMModelConfig): string {
    return JSON.stringify([model.model, model.temperature, model.maxTokens]);
  }

  /** One ChatOpenAI per model and sampling settings, built on first use. */
  private chat(model: LLMModelConfig): ChatOpenAI {
    const key = this.chatKey(model);
    let chat = this.models.get(key);
    if (!chat) {
      const fields: ChatOpenAIFields = {
        model: model.model,
        apiKey: this.apiKey,
        // Requests and answers are small JSON: read whole over node:http, not Node's fetch (see bufferedFetch).
        configuration: {
          fetch: bufferedFetch,
          ...(this.settings.baseUrl ? { baseURL: this.settings.baseUrl } : {}),
        },
        timeout: this.settings.timeoutMs,
        // ChatOpenAI's own retry: exponential backoff on 429 (when a wait is hinted), 5xx and timeouts.
        maxRetries: this.settings.maxRetries,
        // An unusable answer is not retried on the same model (each retry is paid): the fallback decides.
        onFailedAttempt: (error: unknown) => {
          if (classifyFailure(error).kind === "invalid_output") throw error;
          return DEFAULT_FAILED_ATTEMPT(error);
        },
        ...(model.supportsTemperature && model.temperature !== undefined
          ? { temperature: model.temperature }
          : {}),
        ...(model.maxTokens !== undefined ? { maxTokens: model.maxTokens } : {}),
      };
      chat = new ChatOpenAI(fields);
      this.models.set(key, chat);
    }
    return chat;
  }
}

/**
 * The LLM service of the configuration, or null when neither OPENAI_API_KEY nor OPENAI_BASE_URL
 * is set: Memo still runs then, without the parts that need a model.
 */
export function createLLMService(
  config: AppConfig,
  logger: Logger,
  options: { clock?: () => number } = {},
): LLMService | null {
  if (!config.openai.apiKey && !config.llm.baseUrl) {
    logger.info("no OPENAI_API_KEY or OPENAI_BASE_URL: running without an LLM");
    return null;
  }
  return new OpenAILLMService(
    resolveLLMConfig(config.llm),
    // Local OpenAI-compatible servers take no key, but the client insists on one.
    config.openai.apiKey ?? "no-key",
    logger,
    options.clock ?? (() => performance.now()),
  );
}
