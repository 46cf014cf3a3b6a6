// `http_client`: the CPU one small JSON exchange costs through Node's own `fetch` and through
// `bufferedFetch` (src/utils/bufferedFetch.ts), which carries Memo's calls to OpenAI and the Graph
// API. The answer comes from a server in another process, so only the client's CPU is counted; the
// two clients take turns in rounds so both see the same machine. `ratio` is fetch's CPU over
// bufferedFetch's: the reason bufferedFetch exists (about 2 on Node 20, about 1.5 on Node 24).
import { spawn } from "node:child_process";
import { once } from "node:events";
import { bufferedFetch } from "../src/utils/bufferedFetch.js";
import { round } from "./measure.js";
import { median } from "./stats.js";

const ROUNDS = 7;
const PER_ROUND = 400;

// A chat-completions-sized answer to a chat-completions-sized request, over keep-alive.
const SERVER = `
const http = require("node:http");
const body = JSON.stringify({ id: "x", object: "chat.completion", choices: [{ index: 0, message: { role: "assistant", content: "y".repeat(600) } }], usage: { prompt_tokens: 900, completion_tokens: 150 } });
const server = http.createServer((req, res) => { req.resume(); req.on("end", () => { res.setHeader("content-type", "application/json"); res.end(body); }); });
server.keepAliveTimeout = 60000;
server.listen(0, "127.0.0.1", () => process.stdout.write(String(server.address().port) + "\\n"));
`;

async function startServer(): Promise<{ url: string; stop: () => void }> {
  const child = spawn(process.execPath, ["-e", SERVER], { stdio: ["ignore", "pipe", "inherit"] });
  const [chunk] = (await once(child.stdout, "data")) as [Buffer];
  return {
    url: `http://127.0.0.1:${chunk.toString().trim()}/v1/chat/completions`,
    stop: () => child.kill(),
  };
}

/** Client CPU µs per exchange over `count` sequential requests. */
async function cpuPerRequest(client: typeof fetch, url: string, count: number): Promise<number> {
  const payload = JSON.stringify({ model: "m", messages: [{ role: "user", content: "z".repeat(3000) }] });
  const start = process.cpuUsage();
  for (let i = 0; i < count; i++) {
    const response = await client(url, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer key" },
      body: payload,
      signal: AbortSignal.timeout(30_000),
    });
    await response.json();
  }
  const used = process.cpuUsage(start);
  return (used.user + used.system) / count;
}

export async function httpClient(): Promise<Record<string, unknown>> {
  const server = await startServer();
  try {
    const fetchUs: number[] = [];
    const bufferedUs: number[] = [];
    await cpuPerRequest(fetch, server.url, PER_ROUND);
    await cpuPerRequest(bufferedFetch, server.url, PER_ROUND);
    for (let i = 0; i < ROUNDS; i++) {
      fetchUs.push(await cpuPerRequest(fetch, server.url, PER_ROUND));
      bufferedUs.push(await cpuPerRequest(bufferedFetch, server.url, PER_ROUND));
    }
    const fetchMedian = median(fetchUs);
    const bufferedMedian = median(bufferedUs);
    return {
      bench: "http_client",
      node: process.versions.node,
      requests: ROUNDS * PER_ROUND,
      fetch_cpu_us: round(fetchMedian),
      buffered_fetch_cpu_us: round(bufferedMedian),
      ratio: round(fetchMedian / bufferedMedian),
    };
  } finally {
    server.stop();
  }
}
