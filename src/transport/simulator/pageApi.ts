import express, { Router, type ErrorRequestHandler, type Response } from "express";
import { z } from "zod";
import { SimulatorInputError, type SimulatorEngine, type UserMessage } from "./engine.js";
import { CHAT_PAGE } from "./page.js";
import type { SimEvent } from "./store.js";

/**
 * The page's side: the chat page itself, a server-sent event stream per phone, the endpoint
 * that turns what the user typed into a webhook, read acks, and media downloads.
 */

export interface PageApiOptions {
  engine: SimulatorEngine;
  /** Milliseconds between SSE heartbeat comments (default: 15000). */
  heartbeatMs?: number;
}

/** Largest JSON body of POST /api/messages: media travels as base64 in it. */
const PAGE_BODY_LIMIT = "25mb";

/** Default contact name in webhooks when the page does not give one. */
const DEFAULT_NAME = "Dev User";

/** WhatsApp's own ceilings on what a user can send, by type (bytes). */
const MEDIA_LIMITS: Record<string, number> = {
  image: 5 * 1024 * 1024,
  audio: 16 * 1024 * 1024,
  video: 16 * 1024 * 1024,
  sticker: 500 * 1024,
  document: 100 * 1024 * 1024,
};

const MIME = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*(\s*;.*)?$/i;
const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

const Phone = z
  .string()
  .regex(/^[0-9]{6,15}$/, { error: "must be 6 to 15 digits, country code first, no +" });

const UserMessageSchema = z
  .object({
    phone: Phone,
    name: z.string().trim().min(1).max(100).optional(),
    type: z.enum([
      "text",
      "image",
      "audio",
      "video",
      "document",
      "sticker",
      "interactive",
      "button",
      "location",
      "reaction",
      "unsupported",
    ]),
    text: z.string().max(65_536).optional(),
    caption: z.string().max(1024).optional(),
    media: z
      .object({
        base64: z
          .string()
          .min(1, { error: "the file is empty (0 bytes); the simulator sends only files with content" }),
        mimeType: z.string().regex(MIME, { error: "must be a MIME type such as image/jpeg" }),
        filename: z.string().min(1).max(240).optional(),
      })
      .optional(),
    voice: z.boolean().optional(),
    replyTo: z.string().min(1).max(256).optional(),
    /** Sent as forwarded (Meta's context.forwarded): someone else's words, passed on. */
    forwarded: z.boolean().optional(),
    interactive: z
      .object({
        type: z.enum(["button_reply", "list_reply"]),
        id: z.string().min(1).max(256),
        title: z.string().min(1).max(100),
        description: z.string().max(200).optional(),
      })
      .optional(),
    button: z
      .object({ text: z.string().min(1).max(100), payload: z.string().max(256).optional() })
      .optional(),
    reaction: z.object({ messageId: z.string().min(1), emoji: z.string().max(32) }).optional(),
    location: z
      .object({
        latitude: z.number().min(-90).max(90),
        longitude: z.number().min(-180).max(180),
        name: z.string().max(200).optional(),
        address: z.string().max(500).optional(),
      })
      .optional(),
  })
  .superRefine((input, ctx) => {
    if (input.forwarded && ["interactive", "button", "reaction"].includes(input.type)) {
      ctx.addIssue({
        code: "custom",
        path: ["forwarded"],
        message: `a ${input.type} message cannot be forwarded`,
      });
    }
    const need = (field: keyof typeof input, why: string) => {
      if (input[field] === undefined) ctx.addIssue({ code: "custom", path: [field], message: why });
    };
    switch (input.type) {
      case "text":
        if (!input.text?.trim()) {
          ctx.addIssue({ code: "custom", path: ["text"], message: "is required for a text message" });
        }
        break;
      case "image":
      case "audio":
      case "video":
      case "sticker":
      case "document": {
        need("media", `is required for ${input.type} messages ({ base64, mimeType })`);
        const family = input.type === "sticker" ? "image" : input.type;
        if (input.media && input.type !== "document" && !input.media.mimeType.startsWith(`${family}/`)) {
          ctx.addIssue({
            code: "custom",
            path: ["media", "mimeType"],
            message: `must be ${family}/* for ${input.type} messages`,
          });
        }
        if (input.media && !BASE64.test(stripDataUrl(input.media.base64))) {
          ctx.addIssue({ code: "custom", path: ["media", "base64"], message: "is not base64" });
        }
        break;
      }
      case "interactive":
        need("interactive", "is required for interactive replies ({ type, id, title })");
        break;
      case "button":
        need("button", "is required for button messages ({ text, payload? })");
        break;
      case "reaction":
        need("reaction", "is required for reactions ({ messageId, emoji })");
        break;
      case "location":
        need("location", "is required for locations ({ latitude, longitude })");
        break;
      case "unsupported":
        break;
    }
  });

type UserMessageInput = z.infer<typeof UserMessageSchema>;

const ReadAck = z.object({ phone: Phone, ids: z.array(z.string().min(1).max(256)).max(500) });

function stripDataUrl(base64: string): string {
  return base64.replace(/^data:[^,]*;base64,/, "").replace(/\s+/g, "");
}

/** `phone: must be …; media.mimeType: must be …` */
function describeIssues(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.map(String).join(".") || "body"}: ${i.message}`).join("; ");
}

function badRequest(res: Response, message: string): void {
  res.status(400).json({ error: "invalid_request", message });
}

/** The checked input as the engine takes it, with media decoded. */
function toUserMessage(input: UserMessageInput): UserMessage | { error: string } {
  let media: UserMessage["media"];
  if (input.media) {
    const bytes = Buffer.from(stripDataUrl(input.media.base64), "base64");
    if (bytes.length === 0) {
      return {
        error: "media.base64: the file is empty (0 bytes); the simulator sends only files with content",
      };
    }
    const limit = MEDIA_LIMITS[input.type];
    if (limit !== undefined && bytes.length > limit) {
      return {
        error: `media: ${input.type} of ${bytes.length} bytes is over WhatsApp's ${Math.round(limit / 1024)} KB limit`,
      };
    }
    media = {
      bytes,
      mimeType: input.media.mimeType,
      ...(input.media.filename ? { filename: input.media.filename } : {}),
      ...(input.voice !== undefined ? { voice: input.voice } : {}),
    };
  }
  const choice = input.interactive
    ? {
        kind: input.interactive.type,
        id: input.interactive.id,
        title: input.interactive.title,
        ...(input.interactive.description ? { description: input.interactive.description } : {}),
      }
    : input.button
      ? { kind: "button" as const, id: input.button.payload ?? input.button.text, title: input.button.text }
      : undefined;
  const mediaType = ["image", "audio", "video", "document", "sticker"].includes(input.type);
  return {
    phone: input.phone,
    name: input.name ?? DEFAULT_NAME,
    type: input.type,
    ...(input.type === "text" && input.text !== undefined ? { text: input.text } : {}),
    // A caption travels with images, videos and documents; the text field stands in for it.
    ...(mediaType && input.type !== "audio" && input.type !== "sticker" && (input.caption ?? input.text)
      ? { caption: input.caption ?? input.text }
      : {}),
    ...(media ? { media } : {}),
    ...(input.replyTo ? { replyTo: input.replyTo } : {}),
    ...(input.forwarded ? { forwarded: true } : {}),
    ...(choice && (input.type === "interactive" || input.type === "button") ? { choice } : {}),
    ...(input.type === "reaction" && input.reaction ? { reaction: input.reaction } : {}),
    ...(input.type === "location" && input.location ? { location: input.location } : {}),
  };
}

/** Page, SSE, page API and media routes; `close` ends the open event streams. */
export function pageApiRoutes(options: PageApiOptions): { router: Router; close(): void } {
  const { engine } = options;
  const heartbeatMs = options.heartbeatMs ?? 15_000;
  const streams = new Set<Response>();
  const router = Router();

  router.get("/", (_req, res) => {
    res.set("Cache-Control", "no-store").type("html").send(CHAT_PAGE);
  });

  router.get("/events", (req, res) => {
    const phone = Phone.safeParse(req.query.phone);
    if (!phone.success) {
      badRequest(res, `phone: ${phone.error.issues[0]?.message ?? "invalid"}`);
      return;
    }
    if (engine.closed) {
      res.status(503).json({ error: "closed" });
      return;
    }
    res.status(200).set({
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-cache, no-transform",
      Connection: "keep-alive",
      // Tells nginx-like proxies not to buffer the stream.
      "X-Accel-Buffering": "no",
    });
    res.flushHeaders();
    const send = (event: string, data: unknown) => {
      res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    };
    res.write("retry: 2000\n\n");
    send("snapshot", {
      phone: phone.data,
      messages: engine.store.list(phone.data),
      typing: engine.isTyping(phone.data),
    });
    const unsubscribe = engine.store.subscribe(phone.data, (event: SimEvent) => {
      if (event.kind === "message") send("message", event.message);
      else if (event.kind === "evicted") send("evicted", { ids: event.ids });
      else send("typing", { typing: event.typing });
    });
    const heartbeat = setInterval(() => res.write(": ping\n\n"), heartbeatMs);
    heartbeat.unref();
    streams.add(res);
    res.on("close", () => {
      clearInterval(heartbeat);
      unsubscribe();
      streams.delete(res);
    });
  });

  const json = express.json({ limit: PAGE_BODY_LIMIT });

  router.get("/api/messages", (req, res) => {
    const phone = Phone.safeParse(req.query.phone);
    if (!phone.success) {
      badRequest(res, `phone: ${phone.error.issues[0]?.message ?? "invalid"}`);
      return;
    }
    res.json({
      phone: phone.data,
      typing: engine.isTyping(phone.data),
      messages: engine.store.list(phone.data),
    });
  });

  router.post("/api/messages", json, async (req, res) => {
    const parsed = UserMessageSchema.safeParse(req.body);
    if (!parsed.success) {
      badRequest(res, describeIssues(parsed.error));
      return;
    }
    const message = toUserMessage(parsed.data);
    if ("error" in message) {
      badRequest(res, message.error);
      return;
    }
    try {
      res.json(await engine.receiveFromUser(message));
    } catch (error) {
      if (error instanceof SimulatorInputError) {
        badRequest(res, error.message);
        return;
      }
      throw error;
    }
  });

  router.post("/api/read", json, (req, res) => {
    const parsed = ReadAck.safeParse(req.body);
    if (!parsed.success) {
      badRequest(res, describeIssues(parsed.error));
      return;
    }
    res.json({ read: engine.readByUser(parsed.data.phone, parsed.data.ids) });
  });

  router.get("/media/:id", (req, res) => {
    const stored = engine.store.getMedia(req.params.id);
    if (!stored) {
      res.status(404).json({ error: "not_found" });
      return;
    }
    // The page's path and the URL the Graph API hands out each carry a token, as Meta's signed
    // media URLs do; the latter dies with a DELETE of the media, the page's does not.
    const token = req.query.token;
    if (token !== stored.token && (token !== stored.urlToken || stored.deleted)) {
      res.status(401).json({ error: "invalid_token" });
      return;
    }
    const total = stored.bytes.length;
    res.set({
      "Content-Type": stored.info.mimeType,
      "Cache-Control": "private, max-age=3600",
      // Byte ranges let the page's <audio> and <video> read a file's end (its duration) and seek.
      "Accept-Ranges": "bytes",
    });
    const ranges = req.headers.range ? req.range(total, { combine: true }) : undefined;
    if (ranges === -1) {
      res.status(416).set("Content-Range", `bytes */${total}`).end();
      return;
    }
    const range =
      Array.isArray(ranges) && ranges.type === "bytes" && ranges.length === 1 ? ranges[0] : undefined;
    if (range) {
      const part = stored.bytes.subarray(range.start, range.end + 1);
      res
        .status(206)
        .set({
          "Content-Range": `bytes ${range.start}-${range.end}/${total}`,
          "Content-Length": String(part.length),
        })
        .end(part);
      return;
    }
    res.status(200).set("Content-Length", String(total)).end(stored.bytes);
  });

  const onError: ErrorRequestHandler = (error: unknown, _req, res, next) => {
    if (res.headersSent) return next(error);
    const e = error as { status?: unknown; type?: unknown };
    if (e.status === 413) {
      res.status(413).json({ error: "too_large", message: `The body is over ${PAGE_BODY_LIMIT}` });
      return;
    }
    if (typeof e.status === "number" && e.status < 500) {
      badRequest(res, "body: not valid JSON");
      return;
    }
    next(error);
  };
  router.use(onError);

  return {
    router,
    close() {
      for (const res of streams) res.end();
      streams.clear();
    },
  };
}
