import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * docs/ARCHITECTURE.md, "Where the spec's names live": every node, resolver, executor, service,
 * state field, type and constant that specs 000–003 name (the list in specNames.json, with the
 * documents that name each) has a row, and every file a row names exists and holds the symbols named
 * beside it.
 */

const ROOT = resolve(import.meta.dirname, "../..");
const SECTION = "### Where the spec's names live";

interface SpecName {
  name: string;
  kind: string;
  specs: string[];
}

/** The table each kind of name is listed in. */
const HEADING_OF: Record<string, string> = {
  node: "Nodes",
  "resolver or executor": "Resolvers and executors",
  service: "Services",
  "prompt or model setting": "Prompts and model configuration",
  "state field": "State fields",
  type: "Types",
  constant: "Constants",
  table: "Tables",
  module: "The module map (002 §11)",
  rule: "Rules the spec states in words",
};

/**
 * Files other work of issue 34 is adding: their rows may name them before they exist. Once one
 * exists, drop it from here (and check its row).
 */
const PENDING = new Set<string>([]);

interface Row {
  heading: string;
  names: string;
  spec: string;
  here: string;
}

function rowsOf(markdown: string): Row[] {
  const start = markdown.indexOf(SECTION);
  if (start < 0) return [];
  const end = markdown.indexOf("\n## ", start);
  const rows: Row[] = [];
  let heading = "";
  for (const line of markdown.slice(start, end < 0 ? undefined : end).split("\n")) {
    const h = /^#### (.+)$/.exec(line);
    if (h) heading = h[1]!.trim();
    if (!line.startsWith("|") || /^\|\s*-/.test(line)) continue;
    const [names = "", spec = "", here = ""] = line
      .slice(1, -1)
      .split("|")
      .map((c) => c.trim());
    if (names === "spec name") continue;
    rows.push({ heading, names, spec, here });
  }
  return rows;
}

const sources = new Map<string, string>();
const sourceOf = (path: string) => {
  if (!sources.has(path)) sources.set(path, readFileSync(path, "utf8"));
  return sources.get(path)!;
};

const ticked = (text: string) => [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);

/** Whether a row's first cell lists this name: in backticks, or a phrase as written. */
function lists(cell: string, name: string): boolean {
  return ticked(cell).includes(name) || (name.includes(" ") && !cell.includes("`") && cell.includes(name));
}

/** What is wrong with the section, one sentence each (none: it is complete and true). */
function problemsOf(markdown: string, names: readonly SpecName[], root: string): string[] {
  const problems: string[] = [];
  const rows = rowsOf(markdown);
  if (rows.length === 0) return [`no "${SECTION}" table`];
  const byName = new Map(names.map((n) => [n.name, n]));

  for (const n of names) {
    const found = rows.filter((r) => lists(r.names, n.name));
    if (found.length !== 1) problems.push(`${n.name}: ${found.length} rows, expected 1`);
    else if (found[0]!.heading !== HEADING_OF[n.kind])
      problems.push(`${n.name}: under "${found[0]!.heading}", expected "${HEADING_OF[n.kind]}"`);
  }

  for (const row of rows) {
    const rowNames = names.filter((n) => lists(row.names, n.name));
    for (const token of ticked(row.names))
      if (!byName.has(token)) problems.push(`${token}: a row names it, specNames.json does not`);
    if (rowNames.length === 0) problems.push(`row "${row.names}" lists no name of specNames.json`);
    const specs = [...new Set(rowNames.flatMap((n) => n.specs))].sort().join(", ");
    if (row.spec !== specs)
      problems.push(`${row.names}: spec column "${row.spec}", the list says "${specs}"`);

    const paths = ticked(row.here).filter((t) => /^(src|tests|docs|scripts)\//.test(t) && !/[<*…]/.test(t));
    if (paths.length === 0 && !/^not built\b/.test(row.here))
      problems.push(`${row.names}: names no file and does not say "not built"`);
    for (const path of paths) {
      const exists = existsSync(resolve(root, path));
      if (PENDING.has(path)) {
        if (exists) problems.push(`${path} exists now: drop it from PENDING and check its row`);
      } else if (!exists) problems.push(`${path} (row ${row.names}) does not exist`);
    }
    // "`file` (`symbol`, …)": each symbol must be in that file.
    for (const m of row.here.matchAll(/`((?:src|tests|scripts)\/[^`]+\.ts)` \(([^()]*)\)/g)) {
      const path = m[1]!;
      if (PENDING.has(path) || !existsSync(resolve(root, path))) continue;
      const source = sourceOf(resolve(root, path));
      for (const symbol of ticked(m[2]!).filter((s) => /^[A-Za-z_$][\w$]*$/.test(s)))
        if (!new RegExp(`\\b${symbol.replace("$", "\\$")}\\b`).test(source))
          problems.push(`${path} has no ${symbol} (row ${row.names})`);
    }
  }
  return problems;
}

const names = JSON.parse(readFileSync(resolve(import.meta.dirname, "specNames.json"), "utf8")) as SpecName[];
const architecture = readFileSync(resolve(ROOT, "docs/ARCHITECTURE.md"), "utf8");

describe("docs/ARCHITECTURE.md: where the spec's names live", () => {
  it("the list holds distinct names, each from specs 000–003, each of a kind with a table", () => {
    expect(names.length).toBeGreaterThan(250);
    expect(new Set(names.map((n) => n.name)).size).toBe(names.length);
    for (const n of names) {
      expect(n.specs.length, n.name).toBeGreaterThan(0);
      for (const spec of n.specs) expect(["000", "001", "002", "003"], n.name).toContain(spec);
      expect(Object.keys(HEADING_OF), n.name).toContain(n.kind);
    }
  });

  it("has one row for every name, and every file a row names exists with its symbols", () => {
    expect(problemsOf(architecture, names, ROOT)).toEqual([]);
  });

  it("names what went wrong when a row is lost, a file moves or a symbol is renamed", () => {
    const lost = architecture.replace(/^\| `MAX_RECENT_TASKS` .*\n/m, "");
    expect(problemsOf(lost, names, ROOT)).toContain("MAX_RECENT_TASKS: 0 rows, expected 1");

    const moved = architecture.replace("`src/graph/nodes/joinNode.ts`", "`src/graph/nodes/join.ts`");
    expect(problemsOf(moved, names, ROOT)).toContain(
      "src/graph/nodes/join.ts (row `JoinNode` · `join`) does not exist",
    );

    const renamed = architecture.replace("(`HITL_TTL_MS`)", "(`HITL_TIMEOUT_MS`)");
    expect(problemsOf(renamed, names, ROOT)).toContain(
      "src/types/hitl.ts has no HITL_TIMEOUT_MS (row `HITL_TTL_MS` · `INTERRUPT_TIMEOUT_MS`)",
    );

    const unlisted = architecture.replace("| `CHARS_PER_TOKEN` ", "| `CHARS_PER_TOKEN` · `TOKENS_PER_CHAR` ");
    expect(problemsOf(unlisted, names, ROOT)).toContain(
      "TOKENS_PER_CHAR: a row names it, specNames.json does not",
    );

    const wrongSpec = architecture.replace(/^(\| `NudgeNode`\s+\|) 002/m, "$1 001");
    expect(problemsOf(wrongSpec, names, ROOT).some((p) => p.startsWith("`NudgeNode`: spec column"))).toBe(
      true,
    );
  });
});
