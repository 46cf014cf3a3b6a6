import { execFile } from "node:child_process";
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT } from "../support/process.js";

/**
 * `npm run lint` ends with knip (knip.jsonc, docs/OPERATIONS.md "Lint"): these run its command,
 * with the repository's knip.jsonc, on a two-file project laid out like Memo's and check what fails
 * it. (The real repository is the lint's own run; a small project keeps this to seconds.)
 */
interface PackageJson {
  scripts: Record<string, string>;
}

const made: string[] = [];
afterAll(async () => {
  await Promise.all(made.map((dir) => rm(dir, { recursive: true, force: true })));
});

/** src/index.ts calls greeting(); tests/greeting.test.ts imports greeting and a test seam. */
const BASE: Record<string, string> = {
  "src/index.ts": 'import { greeting } from "./greeting.js";\n\nconsole.log(greeting("Dana"));\n',
  "src/greeting.ts": [
    "/** Longest name a greeting shows (exported for tests). @internal */",
    "export const NAME_LIMIT = 40;",
    "",
    "export function greeting(name: string): string {",
    "  return `Hello, ${name.slice(0, NAME_LIMIT)}`;",
    "}",
    "",
  ].join("\n"),
  "tests/greeting.test.ts":
    'import { greeting, NAME_LIMIT } from "../src/greeting.js";\n\nconsole.log(greeting("x".repeat(NAME_LIMIT)));\n',
};

/** Runs `npm run lint:exports`'s command in a copy of BASE with `extra` appended to files. */
async function lintExports(extra: Record<string, string> = {}): Promise<{ code: number; output: string }> {
  const dir = await mkdtemp(path.join(tmpdir(), "memo-knip-"));
  made.push(dir);
  const files: Record<string, string> = {
    ...BASE,
    "package.json": '{ "name": "fixture", "private": true, "type": "module" }\n',
  };
  for (const [file, text] of Object.entries(extra)) files[file] = (files[file] ?? "") + text;
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), text);
  }
  await cp(path.join(ROOT, "knip.jsonc"), path.join(dir, "knip.jsonc"));
  const pkg = JSON.parse(await readFile(path.join(ROOT, "package.json"), "utf8")) as PackageJson;
  const command = pkg.scripts["lint:exports"]!;
  return new Promise((resolve) => {
    execFile(
      "sh",
      ["-c", command],
      {
        cwd: dir,
        env: { PATH: `${path.join(ROOT, "node_modules/.bin")}:${process.env.PATH}`, NO_COLOR: "1" },
      },
      (error, stdout, stderr) => {
        resolve({ code: error ? Number(error.code ?? 1) : 0, output: stdout + stderr });
      },
    );
  });
}

describe.concurrent("npm run lint's unused-export check", () => {
  it("runs after eslint", async () => {
    const pkg = JSON.parse(await readFile(path.join(ROOT, "package.json"), "utf8")) as PackageJson;
    expect(pkg.scripts.lint).toBe("eslint . && npm run lint:exports");
    expect(pkg.scripts["lint:exports"]).toMatch(/^knip /);
  });

  it("passes a project whose every export is imported (an @internal one by a test)", async () => {
    const { code, output } = await lintExports();
    expect(output).not.toMatch(/Unused/);
    expect(code).toBe(0);
  }, 60_000);

  it("fails on an export nothing imports, naming it", async () => {
    const { code, output } = await lintExports({ "src/greeting.ts": 'export const farewell = "Bye";\n' });
    expect(code).not.toBe(0);
    expect(output).toMatch(/Unused exports[\s\S]*farewell/);
  }, 60_000);

  it("fails on an export only a test imports unless it is marked @internal", async () => {
    const shout =
      "export function shout(name: string): string {\n  return greeting(name).toUpperCase();\n}\n";
    const test = 'import { shout } from "../src/greeting.js";\n\nconsole.log(shout("Dana"));\n';
    const untagged = await lintExports({ "src/greeting.ts": shout, "tests/greeting.test.ts": test });
    expect(untagged.code).not.toBe(0);
    expect(untagged.output).toMatch(/Unused exports[\s\S]*shout/);

    const tagged = await lintExports({
      "src/greeting.ts": `/** Greeting, loud (exported for tests). @internal */\n${shout}`,
      "tests/greeting.test.ts": test,
    });
    expect(tagged.output).not.toMatch(/Unused/);
    expect(tagged.code).toBe(0);
  }, 60_000);

  it("fails on an @internal export that no test imports either", async () => {
    const { code, output } = await lintExports({
      "src/greeting.ts": "/** @internal */\nexport const OLD_LIMIT = 20;\n",
    });
    expect(code).not.toBe(0);
    expect(output).toMatch(/Unused exports[\s\S]*OLD_LIMIT/);
  }, 60_000);
});
