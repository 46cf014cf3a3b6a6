import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { z } from "zod";
import { planFieldsOf } from "../../src/prompts/plannerPrompt.js";

/**
 * A scripted OpenAI-compatible chat completions server on 127.0.0.1, for tests: the real
 * `ChatOpenAI` client talks to it over HTTP (`configuration: { baseURL: server.baseUrl }`), so its
 * request building, retries, timeouts and structured-output parsing all run.
 *
 *   const server = await ScriptedOpenAI.start();
 *   server.enqueue({ json: { intent: "reminder" } }, { status: 429 }, { text: "Done!" });
 *   server.on((req) => req.body.model === "gpt-4o", { text: "from the fallback" });
 *   ... server.requests[0].body.messages ...
 *   await server.close();
 */

/** One scripted answer. With none of json/text/rawContent/status set, the answer is empty text. */
export interface ScriptedReply {
  /**
   * Structured answer: sent as the message content (a JSON string) when the request used
   * `response_format`, or as a tool call with these arguments when it declared `tools`.
   */
  json?: unknown;
  /** Plain assistant text content. */
  text?: string;
  /** Answer with this HTTP error status instead (e.g. 429, 500), with an OpenAI-style error body. */
  status?: number;
  /** The error body's fields for `status` (default: what OpenAI sends for that status). */
  error?: { message?: string; type?: string; code?: string | null };
  /** Content (or tool-call arguments) sent verbatim, e.g. invalid JSON. */
  rawContent?: string;
  /** Milliseconds to wait before answering. */
  delayMs?: number;
  /** Never answer (to test client timeouts); `close()` still ends the connection. */
  hang?: boolean;
  /** Token counts to report (default: roughly 1 token per 4 characters). */
  usage?: { prompt_tokens: number; completion_tokens: number };
}

/** One chat message as the client sent it. */
interface RecordedMessage {
  role: string;
  content: unknown;
  [key: string]: unknown;
}

/** The body of a chat completions request. */
export interface ChatCompletionBody {
  model: string;
  messages: RecordedMessage[];
  response_format?: unknown;
  tools?: unknown[];
  tool_choice?: unknown;
  stream?: boolean;
  [key: string]: unknown;
}

export interface RecordedRequest {
  path: string;
  body: ChatCompletionBody;
  /** Date.now() when the request arrived. */
  at: number;
}

type ReplySource = ScriptedReply | ((req: RecordedRequest) => ScriptedReply);

interface Matcher {
  match: (req: RecordedRequest) => boolean;
  reply: ReplySource;
  /** Answers left; undefined means unlimited. */
  remaining: number | undefined;
}

const BodySchema = z.looseObject({
  model: z.string(),
  messages: z.array(z.looseObject({ role: z.string(), content: z.unknown() })),
  response_format: z.unknown().optional(),
  tools: z.array(z.unknown()).optional(),
  tool_choice: z.unknown().optional(),
  stream: z.boolean().optional(),
});

const ROUTES = new Set(["/v1/chat/completions", "/chat/completions"]);
const TRANSCRIPTION_ROUTES = new Set(["/v1/audio/transcriptions", "/audio/transcriptions"]);

/** One audio transcription request: its form fields and the uploaded file. */
export interface RecordedTranscription {
  model: string;
  language?: string;
  filename: string;
  contentType: string;
  bytes: Buffer;
  at: number;
}

const SPEECH_ROUTES = new Set(["/v1/audio/speech", "/audio/speech"]);

/** One speech (text to speech) request, as its JSON body gave it. */
export interface RecordedSpeech {
  model: string;
  voice: string;
  input: string;
  responseFormat?: string;
  instructions?: string;
  at: number;
}

/** A scripted speech answer: the audio bytes (with their content type), or an error status. */
export type ScriptedSpeech = { audio: Buffer; contentType?: string } | { status: number };

/** A scripted transcription: the text heard, or an error status. */
export type ScriptedTranscription = { text: string; delayMs?: number } | { status: number };

/** The parts of a multipart/form-data body: name → { value, filename, contentType }. */
function parseMultipart(
  body: Buffer,
  contentType: string,
): Map<string, { value: Buffer; filename?: string; contentType?: string }> {
  const parts = new Map<string, { value: Buffer; filename?: string; contentType?: string }>();
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
  if (!boundary) return parts;
  const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
  let start = body.indexOf(delimiter);
  while (start >= 0) {
    const next = body.indexOf(delimiter, start + delimiter.length);
    if (next < 0) break;
    const part = body.subarray(start + delimiter.length + 2, next - 2);
    const split = part.indexOf("\r\n\r\n");
    const headers = part.subarray(0, split).toString("utf8");
    const name = /name="([^"]*)"/i.exec(headers)?.[1];
    if (name !== undefined) {
      const filename = /filename="([^"]*)"/i.exec(headers)?.[1];
      const type = /content-type:\s*([^\r\n]+)/i.exec(headers)?.[1];
      parts.set(name, {
        value: part.subarray(split + 4),
        ...(filename !== undefined ? { filename } : {}),
        ...(type ? { contentType: type } : {}),
      });
    }
    start = next;
  }
  return parts;
}

/** What OpenAI itself sends for common error statuses. */
function defaultError(status: number, model: string): { message: string; type: string; code: string | null } {
  if (status === 429) {
    // The "try again in" hint is what makes clients (LangChain's retry) wait and retry a 429.
    return {
      message: `Rate limit reached for ${model} on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 1ms.`,
      type: "requests",
      code: "rate_limit_exceeded",
    };
  }
  if (status === 401) {
    return { message: "Incorrect API key provided.", type: "invalid_request_error", code: "invalid_api_key" };
  }
  if (status >= 500) {
    return {
      message: "The server had an error while processing your request. Sorry about that!",
      type: "server_error",
      code: null,
    };
  }
  return { message: `Scripted error ${status}`, type: "invalid_request_error", code: null };
}

/**
 * A planner answer scripted the readable way, each step's constraints and changes as records, in
 * the key/value-pair shape the planner's strict schema asks the model for; anything else as it is
 * (an answer already in the wire shape too).
 */
export function wirePlannerAnswer(json: unknown): unknown {
  if (!json || typeof json !== "object" || !("plan" in json) || !Array.isArray(json.plan)) return json;
  const wire = (fields: unknown) =>
    fields && typeof fields === "object" && !Array.isArray(fields)
      ? planFieldsOf(fields as Record<string, unknown>)
      : fields;
  return {
    ...json,
    plan: json.plan.map((step: unknown) =>
      step && typeof step === "object"
        ? {
            ...step,
            ...("constraints" in step ? { constraints: wire(step.constraints) } : {}),
            ...("changes" in step ? { changes: wire(step.changes) } : {}),
          }
        : step,
    ),
  };
}

/** How the request asked for structured output, as LangChain's `withStructuredOutput` methods send it. */
export function structuredModeOf(
  req: RecordedRequest,
): "jsonSchema" | "jsonMode" | "functionCalling" | "none" {
  if (req.body.tools && req.body.tools.length > 0) return "functionCalling";
  const format = req.body.response_format;
  if (format && typeof format === "object" && "type" in format) {
    if (format.type === "json_schema") return "jsonSchema";
    if (format.type === "json_object") return "jsonMode";
  }
  return "none";
}

/** A message's content as text (string content, or the text parts of an array). */
export function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content
      .map((part: unknown) =>
        part && typeof part === "object" && "text" in part && typeof part.text === "string" ? part.text : "",
      )
      .join("");
  }
  return "";
}

/** The system prompt, when the first message is one (reasoning models get it as "developer"). */
export function systemPromptOf(req: RecordedRequest): string | undefined {
  const first = req.body.messages[0];
  return first && (first.role === "system" || first.role === "developer") ? textOf(first.content) : undefined;
}

/** The text of the last user message. */
export function lastUserMessageOf(req: RecordedRequest): string | undefined {
  const users = req.body.messages.filter((m) => m.role === "user");
  const last = users[users.length - 1];
  return last ? textOf(last.content) : undefined;
}

/** The name of the function the request declared (function calling), or undefined. */
function toolNameOf(body: ChatCompletionBody): string {
  const choice = body.tool_choice;
  if (choice && typeof choice === "object" && "function" in choice) {
    const fn = choice.function;
    if (fn && typeof fn === "object" && "name" in fn && typeof fn.name === "string") return fn.name;
  }
  const tool: unknown = body.tools?.[0];
  if (tool && typeof tool === "object" && "function" in tool) {
    const fn = tool.function;
    if (fn && typeof fn === "object" && "name" in fn && typeof fn.name === "string") return fn.name;
  }
  return "extract";
}

const roughTokens = (text: string): number => Math.max(1, Math.ceil(text.length / 4));

export class ScriptedOpenAI {
  /** Every chat completions request, in order of arrival. */
  readonly requests: RecordedRequest[] = [];
  /** Requests that found no scripted reply (answered 500) or hit an unknown path (answered 404). */
  readonly unmatched: RecordedRequest[] = [];

  /** Every audio transcription request, in order of arrival. */
  readonly transcriptions: RecordedTranscription[] = [];

  private readonly queue: ReplySource[] = [];
  private readonly transcriptionQueue: ScriptedTranscription[] = [];
  /** Every speech request, in order of arrival. */
  readonly speeches: RecordedSpeech[] = [];
  private readonly speechQueue: ScriptedSpeech[] = [];
  private readonly matchers: Matcher[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly open = new Set<ServerResponse>();
  private nextId = 1;

  private constructor(
    private readonly server: Server,
    /** "http://127.0.0.1:<port>/v1", the `baseURL` for ChatOpenAI. */
    readonly baseUrl: string,
  ) {}

  /** Listens on a free port of 127.0.0.1. */
  static async start(): Promise<ScriptedOpenAI> {
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    const scripted = new ScriptedOpenAI(server, `http://127.0.0.1:${port}/v1`);
    server.on("request", (req, res) => scripted.handle(req, res));
    return scripted;
  }

  /** Replies used in order, once each, by requests no matcher claims. */
  enqueue(...replies: ScriptedReply[]): void {
    this.queue.push(...replies);
  }

  /** Answers requests that satisfy `match` (tried before the queue, in registration order), `times` times or forever. */
  on(match: (req: RecordedRequest) => boolean, reply: ReplySource, options: { times?: number } = {}): void {
    this.matchers.push({ match, reply, remaining: options.times });
  }

  /** Transcriptions answered in order, once each (none queued: 500). */
  enqueueTranscription(...replies: ScriptedTranscription[]): void {
    this.transcriptionQueue.push(...replies);
  }

  /** Speech answers given in order, once each (none queued: 500). */
  enqueueSpeech(...replies: ScriptedSpeech[]): void {
    this.speechQueue.push(...replies);
  }

  /** Forgets replies, matchers and recorded requests. */
  reset(): void {
    this.speechQueue.length = 0;
    this.speeches.length = 0;
    this.transcriptionQueue.length = 0;
    this.transcriptions.length = 0;
    this.queue.length = 0;
    this.matchers.length = 0;
    this.requests.length = 0;
    this.unmatched.length = 0;
  }

  /** Stops listening and ends every open connection, hanging ones included. */
  async close(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    for (const res of this.open) res.destroy();
    this.open.clear();
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeAllConnections();
    await closed;
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const path = (req.url ?? "/").split("?")[0] ?? "/";
      if (TRANSCRIPTION_ROUTES.has(path)) {
        this.transcribe(req, res, Buffer.concat(chunks));
        return;
      }
      if (SPEECH_ROUTES.has(path)) {
        this.speak(req, res, Buffer.concat(chunks));
        return;
      }
      let json: unknown;
      try {
        json = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch {
        json = undefined;
      }
      const parsed = BodySchema.safeParse(json);
      if (!ROUTES.has(path)) {
        // Recorded when it looks like a chat request, so a test can see where the client went instead.
        if (parsed.success) this.unmatched.push({ path, body: parsed.data, at: Date.now() });
        this.sendError(res, 404, { message: `Scripted server: no route ${path}` });
        return;
      }
      if (req.method !== "POST" || !parsed.success) {
        this.sendError(res, 400, {
          message: "Scripted server: expected a POST with a chat completions body",
        });
        return;
      }
      const recorded: RecordedRequest = { path, body: parsed.data, at: Date.now() };
      this.requests.push(recorded);
      const source = this.pick(recorded);
      if (!source) {
        this.unmatched.push(recorded);
        this.sendError(res, 500, { message: "no scripted reply", type: "server_error" });
        return;
      }
      const reply = typeof source === "function" ? source(recorded) : source;
      this.answer(res, recorded, reply);
    });
  }

  /** POST /v1/audio/speech: JSON { model, voice, input, response_format, instructions } → audio bytes. */
  private speak(req: IncomingMessage, res: ServerResponse, body: Buffer): void {
    let json: Record<string, unknown> | undefined;
    try {
      json = JSON.parse(body.toString("utf8")) as Record<string, unknown>;
    } catch {
      json = undefined;
    }
    const text = (key: string) => (typeof json?.[key] === "string" ? json[key] : undefined);
    const model = text("model");
    const voice = text("voice");
    const input = text("input");
    if (req.method !== "POST" || !model || !voice || !input) {
      this.sendError(res, 400, {
        message: "Scripted server: expected a speech request (model, voice, input)",
      });
      return;
    }
    const responseFormat = text("response_format");
    const instructions = text("instructions");
    this.speeches.push({
      model,
      voice,
      input,
      ...(responseFormat ? { responseFormat } : {}),
      ...(instructions ? { instructions } : {}),
      at: Date.now(),
    });
    const reply = this.speechQueue.shift();
    if (!reply) {
      this.sendError(res, 500, { message: "no scripted speech", type: "server_error" });
      return;
    }
    if ("status" in reply) {
      this.sendError(res, reply.status, defaultError(reply.status, model));
      return;
    }
    res.writeHead(200, { "content-type": reply.contentType ?? "audio/ogg" });
    res.end(reply.audio);
  }

  private transcribe(req: IncomingMessage, res: ServerResponse, body: Buffer): void {
    const parts = parseMultipart(body, req.headers["content-type"] ?? "");
    const file = parts.get("file");
    const model = parts.get("model")?.value.toString("utf8");
    if (req.method !== "POST" || !file || !model) {
      this.sendError(res, 400, { message: "Scripted server: expected a multipart transcription request" });
      return;
    }
    const language = parts.get("language")?.value.toString("utf8");
    this.transcriptions.push({
      model,
      ...(language ? { language } : {}),
      filename: file.filename ?? "",
      contentType: file.contentType ?? "",
      bytes: file.value,
      at: Date.now(),
    });
    const reply = this.transcriptionQueue.shift();
    if (!reply) {
      this.sendError(res, 500, { message: "no scripted transcription", type: "server_error" });
      return;
    }
    if ("status" in reply) {
      this.sendError(res, reply.status, defaultError(reply.status, model));
      return;
    }
    this.later(reply.delayMs, () => {
      if (res.destroyed) return;
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ text: reply.text }));
    });
  }

  /** Runs `fn` after `delayMs` (at once when unset); close() cancels what has not run. */
  private later(delayMs: number | undefined, fn: () => void): void {
    if (!delayMs) {
      fn();
      return;
    }
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      fn();
    }, delayMs);
    this.timers.add(timer);
  }

  private pick(req: RecordedRequest): ReplySource | undefined {
    for (const matcher of this.matchers) {
      if (matcher.remaining === 0 || !matcher.match(req)) continue;
      if (matcher.remaining !== undefined) matcher.remaining -= 1;
      return matcher.reply;
    }
    return this.queue.shift();
  }

  private answer(res: ServerResponse, req: RecordedRequest, reply: ScriptedReply): void {
    this.open.add(res);
    res.on("close", () => this.open.delete(res));
    if (reply.hang) return;
    this.later(reply.delayMs, () => {
      if (res.destroyed) return;
      if (reply.status !== undefined) {
        this.sendError(res, reply.status, { ...defaultError(reply.status, req.body.model), ...reply.error });
      } else {
        this.sendCompletion(res, req, reply);
      }
    });
  }

  private sendError(
    res: ServerResponse,
    status: number,
    error: { message?: string; type?: string; code?: string | null },
  ): void {
    const body = {
      error: {
        message: error.message ?? `Scripted error ${status}`,
        type: error.type ?? "invalid_request_error",
        param: null,
        code: error.code ?? null,
      },
    };
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  }

  private sendCompletion(res: ServerResponse, req: RecordedRequest, reply: ScriptedReply): void {
    const mode = structuredModeOf(req);
    const structured =
      reply.rawContent ??
      (reply.json !== undefined ? JSON.stringify(wirePlannerAnswer(reply.json)) : undefined);
    const asToolCall = mode === "functionCalling" && structured !== undefined;
    const content = asToolCall
      ? null
      : mode === "none"
        ? (reply.text ?? structured ?? "")
        : (structured ?? reply.text ?? "");
    const toolCalls = asToolCall
      ? [
          {
            id: `call_${this.nextId}`,
            type: "function",
            function: { name: toolNameOf(req.body), arguments: structured },
          },
        ]
      : undefined;
    const usage = reply.usage ?? {
      prompt_tokens: roughTokens(req.body.messages.map((m) => textOf(m.content)).join("\n")),
      completion_tokens: roughTokens(content ?? structured ?? ""),
    };
    const id = `chatcmpl-scripted-${this.nextId++}`;
    const created = Math.floor(Date.now() / 1000);
    const finishReason = asToolCall ? "tool_calls" : "stop";
    const totals = { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens };

    if (req.body.stream) {
      // Server-sent events, as OpenAI streams: the whole message in one delta, then the finish, then usage.
      const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
        `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model: req.body.model, choices, ...extra })}\n\n`;
      const delta = toolCalls
        ? {
            role: "assistant",
            content: null,
            tool_calls: toolCalls.map((call, index) => ({ index, ...call })),
          }
        : { role: "assistant", content };
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      res.write(chunk([{ index: 0, delta, finish_reason: null, logprobs: null }]));
      res.write(chunk([{ index: 0, delta: {}, finish_reason: finishReason, logprobs: null }]));
      res.write(chunk([], { usage: totals }));
      res.end("data: [DONE]\n\n");
      return;
    }

    const body = {
      id,
      object: "chat.completion",
      created,
      model: req.body.model,
      system_fingerprint: null,
      choices: [
        {
          index: 0,
          message: {
            role: "assistant",
            content,
            refusal: null,
            ...(toolCalls ? { tool_calls: toolCalls } : {}),
          },
          finish_reason: finishReason,
          logprobs: null,
        },
      ],
      usage: totals,
    };
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  }
}
