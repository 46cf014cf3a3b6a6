import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { signBody } from "../src/transport/whatsapp/signature.js";
import { freePort, runEntry, type ChildRun } from "../tests/support/process.js";
import { round } from "./measure.js";
import { NO_POSTGRES, postgresDatabase } from "./postgres.js";

const SECRET = "bench-app-secret";
/** Seconds of load per series, after a warm-up. */
const DURATION_S = 8;
const WARMUP_S = 2;
const CONNECTIONS = 16;
/** About one request in ten redelivers an earlier message id. */
const DUPLICATE_SHARE = 0.1;

/** A Graph API that accepts everything at once (the worker's replies go nowhere slow). */
async function sinkGraphApi(): Promise<{ url: string; close: () => Promise<void> }> {
  let n = 0;
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ messages: [{ id: `wamid.BENCH${++n}` }], success: true }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Signed webhook bodies with unique message ids from many phones, ~10% of them redeliveries. */
function bodies(): () => { raw: Buffer; signature: string } {
  const sent: string[] = [];
  let i = 0;
  return () => {
    i += 1;
    const duplicate = sent.length > 0 && Math.random() < DUPLICATE_SHARE;
    const id = duplicate
      ? sent[Math.floor(Math.random() * sent.length)]!
      : `wamid.B${i}-${randomBytes(4).toString("hex")}`;
    if (!duplicate && sent.length < 10_000) sent.push(id);
    const phone = `9725${String(i % 5000).padStart(8, "0")}`;
    const raw = Buffer.from(
      JSON.stringify({
        object: "whatsapp_business_account",
        entry: [
          {
            id: "WABA",
            changes: [
              {
                field: "messages",
                value: {
                  messaging_product: "whatsapp",
                  metadata: { display_phone_number: "15550001111", phone_number_id: "1234" },
                  contacts: [{ profile: { name: "Bench" }, wa_id: phone }],
                  messages: [
                    {
                      from: phone,
                      id,
                      timestamp: String(Math.floor(Date.now() / 1000)),
                      type: "text",
                      text: { body: "what can you do?" },
                    },
                  ],
                },
              },
            ],
          },
        ],
      }),
    );
    return { raw, signature: signBody(raw, SECRET) };
  };
}

async function load(url: string, seconds: number): Promise<autocannon.Result> {
  const next = bodies();
  return autocannon({
    url,
    connections: CONNECTIONS,
    duration: seconds,
    requests: [
      {
        method: "POST",
        path: "/webhook/whatsapp",
        setupRequest: (req) => {
          const { raw, signature } = next();
          return {
            ...req,
            body: raw,
            headers: { "content-type": "application/json", "x-hub-signature-256": signature },
          };
        },
      },
    ],
  });
}

async function started(run: ChildRun, pattern: RegExp): Promise<void> {
  await run.waitFor(pattern, 60_000);
}

/** Waits until the service answers /readyz (its logs are quiet at LOG_LEVEL=warn). */
export async function healthy(url: string, run: ChildRun): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (run.child.exitCode !== null) throw new Error(`service exited: ${run.stderr()}`);
    const ok = await fetch(`${url}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`service did not become ready: ${run.stderr()}`);
}

/** Runs the real service (built from the sources) against `env`, with the worker on and replies sunk. */
async function measureApp(databaseUrl: string | undefined, graphUrl: string, worker: boolean) {
  const cwd = await mkdtemp(path.join(tmpdir(), "memo-bench-"));
  const port = await freePort();
  const run = runEntry("src/index.ts", {
    cwd,
    env: {
      PORT: String(port),
      HOST: "127.0.0.1",
      LOG_LEVEL: "warn",
      DATA_DIR: path.join(cwd, "data"),
      WHATSAPP_APP_SECRET: SECRET,
      WHATSAPP_ACCESS_TOKEN: "bench",
      WHATSAPP_PHONE_NUMBER_ID: "1234",
      WHATSAPP_GRAPH_URL: graphUrl,
      ...(worker ? {} : { INBOX_WORKER: "off" }),
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    },
  });
  try {
    const url = `http://127.0.0.1:${port}`;
    await healthy(url, run);
    await load(url, WARMUP_S);
    return await load(url, DURATION_S);
  } finally {
    run.child.kill("SIGKILL");
    await run.exited;
    await rm(cwd, { recursive: true, force: true });
  }
}

async function measureBare(): Promise<autocannon.Result> {
  const port = await freePort();
  const run = runEntry("bench/bareServer.ts", { cwd: process.cwd(), env: { PORT: String(port) } });
  try {
    await started(run, /bare listening/);
    const url = `http://127.0.0.1:${port}`;
    await load(url, WARMUP_S);
    return await load(url, DURATION_S);
  } finally {
    run.child.kill("SIGTERM");
    await run.exited;
  }
}

function summary(
  backend: string,
  worker: boolean,
  app: autocannon.Result,
  bare: autocannon.Result,
): Record<string, unknown> {
  return {
    bench: "webhook_ack",
    backend,
    worker: worker ? "on" : "off",
    p50_ms: app.latency.p50,
    p99_ms: app.latency.p99,
    rps: round(app.requests.average),
    baseline_rps: round(bare.requests.average),
    ratio: round(app.requests.average / bare.requests.average),
    requests: app.requests.total,
    failed: app.non2xx + app.errors + app.timeouts,
  };
}

/**
 * Webhook acknowledgement under load: signed POSTs with unique message ids (about 10%
 * redeliveries) from 5000 phones against the real service as its own process, on PGlite and on
 * the machine's Postgres, each beside a bare Express endpoint measured just before it. The
 * headline runs a webhook-only instance on Postgres (INBOX_WORKER=off): the acknowledgement path
 * itself. The other runs keep the worker on (PGlite has no other configuration), so turns (no LLM:
 * they answer at once, replies go to a Graph API sink) compete for the same two cores, as on a
 * single-instance deployment.
 */
export async function webhookAck(): Promise<Record<string, unknown>[]> {
  const sink = await sinkGraphApi();
  const out: Record<string, unknown>[] = [];
  try {
    // PGlite belongs to one process, so its only configuration is with the worker on.
    out.push(summary("pglite", true, await measureApp(undefined, sink.url, true), await measureBare()));
    const database = await postgresDatabase();
    if (!database) {
      out.push({
        bench: "webhook_ack",
        backend: "postgres",
        skipped: NO_POSTGRES,
      });
      return out;
    }
    try {
      for (const worker of [false, true]) {
        const bare = await measureBare();
        out.push(summary("postgres", worker, await measureApp(database.url, sink.url, worker), bare));
      }
    } finally {
      await database.drop();
    }
  } finally {
    await sink.close();
  }
  return out;
}
