import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import type { Logger } from "../../utils/logger.js";
import type { SimMessage, SimulatorPersistence, SimulatorSnapshot } from "./store.js";

/**
 * The simulator's conversations on disk, so a restart keeps the chats that Memo's database still
 * remembers: `conversations.json` holds the messages, their statuses and each phone's last inbound
 * time; `media/<id>` holds the bytes of each media file. The JSON is rewritten whole, debounced,
 * through a temp file and a rename, so a crash mid-write leaves the previous version.
 */

const FILE = "conversations.json";
const VERSION = 1;
/** Media ids are digits (see newMediaId): nothing in the JSON can name a path outside media/. */
const MEDIA_ID = /^[0-9]{1,40}$/;

// The file is ours, but read as untrusted: a hand edit or a half-written older version must not
// crash the service. Messages keep their other fields as written (passthrough).
const StoredMessage = z.looseObject({
  id: z.string().min(1),
  phone: z.string().regex(/^[0-9]{6,15}$/),
  direction: z.enum(["in", "out"]),
  timestamp: z.number(),
  type: z.string(),
  status: z.enum(["sent", "delivered", "read", "failed"]),
});

const StoredMedia = z.object({
  info: z.looseObject({
    id: z.string().regex(MEDIA_ID),
    mimeType: z.string(),
    sha256: z.string(),
    fileSize: z.number(),
  }),
  token: z.string().regex(/^[0-9a-f]{8,64}$/),
  uploaded: z.boolean().optional(),
  deleted: z.boolean().optional(),
});

const Snapshot = z.object({
  version: z.literal(VERSION),
  conversations: z.record(
    z.string(),
    z.object({ messages: z.array(z.unknown()), lastInboundAt: z.number().optional() }),
  ),
  media: z.array(z.unknown()),
});

export interface FilePersistenceOptions {
  /** The folder, created when missing, e.g. `<DATA_DIR>/simulator`. */
  dir: string;
  logger: Logger;
  /** Milliseconds a save waits for more changes (default: 500). */
  saveDelayMs?: number;
}

/** The snapshot as one JSON file plus one file per media, in `dir`. */
export class FilePersistence implements SimulatorPersistence {
  private readonly file: string;
  private readonly mediaDir: string;
  private readonly saveDelayMs: number;
  private readonly logger: Logger;
  private timer: NodeJS.Timeout | undefined;
  private pending: (() => SimulatorSnapshot) | undefined;
  private closed = false;
  /** Whether the last write failed, so a run of failures logs once. */
  private failing = false;
  /** Media writes under way, so a delete waits for its file to exist. */
  private readonly mediaWrites = new Map<string, Promise<void>>();

  /** Creates the folders; throws when they cannot be made. */
  constructor(options: FilePersistenceOptions) {
    this.file = path.join(options.dir, FILE);
    this.mediaDir = path.join(options.dir, "media");
    this.saveDelayMs = options.saveDelayMs ?? 500;
    this.logger = options.logger;
    mkdirSync(this.mediaDir, { recursive: true });
  }

  load(): { snapshot: SimulatorSnapshot; mediaBytes: Map<string, Buffer> } {
    const snapshot: SimulatorSnapshot = { conversations: {}, media: [] };
    const mediaBytes = new Map<string, Buffer>();
    let raw: string | undefined;
    try {
      raw = readFileSync(this.file, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") {
        this.logger.warn(
          { err: error, file: this.file },
          "cannot read the simulator's history; starting empty",
        );
      }
    }
    if (raw !== undefined) {
      const parsed = Snapshot.safeParse(parseJson(raw));
      if (parsed.success) {
        for (const [phone, stored] of Object.entries(parsed.data.conversations)) {
          const messages = stored.messages
            .map((m) => StoredMessage.safeParse(m))
            .flatMap((m) => (m.success && m.data.phone === phone ? [m.data as SimMessage] : []));
          snapshot.conversations[phone] = {
            messages,
            ...(stored.lastInboundAt !== undefined ? { lastInboundAt: stored.lastInboundAt } : {}),
          };
        }
        for (const entry of parsed.data.media) {
          const media = StoredMedia.safeParse(entry);
          if (!media.success) continue;
          const bytes = this.readMedia(media.data.info.id);
          if (!bytes) continue;
          const { info, token, uploaded, deleted } = media.data;
          snapshot.media.push({
            info,
            token,
            ...(uploaded ? { uploaded } : {}),
            ...(deleted ? { deleted } : {}),
          });
          mediaBytes.set(media.data.info.id, bytes);
        }
        const phones = Object.values(snapshot.conversations);
        this.logger.info(
          {
            file: this.file,
            phones: phones.length,
            messages: phones.reduce((sum, c) => sum + c.messages.length, 0),
            media: snapshot.media.length,
          },
          "simulator conversations loaded",
        );
      } else {
        // Kept aside rather than overwritten by the next save, in case someone wants it back.
        const aside = `${this.file}.unreadable-${Date.now()}`;
        this.logger.warn(
          { file: this.file, movedTo: aside },
          "the simulator's history is unreadable; starting empty",
        );
        try {
          renameSync(this.file, aside);
        } catch {
          // Then the next save replaces it.
        }
      }
    }
    this.removeOrphans(new Set(mediaBytes.keys()));
    return { snapshot, mediaBytes };
  }

  save(snapshot: () => SimulatorSnapshot): void {
    this.pending = snapshot;
    // A simulator closing at shutdown may still get Memo's last sends: those are written at once.
    if (this.closed) {
      this.flush();
      return;
    }
    if (this.timer) return;
    this.timer = setTimeout(() => this.flush(), this.saveDelayMs);
    // A pending save does not keep the process alive; close() writes it.
    this.timer.unref();
  }

  writeMedia(id: string, bytes: Buffer): void {
    const file = this.mediaFile(id);
    if (!file) return;
    const tmp = `${file}.tmp`;
    const write = writeFile(tmp, bytes)
      .then(() => rename(tmp, file))
      .catch((error: unknown) => this.logger.warn({ err: error, file }, "cannot save a simulator media file"))
      .finally(() => {
        if (this.mediaWrites.get(id) === write) this.mediaWrites.delete(id);
      });
    this.mediaWrites.set(id, write);
  }

  deleteMedia(id: string): void {
    const file = this.mediaFile(id);
    if (!file) return;
    void (this.mediaWrites.get(id) ?? Promise.resolve())
      .then(() => rm(file, { force: true }))
      .catch((error: unknown) =>
        this.logger.warn({ err: error, file }, "cannot delete a simulator media file"),
      );
  }

  close(): void {
    this.closed = true;
    this.flush();
  }

  /** Writes the pending snapshot (synchronously: no two writes can interleave). */
  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const snapshot = this.pending;
    this.pending = undefined;
    if (!snapshot) return;
    const tmp = `${this.file}.${process.pid}.tmp`;
    try {
      writeFileSync(tmp, JSON.stringify({ version: VERSION, ...snapshot() }));
      // rename() replaces the file in one step: readers see the old version or the new, never half.
      renameSync(tmp, this.file);
      this.failing = false;
    } catch (error) {
      if (!this.failing)
        this.logger.warn({ err: error, file: this.file }, "cannot save the simulator's history");
      this.failing = true;
    }
  }

  private mediaFile(id: string): string | undefined {
    return MEDIA_ID.test(id) ? path.join(this.mediaDir, id) : undefined;
  }

  private readMedia(id: string): Buffer | undefined {
    const file = this.mediaFile(id);
    if (!file) return undefined;
    try {
      return readFileSync(file);
    } catch {
      // Evicted, or the run ended before it was written: the message stays, its media is gone.
      return undefined;
    }
  }

  /** Deletes media files no message refers to (left by a run that ended between two saves). */
  private removeOrphans(kept: ReadonlySet<string>): void {
    let names: string[];
    try {
      names = readdirSync(this.mediaDir);
    } catch {
      return;
    }
    for (const name of names) {
      // Only files of ours: a media id, or the temp file of one.
      if (kept.has(name) || !/^[0-9]{1,40}(\.tmp)?$/.test(name)) continue;
      try {
        rmSync(path.join(this.mediaDir, name), { force: true });
      } catch {
        // Tried again at the next start.
      }
    }
  }
}

function parseJson(raw: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return undefined;
  }
}
