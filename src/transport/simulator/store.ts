import { createHash, randomBytes } from "node:crypto";

/**
 * The simulator's memory: each phone's conversation, its last inbound time and the media
 * exchanged, bounded (oldest evicted first) and, given a persistence, kept across restarts; plus
 * the listeners that stream a phone's changes to its pages.
 *
 * Directions follow the app's point of view, as the Cloud API does: "in" is the user's message
 * to Memo (delivered as a webhook), "out" is Memo's message to the user (a Graph API send).
 */

/** Who wrote a message: "in" the user (a webhook to the app), "out" Memo (a Graph API send). */
type Direction = "in" | "out";

/** Delivery states, in the order they progress; "failed" ends a message's progress. */
export type DeliveryState = "sent" | "delivered" | "read" | "failed";

const PROGRESS: Record<DeliveryState, number> = { sent: 1, delivered: 2, read: 3, failed: 4 };

/** True when `next` moves a message forward (ticks never go back, "failed" is final). */
export function advances(current: DeliveryState, next: DeliveryState): boolean {
  return current !== "failed" && PROGRESS[next] > PROGRESS[current];
}

/** A stored media file, as the page and the Graph API media endpoints describe it. */
export interface SimMedia {
  /** Media id, as in webhooks and `GET /graph/:version/:mediaId`. */
  id: string;
  mimeType: string;
  /** Hex SHA-256 of the bytes. */
  sha256: string;
  fileSize: number;
  filename?: string;
  /** A recorded voice note rather than an audio file. */
  voice?: boolean;
  /** Where the bytes are, relative to the simulator's base URL (`media/<id>?token=…`). */
  path?: string;
  /** A URL Memo linked to instead of uploading (not fetched by the simulator). */
  link?: string;
}

export interface SimButton {
  id: string;
  title: string;
}

interface SimListRow {
  id: string;
  title: string;
  description?: string;
}

/** Memo's interactive message, reduced to what the page renders. */
export interface SimInteractive {
  /** "button", "list", or another Cloud API interactive type shown as plain text. */
  type: string;
  header?: string;
  body: string;
  footer?: string;
  buttons?: SimButton[];
  list?: { button: string; sections: { title?: string; rows: SimListRow[] }[] };
}

/** The user's tap on one of Memo's buttons or list rows (or a template's quick reply). */
export interface SimChoice {
  kind: "button_reply" | "list_reply" | "button";
  id: string;
  title: string;
  description?: string;
}

export interface SimLocation {
  latitude: number;
  longitude: number;
  name?: string;
  address?: string;
}

/** One message of a conversation, as the page receives it over SSE. */
export interface SimMessage {
  /** The wamid. */
  id: string;
  /** The user's phone (digits): the conversation it belongs to. */
  phone: string;
  direction: Direction;
  /** Epoch milliseconds. */
  timestamp: number;
  /** The Cloud API message type (text, image, interactive, reaction, …). */
  type: string;
  /** Text body, caption, or the readable gist of other types. */
  text?: string;
  media?: SimMedia;
  interactive?: SimInteractive;
  choice?: SimChoice;
  reaction?: { messageId: string; emoji: string };
  location?: SimLocation;
  /** A template message: its name, language code and quick-reply buttons (payload as id). */
  template?: { name: string; language?: string; buttons?: SimButton[] };
  /** The message this one quotes. */
  context?: { id: string; direction?: Direction; preview?: string };
  /** The user sent it as forwarded (the page labels it "Forwarded", as WhatsApp does). */
  forwarded?: boolean;
  status: DeliveryState;
  /** Why the message failed (webhook refused, outside the service window, …). */
  error?: string;
  /** For the user's messages: the HTTP status the app's webhook answered. */
  webhookStatus?: number;
}

/** What a page listens to: a message added or changed, or Memo typing. */
export type SimEvent =
  | { kind: "message"; message: SimMessage }
  | { kind: "typing"; phone: string; typing: boolean }
  /** Messages the store dropped past its per-phone limit. */
  | { kind: "evicted"; phone: string; ids: string[] };

export interface StoreLimits {
  /** Messages kept per phone (default: 500). */
  messagesPerPhone: number;
  /** Bytes of media kept in all (default: 50 MB). */
  mediaBytes: number;
}

export const DEFAULT_LIMITS: StoreLimits = { messagesPerPhone: 500, mediaBytes: 50 * 1024 * 1024 };

interface StoredMedia {
  info: SimMedia;
  bytes: Buffer;
  /** Required on downloads through `info.path`, the URL the page shows the file by. */
  token: string;
  /** Required on downloads through the URL the Graph API hands out (not kept across restarts). */
  urlToken: string;
  /** Memo uploaded it (POST /media), rather than the user sending it: only such media may be deleted. */
  uploaded?: boolean;
  /** Memo deleted it: gone from the Graph API and its URL, still shown in the chat. */
  deleted?: boolean;
}

/** A random Cloud-API-looking message id. */
export function newMessageId(): string {
  return `wamid.SIM${randomBytes(12).toString("hex").toUpperCase()}`;
}

/** A random numeric media id, the way Meta's look. */
function newMediaId(): string {
  const digits = Array.from(randomBytes(15), (b) => (b % 10).toString()).join("");
  return `9${digits}`;
}

/** Conversations and media in memory (and on disk with a persistence), with change listeners per phone. */
export class SimulatorStore {
  private readonly conversations = new Map<string, SimMessage[]>();
  private readonly byId = new Map<string, SimMessage>();
  private readonly lastInbound = new Map<string, number>();
  private readonly media = new Map<string, StoredMedia>();
  private mediaBytes = 0;
  private readonly listeners = new Map<string, Set<(event: SimEvent) => void>>();

  /** Without a persistence, everything lives as long as the process. */
  constructor(
    private readonly limits: StoreLimits = DEFAULT_LIMITS,
    private readonly persistence?: SimulatorPersistence,
  ) {
    if (persistence) this.restore(persistence.load());
  }

  /** A phone's messages, oldest first. */
  list(phone: string): SimMessage[] {
    return [...(this.conversations.get(phone) ?? [])];
  }

  get(id: string): SimMessage | undefined {
    return this.byId.get(id);
  }

  /** Adds a message to its phone's conversation, evicting the oldest past the limit. */
  add(message: SimMessage): SimMessage {
    let conversation = this.conversations.get(message.phone);
    if (!conversation) {
      conversation = [];
      this.conversations.set(message.phone, conversation);
    }
    conversation.push(message);
    this.byId.set(message.id, message);
    const evicted = conversation.splice(0, Math.max(0, conversation.length - this.limits.messagesPerPhone));
    for (const old of evicted) this.byId.delete(old.id);
    this.changed();
    this.emit(message.phone, { kind: "message", message });
    if (evicted.length > 0)
      this.emit(message.phone, { kind: "evicted", phone: message.phone, ids: evicted.map((m) => m.id) });
    return message;
  }

  /** Records the user's latest message time (the start of the customer service window). */
  noteInbound(phone: string, timestamp: number): void {
    this.lastInbound.set(phone, Math.max(timestamp, this.lastInbound.get(phone) ?? 0));
    this.changed();
  }

  /** When the user last wrote, or undefined when the simulator has no record of it. */
  lastInboundAt(phone: string): number | undefined {
    return this.lastInbound.get(phone);
  }

  /** Changes a stored message and tells its pages; undefined when it is gone. */
  update(id: string, change: Partial<Pick<SimMessage, "status" | "error" | "webhookStatus">>) {
    const message = this.byId.get(id);
    if (!message) return undefined;
    Object.assign(message, change);
    this.changed();
    this.emit(message.phone, { kind: "message", message });
    return message;
  }

  /** Tells a phone's pages that Memo started or stopped typing. */
  typing(phone: string, typing: boolean): void {
    this.emit(phone, { kind: "typing", phone, typing });
  }

  /** Listens to one phone's changes; returns the way to stop. */
  subscribe(phone: string, listener: (event: SimEvent) => void): () => void {
    let set = this.listeners.get(phone);
    if (!set) {
      set = new Set();
      this.listeners.set(phone, set);
    }
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(phone);
    };
  }

  /** Whether a page is listening to this phone. */
  watched(phone: string): boolean {
    return (this.listeners.get(phone)?.size ?? 0) > 0;
  }

  /** Bytes of media the store keeps in all: no single file may be larger. */
  get mediaBudget(): number {
    return this.limits.mediaBytes;
  }

  /** Stores media bytes, evicting the oldest files past the byte budget. */
  putMedia(
    bytes: Buffer,
    mimeType: string,
    extra: { filename?: string; voice?: boolean; uploaded?: boolean } = {},
  ): SimMedia {
    const id = newMediaId();
    const token = randomBytes(16).toString("hex");
    const info: SimMedia = {
      id,
      mimeType,
      sha256: createHash("sha256").update(bytes).digest("hex"),
      fileSize: bytes.length,
      ...(extra.filename ? { filename: extra.filename } : {}),
      ...(extra.voice !== undefined ? { voice: extra.voice } : {}),
      path: `media/${id}?token=${token}`,
    };
    this.media.set(id, {
      info,
      bytes,
      token,
      urlToken: randomBytes(16).toString("hex"),
      ...(extra.uploaded ? { uploaded: true } : {}),
    });
    this.mediaBytes += bytes.length;
    this.persistence?.writeMedia(id, bytes);
    this.evictMedia(id);
    this.changed();
    return info;
  }

  /** A stored media file with its download tokens, if it is still kept. */
  getMedia(id: string): Readonly<StoredMedia> | undefined {
    return this.media.get(id);
  }

  /** Marks media Memo deleted: the Graph API and its URL no longer serve it; the page still does. */
  revokeMedia(id: string): void {
    const stored = this.media.get(id);
    if (!stored) return;
    stored.deleted = true;
    this.changed();
  }

  /** Drops every listener and writes what is pending (the simulator is closing). */
  close(): void {
    this.listeners.clear();
    this.persistence?.close();
  }

  /** Takes back what a previous run saved, within today's limits. */
  private restore({ snapshot, mediaBytes }: ReturnType<SimulatorPersistence["load"]>): void {
    for (const [phone, stored] of Object.entries(snapshot.conversations)) {
      const messages = stored.messages.slice(-this.limits.messagesPerPhone);
      if (messages.length > 0) this.conversations.set(phone, messages);
      for (const message of messages) this.byId.set(message.id, message);
      // Files from before the last inbound time was saved: the newest message of the user stands in.
      const lastInbound = stored.lastInboundAt ?? messages.findLast((m) => m.direction === "in")?.timestamp;
      if (lastInbound !== undefined) this.lastInbound.set(phone, lastInbound);
    }
    for (const { info, token, uploaded, deleted } of snapshot.media) {
      const bytes = mediaBytes.get(info.id);
      if (!bytes) continue;
      this.media.set(info.id, {
        info,
        bytes,
        token,
        urlToken: randomBytes(16).toString("hex"),
        ...(uploaded ? { uploaded } : {}),
        ...(deleted ? { deleted } : {}),
      });
      this.mediaBytes += bytes.length;
    }
    this.evictMedia();
  }

  /** Drops the oldest media past the byte budget, never `keep` (the file just stored). */
  private evictMedia(keep?: string): void {
    // Maps iterate in insertion order, so the first entries are the oldest.
    for (const [oldId, old] of this.media) {
      if (this.mediaBytes <= this.limits.mediaBytes || oldId === keep) break;
      this.media.delete(oldId);
      this.mediaBytes -= old.bytes.length;
      this.persistence?.deleteMedia(oldId);
    }
  }

  /** Asks the persistence to save soon; the snapshot is taken when it writes. */
  private changed(): void {
    this.persistence?.save(() => this.snapshot());
  }

  private snapshot(): SimulatorSnapshot {
    const phones = new Set([...this.conversations.keys(), ...this.lastInbound.keys()]);
    return {
      conversations: Object.fromEntries(
        [...phones].map((phone) => {
          const lastInboundAt = this.lastInbound.get(phone);
          return [
            phone,
            {
              messages: this.conversations.get(phone) ?? [],
              ...(lastInboundAt !== undefined ? { lastInboundAt } : {}),
            },
          ];
        }),
      ),
      media: [...this.media.values()].map(({ info, token, uploaded, deleted }) => ({
        info,
        token,
        ...(uploaded ? { uploaded } : {}),
        ...(deleted ? { deleted } : {}),
      })),
    };
  }

  private emit(phone: string, event: SimEvent): void {
    for (const listener of this.listeners.get(phone) ?? []) listener(event);
  }
}

/** One phone's stored conversation. */
interface StoredConversation {
  /** Oldest first. */
  messages: SimMessage[];
  /** Epoch milliseconds of the user's last message (the 24-hour window starts there). */
  lastInboundAt?: number;
}

/** Everything the simulator keeps across restarts, except media bytes. */
export interface SimulatorSnapshot {
  conversations: Record<string, StoredConversation>;
  /** Oldest first (eviction order). */
  media: { info: SimMedia; token: string; uploaded?: boolean; deleted?: boolean }[];
}

/** Where the store keeps its state between runs. */
export interface SimulatorPersistence {
  /** What the last run saved, with the media bytes still on disk (empty when nothing was). */
  load(): { snapshot: SimulatorSnapshot; mediaBytes: Map<string, Buffer> };
  /** Writes `snapshot()` soon (debounced); after close, at once. */
  save(snapshot: () => SimulatorSnapshot): void;
  writeMedia(id: string, bytes: Buffer): void;
  deleteMedia(id: string): void;
  /** Writes any pending save now. */
  close(): void;
}
