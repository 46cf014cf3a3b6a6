import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { z } from "zod";
import { isOggOpus } from "../../src/utils/oggOpus.js";

/**
 * A fake WhatsApp Cloud API (Graph API) on 127.0.0.1, for tests: the real GraphApiClient talks to
 * it over HTTP. It checks message bodies the way Meta does where that is cheap (lengths, counts,
 * unique buttons), so a formatting bug fails a test instead of a user's message.
 *
 *   const graph = await FakeGraphApi.start({ accessToken: "test-token" });
 *   graph.failNext(1, { status: 500 });
 *   ... client with baseUrl: () => graph.baseUrl ...
 *   const [message] = await graph.waitForSent(1);
 *   await graph.close();
 */

/** One delivered message send (read receipts are in `reads`). */
export interface SentMessage {
  /** The wamid the fake answered with. */
  id: string;
  to: string;
  /** "text", "interactive"… */
  type: string;
  /** The request body as sent, parsed. */
  body: Record<string, unknown>;
  /** `context.message_id`: the message this one replies to. */
  contextId?: string;
  /** Date.now() when the send was answered. */
  at: number;
}

/** A Meta-style error the fake answers with. */
export interface FakeGraphError {
  status: number;
  /** Meta's error.code, e.g. 190, 130429, 131056. */
  code?: number;
  subcode?: number;
  message?: string;
}

export interface FakeMediaOptions {
  /** The file_size reported by GET /{v}/{id} (default: the real size); set it to lie. */
  fileSize?: number;
  /** Stream the file without a Content-Length header. */
  chunked?: boolean;
}

interface StoredMedia extends Required<Omit<FakeMediaOptions, "fileSize">> {
  data: Buffer;
  mimeType: string;
  fileSize: number;
  expired: boolean;
}

/** One media upload the fake accepted (POST /{v}/{phone-number-id}/media). */
export interface UploadedMedia {
  /** The media id the fake answered with (a message sends it as `audio.id`). */
  id: string;
  /** The `type` field of the form. */
  mimeType: string;
  /** The file part's own content type and name, as sent. */
  fileType: string;
  fileName: string;
  data: Buffer;
  at: number;
}

/**
 * The Cloud API's supported media types and their size limits (developers.facebook.com, WhatsApp
 * Cloud API, "Supported media types"), each type as the table writes it (no parameters): audio/ogg
 * only with the OPUS codec.
 */
const MEDIA_LIMITS: Readonly<Record<string, number>> = {
  "audio/aac": 16 * 1024 * 1024,
  "audio/amr": 16 * 1024 * 1024,
  "audio/mpeg": 16 * 1024 * 1024,
  "audio/mp4": 16 * 1024 * 1024,
  "audio/ogg": 16 * 1024 * 1024,
  "image/jpeg": 5 * 1024 * 1024,
  "image/png": 5 * 1024 * 1024,
  "application/pdf": 100 * 1024 * 1024,
  "text/plain": 100 * 1024 * 1024,
};

/** What is wrong with an upload by the documented media rules, or undefined when it is accepted. */
function uploadProblem(mimeType: string, data: Buffer, checkBytes: boolean): string | undefined {
  // Only a value of the table, as written there: "audio/ogg; codecs=opus" is not one.
  const limit = Object.hasOwn(MEDIA_LIMITS, mimeType) ? MEDIA_LIMITS[mimeType] : undefined;
  if (limit === undefined) return `Param type ${mimeType} is not a supported media type`;
  if (data.length === 0) return "file: the file is empty";
  if (data.length > limit)
    return `file: ${data.length} bytes exceeds the ${limit}-byte limit for ${mimeType}`;
  if (checkBytes && mimeType === "audio/ogg" && !isOggOpus(data)) {
    return "audio/ogg: the file is not an Ogg stream with the OPUS codec";
  }
  return undefined;
}

export interface RecordedGraphRequest {
  method: string;
  path: string;
  authorization?: string;
  body: unknown;
  /** Epoch milliseconds of its arrival. */
  at: number;
}

const Context = z.strictObject({ message_id: z.string().min(1) });

const TextBody = z.strictObject({ body: z.string().min(1).max(4096), preview_url: z.boolean().optional() });

const Body = (max: number) => z.strictObject({ text: z.string().min(1).max(max) });

const ButtonInteractive = z.strictObject({
  type: z.literal("button"),
  body: Body(1024),
  action: z.strictObject({
    buttons: z
      .array(
        z.strictObject({
          type: z.literal("reply"),
          reply: z.strictObject({ id: z.string().min(1).max(256), title: z.string().min(1).max(20) }),
        }),
      )
      .min(1)
      .max(3)
      .refine((b) => new Set(b.map((x) => x.reply.title)).size === b.length, "Button titles must be unique")
      .refine((b) => new Set(b.map((x) => x.reply.id)).size === b.length, "Button ids must be unique"),
  }),
});

const Row = z.strictObject({
  id: z.string().min(1).max(200),
  title: z.string().min(1).max(24),
  description: z.string().max(72).optional(),
});

const ListInteractive = z.strictObject({
  type: z.literal("list"),
  body: Body(4096),
  action: z
    .strictObject({
      button: z.string().min(1).max(20),
      sections: z
        .array(z.strictObject({ title: z.string().min(1).max(24).optional(), rows: z.array(Row).min(1) }))
        .min(1)
        .max(10),
    })
    .refine((a) => a.sections.length === 1 || a.sections.every((s) => s.title), "Sections need titles")
    .refine((a) => a.sections.flatMap((s) => s.rows).length <= 10, "At most 10 rows in total")
    .refine((a) => {
      const ids = a.sections.flatMap((s) => s.rows.map((r) => r.id));
      return new Set(ids).size === ids.length;
    }, "Row ids must be unique"),
});

/** A template send as Meta checks it: a name, a language, body parameters without line breaks. */
const Template = z.strictObject({
  name: z.string().regex(/^[a-z0-9_]{1,512}$/),
  language: z.strictObject({ code: z.string().min(2) }),
  components: z
    .array(
      z
        .strictObject({
          type: z.literal("body"),
          parameters: z
            .array(
              z.strictObject({
                type: z.literal("text"),
                // Meta: "Param text cannot have new-line/tab characters or more than 4 consecutive spaces".
                text: z
                  .string()
                  .min(1)
                  .max(1024)
                  .refine((t) => !/[\n\t]| {5,}/.test(t), "Param text cannot have new-line/tab characters"),
              }),
            )
            .min(1),
        })
        .or(
          // A quick-reply button's payload (Meta: at most 256 characters), by the button's index.
          z.strictObject({
            type: z.literal("button"),
            sub_type: z.literal("quick_reply"),
            index: z.string().regex(/^[0-9]$/),
            parameters: z
              .array(z.strictObject({ type: z.literal("payload"), payload: z.string().min(1).max(256) }))
              .length(1),
          }),
        ),
    )
    .optional(),
});

/** A media message by the id of an upload (or a link), optionally a voice message. */
const AudioBody = z
  .strictObject({ id: z.string().min(1).optional(), link: z.url().optional(), voice: z.boolean().optional() })
  .refine((a) => (a.id === undefined) !== (a.link === undefined), "Exactly one of id or link");

const SendBody = z.looseObject({
  messaging_product: z.literal("whatsapp"),
  recipient_type: z.literal("individual").optional(),
  to: z.string().regex(/^\+?[0-9]{6,20}$/),
  type: z.string().min(1),
  context: Context.optional(),
  text: TextBody.optional(),
  interactive: z.discriminatedUnion("type", [ButtonInteractive, ListInteractive]).optional(),
  template: Template.optional(),
  audio: AudioBody.optional(),
});

const ReadBody = z.strictObject({
  messaging_product: z.literal("whatsapp"),
  status: z.literal("read"),
  message_id: z.string().min(1),
  typing_indicator: z.strictObject({ type: z.literal("text") }).optional(),
});

const VERSION = /^v[0-9]+\.[0-9]+$/;

const digits = (phone: string): string => phone.replace(/\D/g, "");

export class FakeGraphApi {
  /** Message sends that were answered with success, in order (not read receipts). */
  readonly sent: SentMessage[] = [];
  /** Read receipts, in order. */
  readonly reads: { messageId: string; typing: boolean }[] = [];
  /** Every request, in order of arrival, answered or not. */
  readonly requests: RecordedGraphRequest[] = [];
  /** Milliseconds to wait before answering a message send (default: 0). */
  delayMs = 0;
  /** Every number a message was sent to since the fake started (kept across resets). */
  readonly recipients = new Set<string>();
  /** Media uploads the fake accepted, in order. */
  readonly uploads: UploadedMedia[] = [];
  /**
   * Whether an upload's bytes must be what its type says (Ogg/Opus for audio/ogg); false: any
   * bytes pass, so a test sees what Memo's own check does (default: true).
   */
  checkMediaBytes = true;
  /** Uploads it refused by the media rules, with Meta's message. */
  readonly refusedUploads: { mimeType: string; problem: string }[] = [];

  private readonly media = new Map<string, StoredMedia>();
  private readonly failures: { error: FakeGraphError; type: string | undefined }[] = [];
  private readonly uploadFailures: FakeGraphError[] = [];
  private readonly waiters = new Set<() => void>();
  private readonly timers = new Set<NodeJS.Timeout>();
  /** Delayed answers not yet given, with the response each one is for. */
  private readonly pending = new Map<NodeJS.Timeout, ServerResponse>();
  private readonly open = new Set<ServerResponse>();
  private nextId = 1;

  private constructor(
    private readonly server: Server,
    /** "http://127.0.0.1:<port>", the client's baseUrl. */
    readonly baseUrl: string,
    private readonly accessToken: string | undefined,
  ) {}

  /** Listens on a free port of 127.0.0.1; with `accessToken`, every request must bear it. */
  static async start(options: { accessToken?: string } = {}): Promise<FakeGraphApi> {
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    const fake = new FakeGraphApi(server, `http://127.0.0.1:${port}`, options.accessToken);
    server.on("request", (req, res) => fake.handle(req, res));
    return fake;
  }

  /** Serves a media file: GET /{v}/{id} gives its URL, GET `${baseUrl}/media/${id}` the bytes. */
  addMedia(id: string, data: Buffer, mimeType: string, options: FakeMediaOptions = {}): void {
    this.media.set(id, {
      data,
      mimeType,
      fileSize: options.fileSize ?? data.length,
      chunked: options.chunked ?? false,
      expired: false,
    });
  }

  /** Makes a media URL answer 404, as an expired WhatsApp media URL does. */
  expireMedia(id: string): void {
    const stored = this.media.get(id);
    if (stored) stored.expired = true;
  }

  /**
   * The next `count` message sends answer with `error` (Meta's error body) instead; with `type`,
   * only sends of that message type ("text", "audio") fail, others pass.
   */
  failNext(count: number, error: FakeGraphError, type?: string): void {
    for (let i = 0; i < count; i++) this.failures.push({ error, type });
  }

  /** The next `count` media uploads answer with `error` instead. */
  failNextUpload(count: number, error: FakeGraphError): void {
    for (let i = 0; i < count; i++) this.uploadFailures.push(error);
  }

  /** Resolves with `sent` once it holds `count` messages; rejects, listing them, after `timeoutMs` (default: 2,000). */
  waitForSent(count: number, timeoutMs = 2_000): Promise<SentMessage[]> {
    if (this.sent.length >= count) return Promise.resolve(this.sent);
    return new Promise((resolve, reject) => {
      const check = () => {
        if (this.sent.length < count) return;
        this.waiters.delete(check);
        clearTimeout(timer);
        this.timers.delete(timer);
        resolve(this.sent);
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        this.timers.delete(timer);
        reject(
          new Error(
            `FakeGraphApi: expected ${count} sent message(s) within ${timeoutMs} ms, got ${this.sent.length}:\n${this.describeSent()}`,
          ),
        );
      }, timeoutMs);
      this.timers.add(timer);
      this.waiters.add(check);
    });
  }

  /** The text bodies and interactive body texts sent to `phone`, in order. */
  textsTo(phone: string): string[] {
    return this.sent.filter((m) => digits(m.to) === digits(phone)).map(textOf);
  }

  /** Forgets sends, reads, requests, media, scripted failures and the delay; drops delayed answers. */
  reset(): void {
    // A send still waiting out delayMs belongs to the previous test: it must not land in this one.
    for (const [timer, res] of this.pending) {
      clearTimeout(timer);
      res.destroy();
    }
    this.pending.clear();
    this.sent.length = 0;
    this.reads.length = 0;
    this.requests.length = 0;
    this.failures.length = 0;
    this.uploadFailures.length = 0;
    this.uploads.length = 0;
    this.refusedUploads.length = 0;
    this.checkMediaBytes = true;
    this.media.clear();
    this.delayMs = 0;
  }

  /** Stops listening and ends every open connection. */
  async close(): Promise<void> {
    for (const timer of [...this.timers, ...this.pending.keys()]) clearTimeout(timer);
    this.timers.clear();
    this.pending.clear();
    for (const res of this.open) res.destroy();
    this.open.clear();
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeAllConnections();
    await closed;
  }

  private describeSent(): string {
    if (this.sent.length === 0) return "  (nothing)";
    return this.sent
      .map((m, i) => `  ${i + 1}. to ${m.to} [${m.type}] ${JSON.stringify(textOf(m))}`)
      .join("\n");
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      this.open.add(res);
      res.on("close", () => this.open.delete(res));
      const path = (req.url ?? "/").split("?")[0] ?? "/";
      const raw = Buffer.concat(chunks).toString("utf8");
      let body: unknown;
      try {
        body = raw ? JSON.parse(raw) : undefined;
      } catch {
        body = undefined;
      }
      const authorization = req.headers.authorization;
      this.requests.push({ method: req.method ?? "GET", path, authorization, body, at: Date.now() });

      if (this.accessToken !== undefined && authorization !== `Bearer ${this.accessToken}`) {
        this.sendError(res, {
          status: 401,
          code: 190,
          message: "Invalid OAuth access token - Cannot parse access token",
        });
        return;
      }
      const parts = path.split("/").filter(Boolean).map(decodeURIComponent);
      if (req.method === "GET" && parts.length === 2 && parts[0] === "media") {
        this.serveMediaBytes(res, parts[1]!);
      } else if (req.method === "GET" && parts.length === 2 && VERSION.test(parts[0]!)) {
        this.serveMediaInfo(res, parts[1]!);
      } else if (
        req.method === "POST" &&
        parts.length === 3 &&
        VERSION.test(parts[0]!) &&
        parts[2] === "media"
      ) {
        void this.handleUpload(res, Buffer.concat(chunks), req.headers["content-type"] ?? "");
      } else if (
        req.method === "POST" &&
        parts.length === 3 &&
        VERSION.test(parts[0]!) &&
        parts[2] === "messages"
      ) {
        this.handleMessages(res, body, raw);
      } else {
        this.sendError(res, { status: 404, code: 100, message: `Unknown path components: ${path}` });
      }
    });
  }

  private handleMessages(res: ServerResponse, body: unknown, raw: string): void {
    if (body === undefined) {
      this.sendError(res, { status: 400, code: 100, message: `Invalid JSON body (${raw.length} bytes)` });
      return;
    }
    if (body && typeof body === "object" && "status" in body) {
      const read = ReadBody.safeParse(body);
      if (!read.success) {
        this.sendError(res, {
          status: 400,
          code: 100,
          message: `(#100) Invalid parameter: ${describeIssues(read.error)}`,
        });
        return;
      }
      this.reads.push({ messageId: read.data.message_id, typing: read.data.typing_indicator !== undefined });
      this.sendJson(res, 200, { success: true });
      return;
    }
    this.later(res, () => {
      const type = z.object({ type: z.string() }).safeParse(body).data?.type;
      const index = this.failures.findIndex((f) => f.type === undefined || f.type === type);
      const failure = index >= 0 ? this.failures.splice(index, 1)[0] : undefined;
      if (failure) {
        this.sendError(res, failure.error);
        return;
      }
      const parsed = SendBody.safeParse(body);
      const problem = parsed.success ? missingPart(parsed.data, this.media) : describeIssues(parsed.error);
      if (!parsed.success || problem) {
        this.sendError(res, { status: 400, code: 100, message: `(#100) Invalid parameter: ${problem}` });
        return;
      }
      const send = parsed.data;
      const id = `wamid.FAKE${String(this.nextId++).padStart(6, "0")}`;
      this.recipients.add(digits(send.to));
      this.sent.push({
        id,
        to: send.to,
        type: send.type,
        body: body as Record<string, unknown>,
        contextId: send.context?.message_id,
        at: Date.now(),
      });
      this.sendJson(res, 200, {
        messaging_product: "whatsapp",
        contacts: [{ input: send.to, wa_id: digits(send.to) }],
        messages: [{ id }],
      });
      for (const waiter of [...this.waiters]) waiter();
    });
  }

  /**
   * POST /{v}/{phone-number-id}/media: multipart with messaging_product=whatsapp, type and file;
   * accepted only by the documented media rules (uploadProblem), then downloadable like any media.
   */
  private async handleUpload(res: ServerResponse, body: Buffer, contentType: string): Promise<void> {
    const failure = this.uploadFailures.shift();
    if (failure) {
      this.sendError(res, failure);
      return;
    }
    let form: FormData;
    try {
      form = await new Response(new Uint8Array(body), {
        headers: { "content-type": contentType },
      }).formData();
    } catch {
      this.sendError(res, {
        status: 400,
        code: 100,
        message: "(#100) The upload must be multipart/form-data",
      });
      return;
    }
    const file = form.get("file");
    const type = form.get("type");
    if (form.get("messaging_product") !== "whatsapp" || typeof type !== "string" || !(file instanceof Blob)) {
      this.sendError(res, {
        status: 400,
        code: 100,
        message: "(#100) Param messaging_product, type and file are required",
      });
      return;
    }
    const data = Buffer.from(await file.arrayBuffer());
    const problem =
      uploadProblem(type, data, this.checkMediaBytes) ?? uploadProblem(file.type, data, this.checkMediaBytes);
    if (problem) {
      this.refusedUploads.push({ mimeType: type, problem });
      this.sendError(res, { status: 400, code: 131053, message: `Media upload error: ${problem}` });
      return;
    }
    const id = `media.FAKE${String(this.nextId++).padStart(6, "0")}`;
    this.uploads.push({
      id,
      mimeType: type,
      fileType: file.type,
      fileName: file instanceof File ? file.name : "",
      data,
      at: Date.now(),
    });
    this.addMedia(id, data, type);
    this.sendJson(res, 200, { id });
  }

  private serveMediaInfo(res: ServerResponse, id: string): void {
    const stored = this.media.get(id);
    if (!stored) {
      this.sendError(res, {
        status: 400,
        code: 100,
        subcode: 33,
        message: `Unsupported get request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
      });
      return;
    }
    this.sendJson(res, 200, {
      messaging_product: "whatsapp",
      url: `${this.baseUrl}/media/${encodeURIComponent(id)}`,
      mime_type: stored.mimeType,
      sha256: createHash("sha256").update(stored.data).digest("hex"),
      file_size: stored.fileSize,
      id,
    });
  }

  private serveMediaBytes(res: ServerResponse, id: string): void {
    const stored = this.media.get(id);
    if (!stored || stored.expired) {
      res.writeHead(404, { "content-type": "text/plain" });
      res.end("Not Found");
      return;
    }
    if (stored.chunked) {
      // No Content-Length: Node sends it chunked, so only counting the bytes reveals the size.
      res.writeHead(200, { "content-type": stored.mimeType });
      for (let offset = 0; offset < stored.data.length; offset += 1024) {
        res.write(stored.data.subarray(offset, offset + 1024));
      }
      res.end();
      return;
    }
    res.writeHead(200, { "content-type": stored.mimeType, "content-length": stored.data.length });
    res.end(stored.data);
  }

  /** Runs `answer` after `delayMs`, unless the client has gone by then. */
  private later(res: ServerResponse, answer: () => void): void {
    if (this.delayMs <= 0) {
      answer();
      return;
    }
    const timer = setTimeout(() => {
      this.pending.delete(timer);
      if (!res.destroyed) answer();
    }, this.delayMs);
    this.pending.set(timer, res);
  }

  private sendError(res: ServerResponse, error: FakeGraphError): void {
    this.sendJson(res, error.status, {
      error: {
        message: error.message ?? `Fake Graph API error ${error.code ?? error.status}`,
        type: "OAuthException",
        ...(error.code !== undefined ? { code: error.code } : {}),
        ...(error.subcode !== undefined ? { error_subcode: error.subcode } : {}),
        fbtrace_id: `FAKE${this.nextId}`,
      },
    });
  }

  private sendJson(res: ServerResponse, status: number, body: unknown): void {
    if (res.destroyed) return;
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  }
}

/** What a send body lacks for its type, as Meta would complain. */
function missingPart(send: z.infer<typeof SendBody>, media?: Map<string, unknown>): string | undefined {
  if (send.type === "audio" && !send.audio) return "audio: required for type audio";
  if (send.type === "audio" && send.audio?.id && media && !media.has(send.audio.id))
    return `audio.id: no media with id ${send.audio.id}`;
  if (send.type === "text" && !send.text) return "text: required for type text";
  if (send.type === "interactive" && !send.interactive) return "interactive: required for type interactive";
  if (send.type === "template" && !send.template) return "template: required for type template";
  return undefined;
}

/** zod issues as "path: message" pairs. */
function describeIssues(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ");
}

/** The text a user reads first in a sent message: the text body, the interactive body text, a template's parameter. */
export function textOf(message: SentMessage): string {
  const body = message.body as {
    text?: { body?: unknown };
    interactive?: { body?: { text?: unknown } };
    template?: { components?: { parameters?: { text?: unknown }[] }[] };
  };
  const text =
    message.type === "interactive"
      ? body.interactive?.body?.text
      : message.type === "template"
        ? body.template?.components?.[0]?.parameters?.[0]?.text
        : body.text?.body;
  return typeof text === "string" ? text : "";
}
