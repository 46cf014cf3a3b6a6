import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import { freePort, ROOT } from "./process.js";
import { seedPgliteDataDir } from "./pgliteDataDir.js";

/** The LangGraph CLI as `npx @langchain/langgraph-cli` runs it (a devDependency). */
const CLI = path.join(ROOT, "node_modules/@langchain/langgraph-cli/dist/cli/cli.mjs");

/** The dev server's graph, as Memo's langgraph.json names it. */
const GRAPH = path.join(ROOT, "src/app/studioGraph.ts");

/** Whether the CLI is installed (`npm ci` installs it; a production install does not); when not, say so once. */
export const devServerInstalled = existsSync(CLI);
if (!devServerInstalled)
  console.warn(`LangGraph dev server tests skipped: no ${CLI} (npm ci installs the devDependencies)`);

export interface DevServer {
  url: string;
  client: Client;
  /** The scratch DATA_DIR (the dev server's database is in its studio/ folder). */
  dataDir: string;
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts `langgraphjs dev` on Memo's langgraph.json (copied into a scratch folder, so the server's
 * own `.langgraph_api` files stay out of the repository) on a free port, offline: no browser, no
 * analytics, no LangSmith, no model; its database a seeded scratch DATA_DIR.
 */
export async function startDevServer(env: Record<string, string> = {}): Promise<DevServer> {
  const dataDir = await mkdtemp(path.join(tmpdir(), "memo-studio-"));
  await mkdir(path.join(dataDir, "studio"), { recursive: true });
  await seedPgliteDataDir(path.join(dataDir, "studio"));
  const config = path.join(dataDir, "langgraph.json");
  await writeFile(
    config,
    // The CLI reads a graph's path relative to its configuration's folder.
    JSON.stringify({ node_version: "24", graphs: { memo: `${path.relative(dataDir, GRAPH)}:makeGraph` } }),
  );
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const args = ["dev", "--port", String(port), "--host", "127.0.0.1", "--no-browser", "--no-reload"];
  // The Studio link it prints is never fetched; given, the CLI asks no LangSmith client for it.
  args.push("--config", config, "--studio-url", "http://127.0.0.1:9");
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: dataDir,
    // Its own process group: stop() ends the CLI and the server it spawned, and nothing else.
    detached: true,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      DATA_DIR: dataDir,
      LANGGRAPH_CLI_NO_ANALYTICS: "1",
      LANGSMITH_TRACING: "false",
      BROWSER: "none",
      LOG_LEVEL: "warn",
      TZ: "UTC",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  const stop = async () => {
    if (child.exitCode === null && child.pid) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      process.kill(-child.pid, "SIGTERM");
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 3000))]);
      if (child.exitCode === null) process.kill(-child.pid, "SIGKILL");
    }
    await rm(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 40_000;
  for (;;) {
    const ok = await fetch(`${url}/ok`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`the dev server did not start:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { url, client: new Client({ apiUrl: url }), dataDir, output: () => output, stop };
}
