import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** Runs `node --import tsx scripts/when.ts <args>` (what `npm run when` runs) with `input` on stdin. */
function when(args: string[], input = ""): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/when.ts", ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", TZ: "UTC" },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

const NOW = ["--tz", "Asia/Jerusalem", "--now", "2026-03-11T08:00:00Z"];

describe("npm run when", () => {
  it("prints one JSON object and exits 0", async () => {
    const run = await when([...NOW, "remind me tomorrow at 9am to call mom"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      '{"kind":"instant","at":"2026-03-12T07:00:00.000Z","local":"2026-03-12T09:00","timeZone":"Asia/Jerusalem","text":"call mom"}\n',
    );
  });

  it("prints {error} and exits 1 for a text with no time, or a bad zone", async () => {
    const [noTime, badZone] = await Promise.all([
      when([...NOW, "buy 2 milk"]),
      when(["--tz", "Mars/Olympus", "tomorrow"]),
    ]);
    expect(noTime.code).toBe(1);
    expect(JSON.parse(noTime.stdout)).toEqual({ error: "no time found in the text" });
    expect(badZone.code).toBe(1);
    expect(JSON.parse(badZone.stdout)).toEqual({ error: 'unknown time zone: "Mars/Olympus"' });
  });

  it("answers --batch lines in order, an error line for a bad one, and goes on", async () => {
    const lines = [
      { text: "every Monday and Wednesday at 18:00 gym", tz: "Asia/Jerusalem", now: "2026-03-11T08:00:00Z" },
      "this is not json",
      { text: "buy 2 milk", tz: "America/New_York", now: "2026-03-07T15:00:00Z" },
      { text: "נדנד אותי כל 15 דקות לשתות מים", tz: "Asia/Kolkata", now: "2026-06-15T04:30:00Z" },
    ];
    const input = lines.map((l) => (typeof l === "string" ? l : JSON.stringify(l))).join("\n") + "\n";
    const run = await when(["--batch"], input);
    expect(run.code).toBe(0);
    expect(
      run.stdout
        .trimEnd()
        .split("\n")
        .map((l) => JSON.parse(l) as unknown),
    ).toEqual([
      {
        kind: "recurring",
        recurrence: { type: "weekly", time: "18:00", days: [1, 3] },
        firstAt: "2026-03-11T16:00:00.000Z",
        timeZone: "Asia/Jerusalem",
        text: "gym",
      },
      { error: "not a JSON line" },
      { error: "no time found in the text" },
      {
        kind: "recurring",
        recurrence: { type: "nudge", interval: "15 minutes" },
        firstAt: "2026-06-15T04:45:00.000Z",
        timeZone: "Asia/Kolkata",
        text: "לשתות מים",
      },
    ]);
  });
});
