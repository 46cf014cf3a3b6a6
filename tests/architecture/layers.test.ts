import { readFile } from "node:fs/promises";
import path from "node:path";
import { ESLint } from "eslint";
import ts from "typescript";
import { beforeAll, describe, expect, it } from "vitest";

/**
 * `npm run lint` keeps src/ layered (eslint.config.js, docs/ARCHITECTURE.md): these lint real
 * files with one import added and check that the layering and cycle rules refuse it.
 */
const root = path.resolve(import.meta.dirname, "../..");
let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: root });
});

/** The rules that fire when `file` (a path under src/) also imports `specifier`. */
async function rulesBrokenBy(file: string, specifier: string): Promise<string[]> {
  const filePath = path.join(root, file);
  const text = `${await readFile(filePath, "utf8")}\nexport * as added from "${specifier}";\n`;
  const [result] = await eslint.lintText(text, { filePath });
  return (result?.messages ?? []).map((m) => m.ruleId ?? m.message);
}

describe("the layers of src/", () => {
  it("refuses an import from a layer above: a service importing the graph", async () => {
    expect(await rulesBrokenBy("src/services/metrics/metrics.ts", "../../graph/memoRuntime.js")).toContain(
      "import-x/no-restricted-paths",
    );
  }, 60_000);

  it("refuses any project import in src/types, and transport importing the composition root", async () => {
    expect(await rulesBrokenBy("src/types/plan.ts", "../utils/phone.js")).toContain(
      "import-x/no-restricted-paths",
    );
    expect(
      await rulesBrokenBy("src/transport/whatsapp/inboxWorker.ts", "../../app/createMemoRuntime.js"),
    ).toContain("import-x/no-restricted-paths");
  }, 60_000);

  it("refuses an import cycle, even inside one layer", async () => {
    // recurrence.ts imports recurrenceRule.ts; the reverse closes a cycle.
    expect(await rulesBrokenBy("src/nlu/recurrenceRule.ts", "./recurrence.js")).toContain(
      "import-x/no-cycle",
    );
  }, 60_000);

  it("accepts an import from a layer below", async () => {
    expect(await rulesBrokenBy("src/graph/memoRuntime.ts", "../services/memory/limits.js")).toEqual([]);
  }, 60_000);
});

describe("the folders of src/services", () => {
  it("never import each other both ways (a job's interface lives where it is run, a shared constant in config)", async () => {
    const services = path.join(root, "src/services");
    const { readdir } = await import("node:fs/promises");
    /** `from -> to` for every import from one service folder into another. */
    const edges = new Set<string>();
    for (const entry of await readdir(services, { recursive: true })) {
      if (!entry.endsWith(".ts")) continue;
      const from = entry.split(path.sep)[0]!;
      const file = path.join(services, entry);
      // Every import, export-from and import() of the file, type-only ones included.
      for (const { fileName } of ts.preProcessFile(await readFile(file, "utf8"), true, true).importedFiles) {
        if (!fileName.startsWith(".")) continue;
        const target = path.relative(services, path.resolve(path.dirname(file), fileName));
        const to = target.split(path.sep)[0]!;
        if (!target.startsWith("..") && to !== from) edges.add(`${from} -> ${to}`);
      }
    }
    const ties = [...edges]
      .map((edge) => edge.split(" -> ") as [string, string])
      .filter(([from, to]) => from < to && edges.has(`${to} -> ${from}`))
      .map(([from, to]) => `${from} <-> ${to}`);
    expect(ties).toEqual([]);
  });
});

describe("file names", () => {
  it("are camelCase, folders too (migrations keep their numbered names, npm's lock file its own)", async () => {
    const { readdir } = await import("node:fs/promises");
    const offending: string[] = [];
    for (const top of ["src", "tests", "scripts", "bench"]) {
      for (const entry of await readdir(path.join(root, top), { recursive: true })) {
        if (entry.startsWith(path.join("db", "migrations") + path.sep)) continue;
        for (const part of entry.split(path.sep)) {
          if (part === "package-lock.json") continue;
          // A name, then dot-separated suffixes (".test.ts", ".conformance.test.ts", ".jsonl").
          if (!/^[a-z][A-Za-z0-9]*(\.[a-z][A-Za-z0-9]*)*$/.test(part)) offending.push(`${top}/${entry}`);
        }
      }
    }
    expect(offending).toEqual([]);
  });
});
