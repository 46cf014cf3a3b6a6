import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/** The repository root. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** tsx's loader, by absolute URL so a child can run TypeScript from any working directory. */
const TSX_LOADER = pathToFileURL(path.join(ROOT, "node_modules/tsx/dist/loader.mjs")).href;

/** A port the OS just handed out and released. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/** A child process with its output collected and a way to await its exit. */
export interface ChildRun {
  readonly child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Exit code (or 128 + signal number when killed). */
  exited: Promise<number>;
  /** Resolves when stdout has printed a line matching `pattern`; rejects after `timeoutMs`. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<void>;
}

/**
 * Runs a TypeScript entry (relative to the repo) as a real process, in `cwd`, with exactly the
 * environment given plus PATH/HOME (so nothing of the developer's shell leaks in).
 */
export function runEntry(
  entry: string,
  options: { cwd: string; env?: Record<string, string>; args?: string[] },
): ChildRun {
  return runNode(["--import", TSX_LOADER, path.join(ROOT, entry), ...(options.args ?? [])], options);
}

/** Runs `node <args>` as in runEntry. */
export function runNode(
  args: string[],
  options: { cwd: string; env?: Record<string, string>; execPath?: string },
): ChildRun {
  const child = spawn(options.execPath ?? process.execPath, args, {
    cwd: options.cwd,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  const listeners: (() => void)[] = [];
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    out += chunk;
    listeners.forEach((l) => l());
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    err += chunk;
  });
  const exited = new Promise<number>((resolve) => {
    child.on("exit", (code, signal) => {
      listeners.forEach((l) => l());
      resolve(code ?? 128 + (signal === "SIGKILL" ? 9 : 15));
    });
  });
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    waitFor(pattern, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (pattern.test(out)) {
            clearTimeout(timer);
            resolve();
          } else if (child.exitCode !== null) {
            clearTimeout(timer);
            reject(new Error(`process exited (${child.exitCode}) before ${pattern}; stderr: ${err}`));
          }
        };
        const timer = setTimeout(
          () => reject(new Error(`timed out waiting for ${pattern}; stdout: ${out}; stderr: ${err}`)),
          timeoutMs,
        );
        listeners.push(check);
        check();
      });
    },
  };
}
