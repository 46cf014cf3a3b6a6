import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";
import { overrideFetchImplementation } from "langsmith";

/**
 * A stand-in for LangSmith's ingest API on 127.0.0.1, for tests: the real `langsmith` client posts
 * to it (`LANGSMITH_ENDPOINT=server.url`) and it records every run, merged from its create and its
 * updates, plus every request body as received (to search for what must never leave the process).
 *
 * Endpoints the client uses: GET /info (batching settings), POST /runs/multipart (the default),
 * POST /runs/batch (the JSON fallback), POST /runs and PATCH /runs/:id (without auto-batching).
 *
 *   const langsmith = await FakeLangSmith.start();
 *   ... LANGSMITH_ENDPOINT: langsmith.url ...
 *   await langsmith.waitFor((runs) => runs.some((r) => r.name === "memo-turn" && r.end_time));
 *   langsmith.roots(), langsmith.childrenOf(rootId), langsmith.bodies
 */

/** A run as LangSmith stores it: the create's fields with every update's laid over them. */
export interface RecordedRun {
  id: string;
  name?: string;
  run_type?: string;
  parent_run_id?: string | null;
  trace_id?: string;
  dotted_order?: string;
  start_time?: string | number;
  end_time?: string | number;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
  extra?: { metadata?: Record<string, unknown>; [key: string]: unknown };
  tags?: string[];
  error?: string | null;
  session_name?: string;
  [key: string]: unknown;
}

/** One ingest request as it arrived. */
export interface IngestRequest {
  method: string;
  path: string;
  /** The body, decompressed, as text. */
  body: string;
  /** The x-api-key header. */
  apiKey: string | undefined;
  at: number;
}

type Json = Record<string, unknown>;

export class FakeLangSmith {
  /** Every ingest request (not /info), in order of arrival. */
  readonly requests: IngestRequest[] = [];
  private readonly runs = new Map<string, RecordedRun>();
  private readonly listeners = new Set<() => void>();

  private constructor(
    private readonly server: Server,
    /** "http://127.0.0.1:<port>", the LANGSMITH_ENDPOINT. */
    readonly url: string,
  ) {}

  /** Listens on a free port of 127.0.0.1. */
  static async start(): Promise<FakeLangSmith> {
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    const fake = new FakeLangSmith(server, `http://127.0.0.1:${port}`);
    server.on("request", (req, res) => fake.handle(req, res));
    return fake;
  }

  /**
   * Lets every LangSmith client of this process (LangChain's own ones too) reach 127.0.0.1 only:
   * any other address is refused and listed in `blocked`, so no test can reach the real service.
   */
  static guardNetwork(): { blocked: string[]; restore: () => void } {
    const blocked: string[] = [];
    overrideFetchImplementation((async (input: string | URL | Request, init?: RequestInit) => {
      const url = input instanceof Request ? input.url : String(input);
      if (!url.startsWith("http://127.0.0.1:")) {
        blocked.push(url);
        throw new Error(`FakeLangSmith: refused ${url}`);
      }
      return fetch(input, init);
    }) as typeof fetch);
    return {
      blocked,
      // The key overrideFetchImplementation sets; without it the clients use the global fetch.
      restore: () =>
        void delete (globalThis as Record<symbol, unknown>)[Symbol.for("ls:fetch_implementation")],
    };
  }

  /** Every run recorded, in order of first sight. */
  all(): RecordedRun[] {
    return [...this.runs.values()];
  }

  /** Runs without a parent: one per trace. */
  roots(): RecordedRun[] {
    return this.all().filter((run) => !run.parent_run_id);
  }

  /** The direct children of a run, in start order. */
  childrenOf(id: string): RecordedRun[] {
    return this.all()
      .filter((run) => run.parent_run_id === id)
      .sort((a, b) => String(a.dotted_order).localeCompare(String(b.dotted_order)));
  }

  /** Every run of the trace `traceId` (the root's id). */
  traceOf(traceId: string): RecordedRun[] {
    return this.all().filter((run) => run.trace_id === traceId);
  }

  /** Every ingest body received, joined: what left the process, to search for what must not have. */
  bodies(): string {
    return this.requests.map((r) => r.body).join("\n");
  }

  /** Resolves once `done(runs)` holds; rejects after `timeoutMs` with what was recorded. */
  waitFor(done: (runs: RecordedRun[]) => boolean, timeoutMs = 10_000): Promise<void> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (!done(this.all())) return;
        clearTimeout(timer);
        this.listeners.delete(check);
        resolve();
      };
      const timer = setTimeout(() => {
        this.listeners.delete(check);
        reject(
          new Error(
            `FakeLangSmith: timed out; runs: ${this.all()
              .map((r) => r.name)
              .join(", ")}`,
          ),
        );
      }, timeoutMs);
      this.listeners.add(check);
      check();
    });
  }

  /** Forgets everything recorded. */
  reset(): void {
    this.runs.clear();
    this.requests.length = 0;
  }

  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeAllConnections();
    await closed;
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const path = (req.url ?? "/").split("?")[0] ?? "/";
      const method = req.method ?? "GET";
      if (method === "GET" && path === "/info") {
        // Plain multipart, never compressed: bodies stay readable for the tests.
        send(res, 200, {
          version: "0.10.0",
          batch_ingest_config: {
            use_multipart_endpoint: true,
            size_limit: 100,
            size_limit_bytes: 20_971_520,
          },
          instance_flags: {},
        });
        return;
      }
      let raw = Buffer.concat(chunks);
      if (req.headers["content-encoding"] === "gzip") raw = gunzipSync(raw);
      const apiKey = req.headers["x-api-key"];
      this.requests.push({
        method,
        path,
        body: raw.toString("utf8"),
        apiKey: typeof apiKey === "string" ? apiKey : undefined,
        at: Date.now(),
      });
      try {
        if (method === "POST" && path === "/runs/multipart") {
          this.ingestMultipart(raw, req.headers["content-type"] ?? "");
        } else if (method === "POST" && path === "/runs/batch") {
          const body = JSON.parse(raw.toString("utf8")) as { post?: Json[]; patch?: Json[] };
          for (const run of body.post ?? []) this.merge(run);
          for (const run of body.patch ?? []) this.merge(run);
        } else if (method === "POST" && path === "/runs") {
          this.merge(JSON.parse(raw.toString("utf8")) as Json);
        } else if (method === "PATCH" && path.startsWith("/runs/")) {
          this.merge({ ...(JSON.parse(raw.toString("utf8")) as Json), id: path.slice("/runs/".length) });
        } else {
          send(res, 404, { detail: `FakeLangSmith: no route ${method} ${path}` });
          return;
        }
      } catch (error) {
        send(res, 400, { detail: String(error) });
        return;
      }
      send(res, 202, {});
      for (const listener of [...this.listeners]) listener();
    });
  }

  /** Parts are named `post.<id>` / `patch.<id>` (the run) and `post.<id>.<field>` (inputs, outputs, extra…). */
  private ingestMultipart(body: Buffer, contentType: string): void {
    const grouped = new Map<string, Json>();
    for (const { name, value } of parseMultipart(body, contentType)) {
      const [kind, id, field] = name.split(".");
      if ((kind !== "post" && kind !== "patch") || !id) continue;
      const key = `${kind}.${id}`;
      const run = grouped.get(key) ?? { id };
      const parsed = JSON.parse(value.toString("utf8")) as unknown;
      if (field) run[field] = parsed;
      else Object.assign(run, parsed);
      grouped.set(key, run);
    }
    // Creates before updates, as LangSmith applies them.
    for (const [key, run] of grouped) if (key.startsWith("post.")) this.merge(run);
    for (const [key, run] of grouped) if (key.startsWith("patch.")) this.merge(run);
  }

  private merge(update: Json): void {
    const id = String(update.id);
    const current = this.runs.get(id) ?? { id };
    const defined = Object.fromEntries(Object.entries(update).filter(([, v]) => v !== undefined));
    this.runs.set(id, { ...current, ...defined });
  }
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

function parseMultipart(body: Buffer, contentType: string): { name: string; value: Buffer }[] {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
  if (!boundary) throw new Error("multipart body without a boundary");
  const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
  const parts: { name: string; value: Buffer }[] = [];
  let start = body.indexOf(delimiter);
  while (start >= 0) {
    const next = body.indexOf(delimiter, start + delimiter.length);
    if (next < 0) break;
    const part = body.subarray(start + delimiter.length + 2, next - 2);
    const split = part.indexOf("\r\n\r\n");
    const name = /name="([^"]*)"/i.exec(part.subarray(0, split).toString("utf8"))?.[1];
    if (name !== undefined) parts.push({ name, value: part.subarray(split + 4) });
    start = next;
  }
  return parts;
}
