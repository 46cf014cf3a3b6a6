import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { OAuth2Client } from "google-auth-library";
import type { GoogleAccounts } from "../../src/services/google/types.js";

/**
 * A local stand-in for the Gmail v1 endpoints Memo uses, on 127.0.0.1: an in-memory mailbox
 * (search with the common Gmail operators, messages and threads in `format=full` / `metadata`,
 * send, drafts, labels, batchModify, trash) and an OAuth token endpoint. It records every request,
 * and decodes what Memo sends (raw MIME → To, Cc, Subject, body) so tests assert on it.
 *
 *   const gmail = await FakeGmail.start();
 *   gmail.add({ from: "Dana Levi <dana@example.com>", subject: "Invoice", body: "Hi…" });
 *   const google = gmail.accounts();   // a GoogleAccounts whose client talks to the stand-in
 *   ... gmail.sent[0].subject, gmail.requests ...
 */

/** A message in the stand-in's mailbox. */
export interface FakeMessage {
  id: string;
  threadId: string;
  labelIds: string[];
  from: string;
  to: string[];
  cc: string[];
  subject: string;
  /** Epoch milliseconds. */
  date: number;
  /** Plain text body (absent: HTML only). */
  text?: string;
  html?: string;
  messageId: string;
  references?: string;
  inReplyTo?: string;
  replyTo?: string;
  /** The Subject header exactly as stored (RFC 2047 words, as a sender may have written it). */
  rawSubject?: string;
}

/** What Memo sent or drafted, decoded from its raw MIME. */
export interface DecodedMail {
  headers: Record<string, string>;
  to: string;
  cc: string;
  subject: string;
  body: string;
  threadId: string | null;
  inReplyTo: string;
  references: string;
  /** The MIME text as sent (headers undecoded). */
  mime: string;
}

export interface RecordedGmailRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
  authorization: string | undefined;
}

export const ME = "me@example.com";

/** Undoes RFC 2047 "B" and "Q" encoded words (the stand-in's own reading, separate from Memo's). */
function decodeWords(value: string): string {
  return value
    .replace(/(\?=)\s+(=\?)/g, "$1$2")
    .replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_m, charset: string, kind: string, data: string) => {
      const bytes =
        kind.toUpperCase() === "B"
          ? Buffer.from(data, "base64")
          : Buffer.from(
              data
                .replace(/_/g, " ")
                .replace(/=([0-9A-F]{2})/gi, (_x, h: string) => String.fromCharCode(parseInt(h, 16))),
              "latin1",
            );
      return new TextDecoder(charset).decode(bytes);
    });
}

/** Headers and body of a single-part MIME message. */
function parseMime(mime: string): { headers: Record<string, string>; body: string } {
  const split = mime.indexOf("\r\n\r\n");
  const head = mime.slice(0, split).replace(/\r\n[ \t]+/g, " ");
  const headers: Record<string, string> = {};
  for (const line of head.split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = decodeWords(line.slice(colon + 1).trim());
  }
  const rawBody = mime.slice(split + 4);
  const body = /base64/i.test(headers["content-transfer-encoding"] ?? "")
    ? Buffer.from(rawBody.replace(/\s+/g, ""), "base64").toString("utf8")
    : rawBody;
  return { headers, body: body.replace(/\r\n/g, "\n").replace(/\n$/, "") };
}

const b64url = (text: string) => Buffer.from(text, "utf8").toString("base64url");

/** Splits a Gmail query into terms, keeping quoted and parenthesized values together. */
function terms(query: string): string[] {
  return query.match(/[a-z_]+:(?:"[^"]*"|\([^)]*\)|\S+)|"[^"]*"|\S+/gi) ?? [];
}

const bare = (value: string) => value.replace(/^["(]|[")]$/g, "").toLowerCase();

export class FakeGmail {
  readonly messages = new Map<string, FakeMessage>();
  readonly requests: RecordedGmailRequest[] = [];
  readonly sent: DecodedMail[] = [];
  readonly drafts: DecodedMail[] = [];
  readonly labels: { id: string; name: string; type: string }[] = [
    { id: "INBOX", name: "INBOX", type: "system" },
    { id: "SENT", name: "SENT", type: "system" },
    { id: "TRASH", name: "TRASH", type: "system" },
    { id: "UNREAD", name: "UNREAD", type: "system" },
    { id: "STARRED", name: "STARRED", type: "system" },
    { id: "IMPORTANT", name: "IMPORTANT", type: "system" },
  ];
  /** Phones GoogleAccounts.markLost was called for. */
  readonly lost: string[] = [];
  /** Answer every Gmail request with this status instead (e.g. 500). */
  failWith: number | null = null;
  /** Refuse every Gmail request as Google does when the grant lacks the Gmail scope (403). */
  insufficientScope = false;
  /** Milliseconds every Gmail request waits before it is answered (a Google that hangs). */
  delayMs = 0;
  private readonly timers = new Set<NodeJS.Timeout>();
  private nextId = 1;
  private revoked = false;

  private constructor(
    private readonly server: Server,
    /** "http://127.0.0.1:<port>/": the Google APIs root URL. */
    readonly rootUrl: string,
  ) {}

  static async start(): Promise<FakeGmail> {
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    const fake = new FakeGmail(server, `http://127.0.0.1:${port}/`);
    server.on("request", (req, res) => fake.handle(req, res));
    return fake;
  }

  async close(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeAllConnections();
    await closed;
  }

  /** Puts a message in the inbox (unread unless said); returns it. */
  add(message: Partial<FakeMessage> & { from: string; subject: string }): FakeMessage {
    const id = message.id ?? `m${this.nextId++}`;
    const full: FakeMessage = {
      id,
      threadId: message.threadId ?? `t-${id}`,
      labelIds: message.labelIds ?? ["INBOX", "UNREAD"],
      to: message.to ?? [ME],
      cc: message.cc ?? [],
      date: message.date ?? Date.parse("2026-03-04T09:00:00Z"),
      messageId: message.messageId ?? `<${id}@mail.example.com>`,
      ...message,
    };
    if (full.text === undefined && full.html === undefined) full.text = "";
    this.messages.set(id, full);
    return full;
  }

  /** From now on the user's refresh token is refused (invalid_grant), as after they revoke access. */
  revoke(): void {
    this.revoked = true;
  }

  /** A GoogleAccounts for tests: connected, with a client whose requests go to this stand-in. */
  accounts(): GoogleAccounts {
    return {
      configured: true,
      apiRootUrl: this.rootUrl,
      status: () => Promise.resolve(this.revoked && this.lost.length > 0 ? "lost" : "connected"),
      clientFor: () => Promise.resolve(this.client()),
      markLost: (phone: string) => {
        this.lost.push(phone);
        return Promise.resolve(this.lost.length === 1);
      },
    };
  }

  /** An OAuth client as GoogleAccounts hands out: a valid token, or (revoked) one Google will refuse to refresh. */
  private client(): OAuth2Client {
    const client = new OAuth2Client({
      clientId: "test-client",
      clientSecret: "test-secret",
      endpoints: { oauth2TokenUrl: `${this.rootUrl}token` },
    });
    client.setCredentials(
      this.revoked
        ? { access_token: "expired", refresh_token: "revoked", expiry_date: 1 }
        : { access_token: "test" },
    );
    return client;
  }

  /** The requests that changed something (POSTs), as "METHOD path". */
  changes(): string[] {
    return this.requests.filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.path}`);
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", this.rootUrl);
      const text = Buffer.concat(chunks).toString("utf8");
      let body: unknown = text;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        // form-encoded (the token endpoint): kept as text
      }
      this.requests.push({
        method: req.method ?? "GET",
        path: url.pathname,
        query: url.searchParams,
        body,
        authorization: req.headers.authorization,
      });
      const answer = () => {
        try {
          this.route(req.method ?? "GET", url, body, req, res);
        } catch (error) {
          this.json(res, 500, { error: { code: 500, message: String(error) } });
        }
      };
      if (this.delayMs > 0 && url.pathname !== "/token") {
        const timer = setTimeout(() => {
          this.timers.delete(timer);
          answer();
        }, this.delayMs);
        this.timers.add(timer);
      } else answer();
    });
  }

  private route(method: string, url: URL, body: unknown, req: IncomingMessage, res: ServerResponse): void {
    if (url.pathname === "/token") {
      if (this.revoked) {
        this.json(res, 400, {
          error: "invalid_grant",
          error_description: "Token has been expired or revoked.",
        });
      } else {
        this.json(res, 200, { access_token: "test", expires_in: 3600, token_type: "Bearer" });
      }
      return;
    }
    const prefix = "/gmail/v1/users/me/";
    if (!url.pathname.startsWith(prefix))
      return this.json(res, 404, { error: { code: 404, message: "no route" } });
    if (req.headers.authorization !== "Bearer test") {
      return this.json(res, 401, {
        error: { code: 401, message: "Invalid Credentials", status: "UNAUTHENTICATED" },
      });
    }
    if (this.failWith)
      return this.json(res, this.failWith, { error: { code: this.failWith, message: "failed" } });
    if (this.insufficientScope) {
      // Google's answer when the user unticked Gmail at consent: the token lacks the scope.
      res.setHeader(
        "www-authenticate",
        'Bearer realm="https://accounts.google.com/", error="insufficient_scope", scope="https://www.googleapis.com/auth/gmail.modify"',
      );
      return this.json(res, 403, {
        error: {
          code: 403,
          message: "Request had insufficient authentication scopes.",
          errors: [
            { message: "Insufficient Permission", domain: "global", reason: "insufficientPermissions" },
          ],
          status: "PERMISSION_DENIED",
          details: [
            {
              "@type": "type.googleapis.com/google.rpc.ErrorInfo",
              reason: "ACCESS_TOKEN_SCOPE_INSUFFICIENT",
              domain: "googleapis.com",
              metadata: {
                service: "gmail.googleapis.com",
                method: "caribou.api.proto.MailboxService.ListMessages",
              },
            },
          ],
        },
      });
    }
    const path = url.pathname.slice(prefix.length).split("/");
    const data = (body ?? {}) as Record<string, unknown>;
    const [collection, id, action] = path;

    if (collection === "messages" && method === "GET" && !id) {
      const max = Number(url.searchParams.get("maxResults") ?? 100);
      const found = this.search(url.searchParams.get("q") ?? "").slice(0, max);
      return this.json(res, 200, {
        ...(found.length ? { messages: found.map((m) => ({ id: m.id, threadId: m.threadId })) } : {}),
        resultSizeEstimate: found.length,
      });
    }
    if (collection === "messages" && method === "POST" && id === "send") {
      const mail = this.decode(String(data.raw), (data.threadId as string | undefined) ?? null);
      this.sent.push(mail);
      const stored = this.store(mail, ["SENT"]);
      return this.json(res, 200, { id: stored.id, threadId: stored.threadId, labelIds: stored.labelIds });
    }
    if (collection === "messages" && method === "POST" && id === "batchModify") {
      for (const messageId of (data.ids as string[]) ?? []) {
        const message = this.messages.get(messageId);
        if (!message) return this.json(res, 404, { error: { code: 404, message: "Not Found" } });
        this.modify(message, (data.addLabelIds as string[]) ?? [], (data.removeLabelIds as string[]) ?? []);
      }
      res.writeHead(204).end();
      return;
    }
    if (collection === "messages" && id) {
      const message = this.messages.get(id);
      if (!message) return this.json(res, 404, { error: { code: 404, message: "Not Found" } });
      if (method === "POST" && action === "trash") {
        this.modify(message, ["TRASH"], ["INBOX"]);
        return this.json(res, 200, { id, threadId: message.threadId, labelIds: message.labelIds });
      }
      if (method === "GET")
        return this.json(res, 200, this.resource(message, url.searchParams.get("format")));
    }
    if (collection === "threads" && id && method === "GET") {
      const messages = [...this.messages.values()]
        .filter((m) => m.threadId === id)
        .sort((a, b) => a.date - b.date);
      if (messages.length === 0) return this.json(res, 404, { error: { code: 404, message: "Not Found" } });
      return this.json(res, 200, { id, messages: messages.map((m) => this.resource(m, "full")) });
    }
    if (collection === "drafts" && method === "POST") {
      const message = (data.message ?? {}) as Record<string, unknown>;
      const mail = this.decode(String(message.raw), (message.threadId as string | undefined) ?? null);
      this.drafts.push(mail);
      const stored = this.store(mail, ["DRAFT"]);
      return this.json(res, 200, {
        id: `d-${stored.id}`,
        message: { id: stored.id, threadId: stored.threadId },
      });
    }
    if (collection === "labels" && method === "GET") return this.json(res, 200, { labels: this.labels });
    if (collection === "labels" && method === "POST") {
      const label = { id: `Label_${this.labels.length}`, name: String(data.name), type: "user" };
      this.labels.push(label);
      return this.json(res, 200, label);
    }
    this.json(res, 404, { error: { code: 404, message: "no route" } });
  }

  /** Messages matching a query (AND of terms), newest first; trash left out unless asked for. */
  search(query: string): FakeMessage[] {
    const checks = terms(query).map((term) => {
      const colon = term.indexOf(":");
      const op = colon > 0 && !term.startsWith('"') ? term.slice(0, colon).toLowerCase() : "";
      const value = bare(op ? term.slice(colon + 1) : term);
      return (m: FakeMessage) => {
        const text = `${m.from} ${m.subject} ${m.text ?? ""} ${m.html ?? ""}`.toLowerCase();
        switch (op) {
          case "from":
            return m.from.toLowerCase().includes(value);
          case "to":
            return m.to.join(" ").toLowerCase().includes(value);
          case "subject":
            return value.split(/\s+/).every((w) => m.subject.toLowerCase().includes(w));
          case "is":
            return value === "unread" ? m.labelIds.includes("UNREAD") : true;
          case "in":
            return value === "anywhere" || m.labelIds.includes(value.toUpperCase());
          case "newer_than":
          case "older_than":
          case "has":
            return true;
          default:
            return value.split(/\s+/).every((w) => text.includes(w));
        }
      };
    });
    const wantsTrash = /in:(trash|anywhere)/i.test(query);
    return [...this.messages.values()]
      .filter((m) => wantsTrash || !m.labelIds.includes("TRASH"))
      .filter((m) => !m.labelIds.includes("DRAFT"))
      .filter((m) => checks.every((check) => check(m)))
      .sort((a, b) => b.date - a.date);
  }

  private modify(message: FakeMessage, add: string[], remove: string[]): void {
    message.labelIds = [...new Set([...message.labelIds.filter((l) => !remove.includes(l)), ...add])];
  }

  private decode(raw: string, threadId: string | null): DecodedMail {
    const mime = Buffer.from(raw, "base64url").toString("utf8");
    const { headers, body } = parseMime(mime);
    return {
      headers,
      to: headers.to ?? "",
      cc: headers.cc ?? "",
      subject: headers.subject ?? "",
      body,
      threadId,
      inReplyTo: headers["in-reply-to"] ?? "",
      references: headers.references ?? "",
      mime,
    };
  }

  private store(mail: DecodedMail, labelIds: string[]): FakeMessage {
    const id = `m${this.nextId++}`;
    return this.add({
      id,
      threadId: mail.threadId ?? `t-${id}`,
      labelIds,
      from: ME,
      to: mail.to.split(",").map((s) => s.trim()),
      subject: mail.subject,
      text: mail.body,
      date: Date.parse("2026-03-05T10:00:00Z") + this.nextId,
    });
  }

  /** The message as the Gmail API returns it. */
  private resource(m: FakeMessage, format: string | null): Record<string, unknown> {
    const headers = [
      { name: "From", value: m.from },
      { name: "To", value: m.to.join(", ") },
      ...(m.cc.length ? [{ name: "Cc", value: m.cc.join(", ") }] : []),
      { name: "Subject", value: m.rawSubject ?? m.subject },
      { name: "Date", value: new Date(m.date).toUTCString() },
      { name: "Message-ID", value: m.messageId },
      ...(m.references ? [{ name: "References", value: m.references }] : []),
      ...(m.replyTo ? [{ name: "Reply-To", value: m.replyTo }] : []),
    ];
    const snippet = (m.text ?? m.html ?? "").replace(/<[^>]+>/g, "").slice(0, 100);
    const base = {
      id: m.id,
      threadId: m.threadId,
      labelIds: m.labelIds,
      snippet,
      internalDate: String(m.date),
    };
    if (format === "metadata") return { ...base, payload: { mimeType: "multipart/alternative", headers } };
    const textPart =
      m.text !== undefined
        ? {
            mimeType: "text/plain",
            headers: [{ name: "Content-Type", value: 'text/plain; charset="UTF-8"' }],
            body: { size: m.text.length, data: b64url(m.text) },
          }
        : undefined;
    const htmlPart =
      m.html !== undefined
        ? {
            mimeType: "text/html",
            headers: [{ name: "Content-Type", value: 'text/html; charset="UTF-8"' }],
            body: { size: m.html.length, data: b64url(m.html) },
          }
        : undefined;
    const parts = [textPart, htmlPart].filter(Boolean);
    const payload =
      parts.length === 1
        ? { ...parts[0], headers: [...headers, ...(parts[0]!.headers ?? [])] }
        : { mimeType: "multipart/alternative", headers, body: { size: 0 }, parts };
    return { ...base, payload };
  }

  private json(res: ServerResponse, status: number, body: unknown): void {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  }
}
