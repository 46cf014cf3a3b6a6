import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { randomUUID } from "node:crypto";
import { gunzipSync } from "node:zlib";
import { overrideFetchImplementation } from "langsmith";

/**
 * A stand-in for LangSmith's ingest API on 127.0.0.1, for tests: the real `langsmith` client posts
 * to it (`LANGSMITH_ENDPOINT=server.url`) and it records every run, merged from its create and its
 * updates, plus every request body as received (to search for what must never leave the process).
 *
 * Endpoints the client uses: GET /info (batching settings), POST /runs/multipart (the default),
 * POST /runs/batch (the JSON fallback), POST /runs and PATCH /runs/:id (without auto-batching).
 * For datasets and experiments (`evaluate`), it also keeps datasets (GET/POST /datasets), their
 * examples (POST /v1/platform/datasets/:id/examples, GET /examples), experiments (GET/POST
 * /sessions, PATCH /sessions/:id) and feedback (POST /feedback, or `feedback.<id>` multipart parts).
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
  reference_example_id?: string;
  [key: string]: unknown;
}

/** A dataset as LangSmith returns it. */
export interface RecordedDataset {
  id: string;
  name: string;
  description: string | null;
  example_count: number;
  created_at: string;
  modified_at: string;
  extra?: { metadata?: Record<string, unknown> };
  tenant_id: string;
}

/** An example of a dataset. */
export interface RecordedExample {
  id: string;
  dataset_id: string;
  inputs: Record<string, unknown>;
  outputs?: Record<string, unknown>;
  metadata?: Record<string, unknown>;
  created_at: string;
  modified_at: string;
}

/** A tracing project or experiment ("session"). */
export interface RecordedSession {
  id: string;
  name: string;
  reference_dataset_id?: string | null;
  extra?: { metadata?: Record<string, unknown> };
  tenant_id: string;
  start_time: string;
  [key: string]: unknown;
}

/** One piece of feedback (an evaluator's score of a run). */
export interface RecordedFeedback {
  id: string;
  run_id?: string | null;
  key: string;
  score?: number | boolean | null;
  session_id?: string | null;
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

const TENANT = "00000000-0000-4000-8000-000000000001";

export class FakeLangSmith {
  /** Every ingest request (not /info), in order of arrival. */
  readonly requests: IngestRequest[] = [];
  private readonly runs = new Map<string, RecordedRun>();
  /** Datasets, examples, experiments and feedback, by id (feedback in order of arrival). */
  readonly datasets = new Map<string, RecordedDataset>();
  readonly examples = new Map<string, RecordedExample>();
  readonly sessions = new Map<string, RecordedSession>();
  readonly feedback: RecordedFeedback[] = [];
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
    this.datasets.clear();
    this.examples.clear();
    this.sessions.clear();
    this.feedback.length = 0;
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
          instance_flags: { dataset_examples_multipart_enabled: true },
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
        if (method === "GET") {
          this.read(res, path, new URLSearchParams((req.url ?? "").split("?")[1] ?? ""));
          return;
        }
        const datasetExamples = /^\/v1\/platform\/datasets\/([^/]+)\/examples$/.exec(path);
        if (method === "POST" && path === "/runs/multipart") {
          this.ingestMultipart(raw, req.headers["content-type"] ?? "");
        } else if (method === "POST" && path === "/datasets") {
          const created = this.createDataset(JSON.parse(raw.toString("utf8")) as Json);
          send(res, created ? 200 : 409, created ?? { detail: "Dataset already exists" });
          return;
        } else if (method === "POST" && datasetExamples) {
          const ids = this.addExamples(datasetExamples[1]!, raw, req.headers["content-type"] ?? "");
          send(res, 201, { example_ids: ids, count: ids.length });
          return;
        } else if (method === "POST" && path === "/sessions") {
          send(res, 200, this.createSession(JSON.parse(raw.toString("utf8")) as Json));
          return;
        } else if (method === "PATCH" && path.startsWith("/sessions/")) {
          const session = this.sessions.get(path.slice("/sessions/".length));
          if (!session) {
            send(res, 404, { detail: "Session not found" });
            return;
          }
          // The client sends every field, null for those it does not change.
          const changes = Object.entries(JSON.parse(raw.toString("utf8")) as Json);
          Object.assign(
            session,
            Object.fromEntries(changes.filter(([, v]) => v !== null && v !== undefined)),
          );
          send(res, 200, session);
          return;
        } else if (method === "POST" && path === "/feedback") {
          const feedback = JSON.parse(raw.toString("utf8")) as RecordedFeedback;
          this.feedback.push(feedback);
          send(res, 200, feedback);
          return;
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

  /** GET: datasets, examples, experiments, by id or as pages. */
  private read(res: ServerResponse, path: string, query: URLSearchParams): void {
    const page = <T>(items: T[]) => {
      const offset = Number(query.get("offset") ?? 0);
      const limit = Number(query.get("limit") ?? 100);
      send(res, 200, items.slice(offset, offset + limit));
    };
    const byId = <T>(map: Map<string, T>, prefix: string) => {
      const found = map.get(path.slice(prefix.length));
      send(res, found ? 200 : 404, found ?? { detail: `${prefix} not found` });
    };
    if (path === "/datasets") {
      const name = query.get("name");
      page([...this.datasets.values()].filter((d) => name === null || d.name === name));
    } else if (path.startsWith("/datasets/")) {
      byId(this.datasets, "/datasets/");
    } else if (path === "/examples") {
      const dataset = query.get("dataset");
      page([...this.examples.values()].filter((e) => dataset === null || e.dataset_id === dataset));
    } else if (path.startsWith("/examples/")) {
      byId(this.examples, "/examples/");
    } else if (path === "/sessions") {
      const name = query.get("name");
      page([...this.sessions.values()].filter((s) => name === null || s.name === name));
    } else if (path.startsWith("/sessions/")) {
      byId(this.sessions, "/sessions/");
    } else {
      send(res, 404, { detail: `FakeLangSmith: no route GET ${path}` });
    }
  }

  /** A new dataset, or null when one of its name exists (LangSmith answers 409). */
  private createDataset(body: Json): RecordedDataset | null {
    const name = String(body.name);
    if ([...this.datasets.values()].some((d) => d.name === name)) return null;
    const now = new Date().toISOString();
    const extra = body.extra as RecordedDataset["extra"];
    const dataset: RecordedDataset = {
      id: randomUUID(),
      name,
      description: typeof body.description === "string" ? body.description : null,
      example_count: 0,
      created_at: now,
      modified_at: now,
      ...(extra ? { extra } : {}),
      tenant_id: TENANT,
    };
    this.datasets.set(dataset.id, dataset);
    return dataset;
  }

  /** Examples as the multipart upload sends them: `<id>` (created_at, metadata), `<id>.inputs`, `<id>.outputs`. */
  private addExamples(datasetId: string, body: Buffer, contentType: string): string[] {
    const dataset = this.datasets.get(datasetId);
    if (!dataset) throw new Error(`no dataset ${datasetId}`);
    const parts = new Map<string, Json>();
    for (const { name, value } of parseMultipart(body, contentType)) {
      const [id, field] = name.split(".");
      if (!id) continue;
      const example = parts.get(id) ?? {};
      const parsed = JSON.parse(value.toString("utf8")) as Json;
      if (field) example[field] = parsed;
      else Object.assign(example, parsed);
      parts.set(id, example);
    }
    const now = new Date().toISOString();
    for (const [id, example] of parts) {
      this.examples.set(id, {
        id,
        dataset_id: datasetId,
        inputs: (example.inputs as Json | undefined) ?? {},
        ...(example.outputs ? { outputs: example.outputs as Json } : {}),
        ...(example.metadata ? { metadata: example.metadata as Json } : {}),
        created_at: typeof example.created_at === "string" ? example.created_at : now,
        modified_at: now,
      });
    }
    dataset.example_count += parts.size;
    dataset.modified_at = now;
    return [...parts.keys()];
  }

  private createSession(body: Json): RecordedSession {
    const session: RecordedSession = {
      ...body,
      id: randomUUID(),
      name: String(body.name),
      tenant_id: TENANT,
      start_time: new Date().toISOString(),
    };
    this.sessions.set(session.id, session);
    return session;
  }

  /**
   * Parts are named `post.<id>` / `patch.<id>` (the run), `post.<id>.<field>` (inputs, outputs,
   * extra…) and `feedback.<id>` (a score of a run).
   */
  private ingestMultipart(body: Buffer, contentType: string): void {
    const grouped = new Map<string, Json>();
    for (const { name, value } of parseMultipart(body, contentType)) {
      const [kind, id, field] = name.split(".");
      if (kind === "feedback" && id) {
        this.feedback.push(JSON.parse(value.toString("utf8")) as RecordedFeedback);
        continue;
      }
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
