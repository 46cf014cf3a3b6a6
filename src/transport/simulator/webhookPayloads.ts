import type { DeliveryState, SimChoice, SimLocation, SimMedia } from "./store.js";

/**
 * Cloud API webhook bodies, shaped as Meta sends them: the user's messages and the delivery
 * statuses of Memo's messages, wrapped in a WhatsApp Business Account notification.
 */

/** The business side of every notification. */
export interface BusinessIdentity {
  /** The WhatsApp Business Account id (entry[].id). */
  accountId: string;
  /** The business number as digits (metadata.display_phone_number, context.from). */
  displayPhoneNumber: string;
  /** The business phone number id the app sends from (metadata.phone_number_id). */
  phoneNumberId: string;
}

/** What the user sent, before it becomes a Cloud API message object. */
export interface InboundContent {
  type: string;
  text?: string;
  caption?: string;
  media?: SimMedia;
  choice?: SimChoice;
  reaction?: { messageId: string; emoji: string };
  location?: SimLocation;
}

export interface InboundMessage {
  id: string;
  from: string;
  name: string;
  /** Epoch milliseconds. */
  timestamp: number;
  content: InboundContent;
  /** The quoted message: its id and who wrote it (the user's own number or the business's). */
  context?: { id: string; from: string };
  /** Sent as forwarded: Meta marks it context.forwarded. */
  forwarded?: boolean;
}

/** Cloud API timestamps: Unix seconds as a string. */
function unixSeconds(ms: number): string {
  return Math.floor(ms / 1000).toString();
}

function notification(business: BusinessIdentity, value: Record<string, unknown>) {
  return {
    object: "whatsapp_business_account",
    entry: [
      {
        id: business.accountId,
        changes: [
          {
            value: {
              messaging_product: "whatsapp",
              metadata: {
                display_phone_number: business.displayPhoneNumber,
                phone_number_id: business.phoneNumberId,
              },
              ...value,
            },
            field: "messages",
          },
        ],
      },
    ],
  };
}

/** The type-specific part of a message object (`text: {...}`, `image: {...}`, …). */
function messageBody(content: InboundContent): Record<string, unknown> {
  const { media } = content;
  const mediaFields = media ? { mime_type: media.mimeType, sha256: media.sha256, id: media.id } : {};
  const caption = content.caption ? { caption: content.caption } : {};
  switch (content.type) {
    case "text":
      return { text: { body: content.text ?? "" } };
    case "image":
    case "video":
      return { [content.type]: { ...caption, ...mediaFields } };
    case "audio":
      return { audio: { ...mediaFields, voice: media?.voice ?? false } };
    case "sticker":
      return { sticker: { ...mediaFields, animated: false } };
    case "document":
      return {
        document: { ...caption, filename: media?.filename ?? "document", ...mediaFields },
      };
    case "interactive": {
      const choice = content.choice;
      if (!choice || choice.kind === "button") return {};
      const reply =
        choice.kind === "list_reply"
          ? {
              id: choice.id,
              title: choice.title,
              ...(choice.description ? { description: choice.description } : {}),
            }
          : { id: choice.id, title: choice.title };
      return { interactive: { type: choice.kind, [choice.kind]: reply } };
    }
    case "button":
      return { button: { payload: content.choice?.id ?? "", text: content.choice?.title ?? "" } };
    case "reaction":
      // Meta leaves the emoji out when a reaction is removed.
      return {
        reaction: {
          message_id: content.reaction?.messageId ?? "",
          ...(content.reaction?.emoji ? { emoji: content.reaction.emoji } : {}),
        },
      };
    case "location": {
      const location = content.location;
      return {
        location: {
          latitude: location?.latitude ?? 0,
          longitude: location?.longitude ?? 0,
          ...(location?.name ? { name: location.name } : {}),
          ...(location?.address ? { address: location.address } : {}),
        },
      };
    }
    default:
      // What Meta sends for a message type the Cloud API does not support.
      return {
        errors: [
          {
            code: 131051,
            title: "Message type unknown",
            message: "Message type unknown",
            error_data: { details: "Message type is currently not supported." },
          },
        ],
      };
  }
}

/** The webhook body Meta posts when the user sends `message`. */
export function inboundMessagePayload(business: BusinessIdentity, message: InboundMessage) {
  const type = messageBody(message.content).errors ? "unsupported" : message.content.type;
  // Meta's context holds the quoted message (from, id) and, for a forwarded one, forwarded: true.
  const context = {
    ...(message.context ? { from: message.context.from, id: message.context.id } : {}),
    ...(message.forwarded ? { forwarded: true } : {}),
  };
  return notification(business, {
    contacts: [{ profile: { name: message.name }, wa_id: message.from }],
    messages: [
      {
        ...(Object.keys(context).length > 0 ? { context } : {}),
        from: message.from,
        id: message.id,
        timestamp: unixSeconds(message.timestamp),
        type,
        ...messageBody(message.content),
      },
    ],
  });
}

export interface StatusUpdate {
  /** The wamid of Memo's message. */
  id: string;
  status: Exclude<DeliveryState, "failed"> | "failed";
  recipient: string;
  /** Epoch milliseconds. */
  timestamp: number;
  /** Conversation id for the pricing block of sent/delivered statuses. */
  conversationId: string;
  /** Present with "failed": the Cloud API error. */
  error?: { code: number; title: string; message: string; details: string };
}

/** The webhook body Meta posts when one of the business's messages changes state. */
export function statusPayload(business: BusinessIdentity, update: StatusUpdate) {
  // Meta attaches conversation and pricing to sent and delivered statuses only.
  const billing =
    update.status === "sent" || update.status === "delivered"
      ? {
          conversation: {
            id: update.conversationId,
            ...(update.status === "sent"
              ? { expiration_timestamp: unixSeconds(update.timestamp + 24 * 60 * 60 * 1000) }
              : {}),
            origin: { type: "service" },
          },
          pricing: { billable: true, pricing_model: "CBP", category: "service" },
        }
      : {};
  const errors = update.error
    ? {
        errors: [
          {
            code: update.error.code,
            title: update.error.title,
            message: update.error.message,
            error_data: { details: update.error.details },
          },
        ],
      }
    : {};
  return notification(business, {
    statuses: [
      {
        id: update.id,
        status: update.status,
        timestamp: unixSeconds(update.timestamp),
        recipient_id: update.recipient,
        ...billing,
        ...errors,
      },
    ],
  });
}

// Signed exactly as the webhook verifies: one implementation for both sides.
export { SIGNATURE_HEADER, signBody } from "../whatsapp/signature.js";
