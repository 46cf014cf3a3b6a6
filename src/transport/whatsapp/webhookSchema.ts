import { z } from "zod";
import type { DeliveryStatus } from "../../types/whatsapp.js";

/**
 * The parts of WhatsApp Cloud API webhook bodies that Memo reads. Objects are loose: Meta adds
 * fields over time, and unknown fields are ignored, never rejected.
 */

const Media = z.looseObject({
  id: z.string().min(1),
  mime_type: z.string().optional(),
  caption: z.string().optional(),
});

const Reply = z.looseObject({ id: z.string().min(1), title: z.string().default("") });

/** One inbound message (`value.messages[]`). */
export const WhatsAppMessageSchema = z.looseObject({
  from: z.string().min(1),
  id: z.string().min(1).max(256),
  /** Unix seconds, as a string. */
  timestamp: z.string().regex(/^[0-9]{1,12}$/),
  type: z.string().min(1),
  context: z
    .looseObject({
      id: z.string().min(1).optional(),
      from: z.string().optional(),
      forwarded: z.boolean().optional(),
      frequently_forwarded: z.boolean().optional(),
    })
    .optional(),
  text: z.looseObject({ body: z.string() }).optional(),
  audio: Media.extend({ voice: z.boolean().optional() }).optional(),
  image: Media.optional(),
  /** A file: PDF, Word, text… (Memo reads PDF, DOCX and plain text). */
  document: Media.extend({ filename: z.string().optional(), sha256: z.string().optional() }).optional(),
  interactive: z
    .looseObject({
      type: z.string(),
      button_reply: Reply.optional(),
      list_reply: Reply.extend({ description: z.string().optional() }).optional(),
    })
    .optional(),
  button: z.looseObject({ text: z.string().default(""), payload: z.string().optional() }).optional(),
  reaction: z.looseObject({ message_id: z.string().optional(), emoji: z.string().optional() }).optional(),
});
export type WhatsAppMessage = z.infer<typeof WhatsAppMessageSchema>;

const ErrorDetail = z.looseObject({
  code: z.number().int(),
  title: z.string().optional(),
  message: z.string().optional(),
  error_data: z.looseObject({ details: z.string().optional() }).optional(),
});
type WhatsAppErrorDetail = z.infer<typeof ErrorDetail>;

/** One delivery status of a message Memo sent (`value.statuses[]`). */
const WhatsAppStatusSchema = z.looseObject({
  id: z.string().min(1),
  status: z.string(),
  timestamp: z.string().regex(/^[0-9]{1,12}$/),
  recipient_id: z.string().optional(),
  errors: z.array(ErrorDetail).optional(),
});
type WhatsAppStatus = z.infer<typeof WhatsAppStatusSchema>;

/**
 * The envelope: a WhatsApp Business Account notification. Messages and statuses are kept as
 * `unknown` here and parsed one by one, so one malformed item is skipped instead of failing the
 * whole batch (Meta would redeliver a rejected batch, good messages included, for days).
 */
export const WebhookBodySchema = z.looseObject({
  object: z.literal("whatsapp_business_account"),
  entry: z.array(
    z.looseObject({
      id: z.string().optional(),
      changes: z
        .array(
          z.looseObject({
            field: z.string().optional(),
            value: z
              .looseObject({
                metadata: z.looseObject({ phone_number_id: z.string().optional() }).optional(),
                contacts: z
                  .array(
                    z.looseObject({
                      wa_id: z.string().optional(),
                      profile: z.looseObject({ name: z.string().optional() }).optional(),
                    }),
                  )
                  .optional(),
                messages: z.array(z.unknown()).optional(),
                statuses: z.array(z.unknown()).optional(),
                errors: z.array(z.unknown()).optional(),
              })
              .optional(),
          }),
        )
        .default([]),
    }),
  ),
});
export type WebhookBody = z.infer<typeof WebhookBodySchema>;

/** The delivery states Memo records, in the order they progress. */
export const DELIVERY_STATUSES = [
  "sent",
  "delivered",
  "read",
  "failed",
] as const satisfies readonly DeliveryStatus[];

/** What a webhook body carries, flattened across entry[] × changes[]. */
export interface WebhookContents {
  messages: { message: WhatsAppMessage; contactName?: string }[];
  statuses: WhatsAppStatus[];
  errors: WhatsAppErrorDetail[];
  /** Items that did not parse; logged and skipped. */
  skipped: { kind: "message" | "status" | "error"; issue: string }[];
  /** Changes for another business number (their metadata.phone_number_id), left out whole. */
  foreign: { phoneNumberId: string | undefined }[];
}

/**
 * Flattens every entry and change of a parsed body into its messages, statuses and errors.
 * With `phoneNumberId`, only changes addressed to that business number are read: one Meta app
 * (one app secret) can serve several numbers, e.g. staging and production, and each must answer
 * only its own users. A change without the id cannot show it is ours, and is left out too.
 */
export function readWebhookBody(body: WebhookBody, phoneNumberId?: string): WebhookContents {
  const out: WebhookContents = { messages: [], statuses: [], errors: [], skipped: [], foreign: [] };
  for (const entry of body.entry) {
    for (const change of entry.changes) {
      const value = change.value;
      if (!value) continue;
      const addressedTo = value.metadata?.phone_number_id;
      if (phoneNumberId !== undefined && addressedTo !== phoneNumberId) {
        out.foreign.push({ phoneNumberId: addressedTo });
        continue;
      }
      const names = new Map(
        (value.contacts ?? []).flatMap((c) =>
          c.wa_id && c.profile?.name ? [[c.wa_id, c.profile.name]] : [],
        ),
      );
      for (const raw of value.messages ?? []) {
        const parsed = WhatsAppMessageSchema.safeParse(raw);
        if (parsed.success) {
          const contactName = names.get(parsed.data.from);
          out.messages.push({ message: parsed.data, ...(contactName ? { contactName } : {}) });
        } else out.skipped.push({ kind: "message", issue: firstIssue(parsed.error) });
      }
      for (const raw of value.statuses ?? []) {
        const parsed = WhatsAppStatusSchema.safeParse(raw);
        if (parsed.success) out.statuses.push(parsed.data);
        else out.skipped.push({ kind: "status", issue: firstIssue(parsed.error) });
      }
      for (const raw of value.errors ?? []) {
        const parsed = ErrorDetail.safeParse(raw);
        if (parsed.success) out.errors.push(parsed.data);
        else out.skipped.push({ kind: "error", issue: firstIssue(parsed.error) });
      }
    }
  }
  return out;
}

/** Where and why an item failed to parse, without its values (they may hold message text). */
function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  return issue ? `${issue.path.join(".") || "(root)"}: ${issue.code}` : "invalid";
}
