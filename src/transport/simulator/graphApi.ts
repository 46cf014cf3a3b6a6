import express, { Router, type ErrorRequestHandler } from "express";
import { z } from "zod";
import type { MemoMessage, SimulatorEngine } from "./engine.js";
import { sendGraphError, unknownObject, type GraphError } from "./graphErrors.js";
import { fitsMessage, largestUpload, readUpload, sizeName } from "./mediaUpload.js";
import type { SimButton, SimInteractive, SimMedia } from "./store.js";
import { t } from "../../messages/index.js";
import { HOUSEHOLD_BUTTON } from "../../nlu/buttonCommands.js";

/**
 * The Graph API stand-in: the endpoints Memo's WhatsApp client calls, answering as Meta does,
 * including Meta's 400s for messages WhatsApp would refuse (so limits are caught in dev).
 */

export interface GraphApiOptions {
  engine: SimulatorEngine;
  phoneNumberId: string;
  /** The simulator's public base URL, for media download URLs. */
  publicUrl: () => string;
}

/** Length as WhatsApp counts it: characters (code points), not UTF-16 units. */
function length(text: string): number {
  return Array.from(text).length;
}

/** A string of 1..max characters, failing with the wording of Meta's details. */
function bounded(label: string, max: number, min = 1) {
  return z.string().refine((s) => length(s) >= min && length(s) <= max, {
    message: `${label} length invalid. Min length: ${min}, Max length: ${max}`,
  });
}

const TextHeader = z.looseObject({ type: z.string(), text: bounded("Header text", 60).optional() });
const Footer = z.looseObject({ text: bounded("Footer text", 60) });

const ReplyButton = z.looseObject({
  type: z.literal("reply"),
  reply: z.looseObject({ id: bounded("Button id", 256), title: bounded("Button title", 20) }),
});

const ButtonMessage = z.looseObject({
  type: z.literal("button"),
  header: TextHeader.optional(),
  body: z.looseObject({ text: bounded("Body text", 1024) }),
  footer: Footer.optional(),
  action: z.looseObject({
    buttons: z
      .array(ReplyButton)
      .min(1, { message: "At least 1 button is required" })
      .max(3, { message: "Too many buttons. Max: 3" })
      .superRefine((buttons, ctx) => {
        for (const key of ["title", "id"] as const) {
          const seen = new Set<string>();
          buttons.forEach((button, index) => {
            const value = button.reply[key];
            if (seen.has(value)) {
              ctx.addIssue({
                code: "custom",
                path: [index, "reply", key],
                message: `Button ${key}s must be unique. Duplicate: ${value}`,
              });
            }
            seen.add(value);
          });
        }
      }),
  }),
});

const ListRow = z.looseObject({
  id: bounded("Row id", 200),
  title: bounded("Row title", 24),
  description: bounded("Row description", 72, 0).optional(),
});

const ListMessage = z.looseObject({
  type: z.literal("list"),
  header: TextHeader.optional(),
  body: z.looseObject({ text: bounded("Body text", 4096) }),
  footer: Footer.optional(),
  action: z
    .looseObject({
      button: bounded("Button label", 20),
      sections: z
        .array(
          z.looseObject({
            title: bounded("Section title", 24).optional(),
            rows: z.array(ListRow).min(1, { message: "At least 1 row is required" }),
          }),
        )
        .min(1, { message: "At least 1 section is required" })
        .max(10, { message: "Too many sections. Max: 10" }),
    })
    .superRefine((action, ctx) => {
      const rows = action.sections.flatMap((s) => s.rows);
      if (rows.length > 10) {
        ctx.addIssue({
          code: "custom",
          path: ["sections"],
          message: `Total row count exceed max allowed count: 10 (got ${rows.length})`,
        });
      }
      const seen = new Set<string>();
      action.sections.forEach((section, s) => {
        if (action.sections.length > 1 && !section.title) {
          ctx.addIssue({
            code: "custom",
            path: ["sections", s, "title"],
            message: "Section title is required when there is more than one section",
          });
        }
        section.rows.forEach((row, r) => {
          if (seen.has(row.id)) {
            ctx.addIssue({
              code: "custom",
              path: ["sections", s, "rows", r, "id"],
              message: `Row ids must be unique. Duplicate: ${row.id}`,
            });
          }
          seen.add(row.id);
        });
      });
    }),
});

/** Other interactive types (cta_url, flow, …): shown as their body text. */
const OtherInteractive = z.looseObject({
  type: z.string().min(1),
  body: z.looseObject({ text: bounded("Body text", 4096) }).optional(),
});

const MediaObject = z
  .looseObject({
    id: z.string().min(1).optional(),
    // Only web links: the page renders the link as an anchor.
    link: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).optional(),
    caption: bounded("Caption", 1024).optional(),
    filename: z.string().optional(),
  })
  .refine((m) => m.id !== undefined || m.link !== undefined, {
    message: "must have either an id or a link",
  });

/** Meta refuses a text parameter with a line break, a tab or more than four spaces in a row. */
const TemplateText = z.looseObject({
  type: z.literal("text"),
  text: bounded("Text parameter", 1024).refine((text) => !/[\n\t]| {5,}/.test(text), {
    message: "cannot have new-line/tab characters or more than 4 consecutive spaces",
  }),
});

/** A body parameter: text, or Meta's other localizable kinds (shown as nothing). */
const BodyParameter = z.discriminatedUnion("type", [
  TemplateText,
  z.looseObject({ type: z.literal("currency"), currency: z.looseObject({}) }),
  z.looseObject({ type: z.literal("date_time"), date_time: z.looseObject({}) }),
]);

const INDEX_RANGE = "must be the button's position, 0 to 9";
/** A button's position in the template as registered: 0 to 9 (Meta documents it as a string). */
const ButtonIndex = z.union([
  z.string().regex(/^[0-9]$/, { message: INDEX_RANGE }),
  z.number().int({ message: INDEX_RANGE }).min(0, { message: INDEX_RANGE }).max(9, { message: INDEX_RANGE }),
]);

/** A quick-reply button's payload, which a tap sends back (Meta: at most 256 characters). */
const QuickReply = z.looseObject({
  type: z.literal("button"),
  sub_type: z.literal("quick_reply"),
  index: ButtonIndex,
  parameters: z
    .array(z.looseObject({ type: z.literal("payload"), payload: bounded("Button payload", 256) }))
    .length(1, { message: "A quick reply button takes exactly one payload parameter" }),
});

const OtherButton = z.looseObject({
  type: z.literal("button"),
  sub_type: z.enum(["url", "copy_code", "flow", "catalog", "mpm", "voice_call"]),
  index: ButtonIndex,
});

const TemplateComponent = z.discriminatedUnion("type", [
  z.looseObject({ type: z.literal("header"), parameters: z.array(z.looseObject({ type: z.string() })) }),
  z.looseObject({ type: z.literal("body"), parameters: z.array(BodyParameter).min(1) }),
  z.discriminatedUnion("sub_type", [QuickReply, OtherButton]),
]);

const Template = z.looseObject({
  name: z.string().min(1),
  language: z.looseObject({ code: z.string().min(1) }),
  components: z
    .array(TemplateComponent)
    .superRefine((components, ctx) => {
      const seen = new Set<string>();
      components.forEach((component, index) => {
        if (component.type !== "button") return;
        const position = String(component.index);
        if (seen.has(position)) {
          ctx.addIssue({
            code: "custom",
            path: [index, "index"],
            message: `Button indexes must be unique. Duplicate: ${position}`,
          });
        }
        seen.add(position);
      });
    })
    .optional(),
});

type TemplateData = z.infer<typeof Template>;

/**
 * A quick-reply button's title. The titles are part of the template as registered with Meta, not
 * of the send, so the simulator makes them up from the payload: Memo's invitation buttons
 * (`hh:accept:<id>`, `hh:decline:<id>`) get the titles docs/HOUSEHOLD.md registers, in the
 * template's language (the body's: Hebrew for a `he` or `iw` code, else English); any other
 * payload is its own title, cut to the 25 characters a template button's title may have.
 */
function quickReplyTitle(payload: string, languageCode: string): string {
  const language = /^(he|iw)(_|$)/i.test(languageCode) ? "he" : "en";
  if (payload.startsWith(HOUSEHOLD_BUTTON.accept)) return t(language, "household.buttonAccept");
  if (payload.startsWith(HOUSEHOLD_BUTTON.decline)) return t(language, "household.buttonDecline");
  const chars = Array.from(payload);
  return chars.length > 25 ? `${chars.slice(0, 24).join("")}…` : payload;
}

/** A template send as the page shows it: the filled-in text and the quick replies, in index order. */
function readTemplate(template: TemplateData): { text: string; buttons: SimButton[] } {
  const components = template.components ?? [];
  // What the user would read: the text parameters the template is filled with.
  const filled = components
    .flatMap((c) => (c.type === "button" ? [] : c.parameters))
    .map((p) => p.text)
    .filter((text): text is string => typeof text === "string");
  const buttons = components
    .filter((c): c is z.infer<typeof QuickReply> => c.type === "button" && c.sub_type === "quick_reply")
    .sort((a, b) => Number(a.index) - Number(b.index))
    .flatMap((c) => c.parameters)
    .map(({ payload }) => ({ id: payload, title: quickReplyTitle(payload, template.language.code) }));
  const header = `📋 Template "${template.name}" (${template.language.code})`;
  return { text: filled.length ? `${header}\n${filled.join("\n")}` : header, buttons };
}

const SendBase = z.looseObject({
  messaging_product: z.literal("whatsapp"),
  recipient_type: z.literal("individual").optional(),
  // Meta accepts formatted numbers (+1 (555) 010-0000) and answers with the digits as wa_id.
  to: z
    .string()
    .transform((to) => to.replace(/[\s().+-]/g, ""))
    .pipe(z.string().regex(/^[0-9]{6,15}$/, { message: "must be a phone number in international format" })),
  type: z.string().default("text"),
  context: z.looseObject({ message_id: z.string().min(1) }).optional(),
});

const MEDIA_TYPES = ["image", "audio", "video", "document", "sticker"] as const;

const TYPED: Record<string, z.ZodType> = {
  text: z.looseObject({
    text: z.looseObject({ body: bounded("Message text", 4096), preview_url: z.boolean().optional() }),
  }),
  reaction: z.looseObject({
    reaction: z.looseObject({ message_id: z.string().min(1), emoji: z.string() }),
  }),
  location: z.looseObject({
    location: z.looseObject({
      latitude: z.coerce.number().min(-90).max(90),
      longitude: z.coerce.number().min(-180).max(180),
      name: z.string().optional(),
      address: z.string().optional(),
    }),
  }),
  template: z.looseObject({ template: Template }),
  ...Object.fromEntries(MEDIA_TYPES.map((type) => [type, z.looseObject({ [type]: MediaObject })])),
};

const ReadReceipt = z.looseObject({
  messaging_product: z.literal("whatsapp"),
  status: z.literal("read"),
  message_id: z.string().min(1),
  typing_indicator: z.looseObject({ type: z.literal("text") }).optional(),
});

/** `interactive['action']['buttons'][0]['reply']['title']`, as Meta names parameters. */
function paramName(path: readonly PropertyKey[]): string {
  const [first, ...rest] = path.map((p) => (typeof p === "number" ? p : String(p)));
  return `${String(first ?? "body")}${rest.map((p) => `[${typeof p === "number" ? p : `'${p}'`}]`).join("")}`;
}

/** What sits at `path` inside `data`, undefined when any step is missing. */
function valueAt(data: unknown, path: readonly PropertyKey[]): unknown {
  let current = data;
  for (const key of path) {
    if (typeof current !== "object" || current === null) return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

/** The first problem of parsing `data`, as a Graph API error (code 100, Invalid parameter). */
function toGraphError(error: z.ZodError, data: unknown, prefix: readonly PropertyKey[] = []): GraphError {
  const issue = error.issues[0];
  const path = [...prefix, ...(issue?.path ?? [])];
  if (issue && issue.code !== "custom" && valueAt(data, issue.path) === undefined) {
    return { message: `(#100) The parameter ${paramName(path)} is required.`, code: 100 };
  }
  const details = `Param ${paramName(path)}: ${issue?.message ?? "invalid"}`;
  return { message: `(#100) Invalid parameter`, code: 100, subcode: 2494010, details };
}

/** The interactive message as the page renders it. */
function readInteractive(raw: unknown): { value: SimInteractive } | { error: GraphError } {
  const type = (raw as { type?: unknown } | undefined)?.type;
  if (type === "button") {
    const parsed = ButtonMessage.safeParse(raw);
    if (!parsed.success) return { error: toGraphError(parsed.error, raw, ["interactive"]) };
    const m = parsed.data;
    return {
      value: {
        type: "button",
        ...(m.header?.text ? { header: m.header.text } : {}),
        body: m.body.text,
        ...(m.footer ? { footer: m.footer.text } : {}),
        buttons: m.action.buttons.map((b) => ({ id: b.reply.id, title: b.reply.title })),
      },
    };
  }
  if (type === "list") {
    const parsed = ListMessage.safeParse(raw);
    if (!parsed.success) return { error: toGraphError(parsed.error, raw, ["interactive"]) };
    const m = parsed.data;
    return {
      value: {
        type: "list",
        ...(m.header?.text ? { header: m.header.text } : {}),
        body: m.body.text,
        ...(m.footer ? { footer: m.footer.text } : {}),
        list: {
          button: m.action.button,
          sections: m.action.sections.map((s) => ({
            ...(s.title ? { title: s.title } : {}),
            rows: s.rows.map((r) => ({
              id: r.id,
              title: r.title,
              ...(r.description ? { description: r.description } : {}),
            })),
          })),
        },
      },
    };
  }
  const parsed = OtherInteractive.safeParse(raw);
  if (!parsed.success) return { error: toGraphError(parsed.error, raw, ["interactive"]) };
  return { value: { type: parsed.data.type, body: parsed.data.body?.text ?? `[${parsed.data.type}]` } };
}

/** A send request turned into Memo's message, or the error Meta would answer. */
function readSend(
  body: Record<string, unknown>,
  mediaOf: (id: string) => SimMedia | undefined,
): { to: string; message: MemoMessage } | { error: GraphError } {
  const base = SendBase.safeParse(body);
  if (!base.success) return { error: toGraphError(base.error, body) };
  const { type, context } = base.data;
  const { to } = base.data;
  const common = { type, ...(context ? { replyTo: context.message_id } : {}) };

  if (type === "interactive") {
    if (body.interactive === undefined) {
      return { error: { message: "(#100) The parameter interactive is required.", code: 100 } };
    }
    const interactive = readInteractive(body.interactive);
    if ("error" in interactive) return interactive;
    return { to, message: { ...common, text: interactive.value.body, interactive: interactive.value } };
  }
  const schema = TYPED[type];
  if (!schema) {
    return {
      error: {
        message: "(#100) Invalid parameter",
        code: 100,
        subcode: 2494010,
        details: `Param type: unsupported message type '${type}'`,
      },
    };
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) return { error: toGraphError(parsed.error, body) };
  const data = parsed.data as Record<string, Record<string, unknown>>;
  switch (type) {
    case "text":
      return { to, message: { ...common, text: String(data.text?.body) } };
    case "reaction": {
      const reaction = data.reaction as { message_id: string; emoji: string };
      return {
        to,
        message: { ...common, reaction: { messageId: reaction.message_id, emoji: reaction.emoji } },
      };
    }
    case "location": {
      const l = data.location as { latitude: number; longitude: number; name?: string; address?: string };
      return {
        to,
        message: {
          ...common,
          text: l.name ?? l.address ?? `📍 ${l.latitude}, ${l.longitude}`,
          location: {
            latitude: l.latitude,
            longitude: l.longitude,
            ...(l.name ? { name: l.name } : {}),
            ...(l.address ? { address: l.address } : {}),
          },
        },
      };
    }
    case "template": {
      const template = data.template as TemplateData;
      const { text, buttons } = readTemplate(template);
      return {
        to,
        message: {
          ...common,
          text,
          template: {
            name: template.name,
            language: template.language.code,
            ...(buttons.length ? { buttons } : {}),
          },
        },
      };
    }
    default: {
      const m = data[type] as {
        id?: string;
        link?: string;
        caption?: string;
        filename?: string;
        voice?: unknown;
      };
      // Cloud API: audio is a voice message only when the send says `voice: true` (Ogg/Opus, as
      // the upload rules already demand); without it WhatsApp shows a basic audio file.
      const voice = type === "audio" ? { voice: m.voice === true } : {};
      let media: SimMedia | undefined;
      if (m.id) {
        const stored = mediaOf(m.id);
        if (!stored) {
          return {
            error: {
              message: "(#100) Invalid parameter",
              code: 100,
              subcode: 2494010,
              details: `Param ${type}['id']: unknown media id ${m.id}`,
            },
          };
        }
        if (!fitsMessage(type, stored.mimeType)) {
          return {
            error: {
              message: "(#100) Invalid parameter",
              code: 100,
              subcode: 2494010,
              details: `Param ${type}['id']: media ${m.id} is ${stored.mimeType}, which cannot be sent as ${type}`,
            },
          };
        }
        // A document's filename is the send's to choose (what the user sees on the bubble):
        // WhatsApp does not keep the name of the uploaded file.
        const { filename: _uploadName, voice: _uploadVoice, ...kept } = stored;
        media = { ...kept, ...(m.filename ? { filename: m.filename } : {}), ...voice };
      } else {
        media = {
          id: "",
          mimeType: "",
          sha256: "",
          fileSize: 0,
          ...(m.filename ? { filename: m.filename } : {}),
          ...(m.link ? { link: m.link } : {}),
          ...voice,
        };
      }
      return { to, message: { ...common, ...(m.caption ? { text: m.caption } : {}), media } };
    }
  }
}

/** Largest JSON body (message sends, read receipts). */
const JSON_BODY_LIMIT = 5 * 1024 * 1024;

/** Room for the form around an uploaded file (boundaries, part headers, the other fields). */
const FORM_ALLOWANCE = 64 * 1024;

/** The `/graph` routes: message sends, read receipts, media uploads and lookups. */
export function graphApiRoutes(options: GraphApiOptions): Router {
  const { engine } = options;
  const router = Router();
  const largestFile = largestUpload(engine.store.mediaBudget);
  const uploadLimit = largestFile + FORM_ALLOWANCE;
  router.use(express.json({ limit: JSON_BODY_LIMIT }));

  // Media upload (multipart: messaging_product, type, file), answered with the media id to send.
  router.post(
    "/:version/:phoneNumberId/media",
    (req, res, next) => {
      // Before the body is read: another number's upload is refused unread.
      if (req.params.phoneNumberId !== options.phoneNumberId) {
        unknownObject(res, req.params.phoneNumberId, "post");
        return;
      }
      next();
    },
    // Refuses a declared Content-Length over the limit before reading, and stops reading past it.
    express.raw({ type: () => true, limit: uploadLimit }),
    (req, res) => {
      const read = readUpload(req.body, req.headers["content-type"], engine.store.mediaBudget);
      if ("error" in read) {
        sendGraphError(res, 400, read.error);
        return;
      }
      const { upload } = read;
      // Whether audio is a voice message is the send's to say (`audio.voice`), not the upload's.
      const media = engine.store.putMedia(upload.bytes, upload.mimeType, { uploaded: true });
      res.json({ id: media.id });
    },
  );

  router.post("/:version/:phoneNumberId/messages", (req, res) => {
    if (req.params.phoneNumberId !== options.phoneNumberId) {
      unknownObject(res, req.params.phoneNumberId, "post");
      return;
    }
    const body: unknown = req.body;
    if (typeof body !== "object" || body === null || Array.isArray(body)) {
      sendGraphError(res, 400, { message: "(#100) The parameter messaging_product is required.", code: 100 });
      return;
    }
    const fields = body as Record<string, unknown>;
    if (fields.status !== undefined) {
      const receipt = ReadReceipt.safeParse(fields);
      if (!receipt.success) {
        sendGraphError(res, 400, toGraphError(receipt.error, fields));
        return;
      }
      if (!engine.readByMemo(receipt.data.message_id, receipt.data.typing_indicator !== undefined)) {
        sendGraphError(res, 400, {
          message: "(#100) Invalid parameter",
          code: 100,
          subcode: 2494010,
          details: `Param message_id: no message ${receipt.data.message_id} from a user`,
        });
        return;
      }
      res.json({ success: true });
      return;
    }
    const send = readSend(fields, (id) => {
      const stored = engine.store.getMedia(id);
      return stored && !stored.deleted ? stored.info : undefined;
    });
    if ("error" in send) {
      sendGraphError(res, 400, send.error);
      return;
    }
    const stored = engine.sendFromMemo(send.to, send.message);
    res.json({
      messaging_product: "whatsapp",
      contacts: [{ input: String(fields.to), wa_id: send.to }],
      messages: [{ id: stored.id }],
    });
  });

  router.get("/:version/:mediaId", (req, res) => {
    const stored = engine.store.getMedia(req.params.mediaId);
    if (!stored || stored.deleted) {
      unknownObject(res, req.params.mediaId, "get");
      return;
    }
    const { info } = stored;
    const base = options.publicUrl().replace(/\/+$/, "");
    res.json({
      messaging_product: "whatsapp",
      url: `${base}/media/${info.id}?token=${stored.urlToken}`,
      mime_type: info.mimeType,
      sha256: info.sha256,
      file_size: info.fileSize,
      id: info.id,
    });
  });

  // Memo may delete what it uploaded (not what the user sent): gone from the Graph API and the URL
  // it handed out, yet still on the user's phone (the page keeps showing it), as on WhatsApp.
  router.delete("/:version/:mediaId", (req, res) => {
    const id = req.params.mediaId;
    const stored = engine.store.getMedia(id);
    if (!stored || stored.deleted || !stored.uploaded) {
      unknownObject(res, id, "delete");
      return;
    }
    engine.store.revokeMedia(id);
    res.json({ success: true });
  });

  router.use((req, res) => {
    sendGraphError(res, 400, {
      message: `Unknown path components: ${req.path}`,
      code: 2500,
    });
  });

  const onError: ErrorRequestHandler = (error: unknown, req, res, next) => {
    if (res.headersSent) return next(error);
    const status = (error as { status?: unknown }).status;
    if (status === 413) {
      // The limit of the parser that refused (body-parser puts it on the error).
      const limit = (error as { limit?: unknown }).limit;
      if (limit === uploadLimit && req.path.endsWith("/media")) {
        sendGraphError(res, 413, {
          message: "(#131053) Media upload error",
          code: 131053,
          details: `Param file: the upload is over the largest file the simulator keeps, ${sizeName(largestFile)} (the smaller of its media store's budget and WhatsApp's 100 MB for documents)`,
        });
        return;
      }
      sendGraphError(res, 413, {
        message: `(#100) The request body is over the limit (${typeof limit === "number" ? sizeName(limit) : "of its parser"})`,
        code: 100,
      });
      return;
    }
    if (typeof status === "number" && status < 500) {
      sendGraphError(res, status, {
        message: "(#100) The request body could not be read as JSON",
        code: 100,
      });
      return;
    }
    next(error);
  };
  router.use(onError);
  return router;
}
