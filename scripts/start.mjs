// `npm start`: builds dist/ when it is missing or older than src/, then runs the service in this
// process (so SIGTERM reaches it directly). A fresh clone works with `npm install && npm start`.
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, rmSync, statSync, existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

// The oldest Node that Memo runs on is package.json's `engines` (">=22.12"); 24 LTS is what it is
// built and tested on. An older Node stops here with one sentence, before anything else fails.
const engines = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")).engines.node;
const [needMajor, needMinor] = /(\d+)\.(\d+)/.exec(engines).slice(1).map(Number);
const [major, minor] = process.versions.node.split(".").map(Number);
if (major < needMajor || (major === needMajor && minor < needMinor)) {
  process.stderr.write(
    `memo: Memo needs Node.js ${needMajor}.${needMinor} or newer (24 LTS recommended; on Linux x64, ` +
      `\`. scripts/useNode.sh\` installs it from the npm registry), and this is Node.js ${process.versions.node}.\n`,
  );
  process.exit(1);
}
const entry = path.join(root, "dist", "index.js");

/** Newest modification time of the files under `dir` (0 when it does not exist). */
function newest(dir) {
  if (!existsSync(dir)) return 0;
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(full) : statSync(full).mtimeMs);
  }
  return latest;
}

const sources = Math.max(
  newest(path.join(root, "src")),
  statSync(path.join(root, "tsconfig.build.json")).mtimeMs,
);
if (!existsSync(entry) || newest(path.join(root, "dist")) < sources) {
  process.stderr.write("memo: building dist/ ...\n");
  // Output of deleted sources must not linger.
  rmSync(path.join(root, "dist"), { recursive: true, force: true });
  const tsc = path.join(root, "node_modules", "typescript", "bin", "tsc");
  const build = spawnSync(process.execPath, [tsc, "-p", path.join(root, "tsconfig.build.json")], {
    stdio: "inherit",
  });
  if (build.status !== 0) {
    process.stderr.write("memo: build failed\n");
    process.exit(build.status ?? 1);
  }
}

await import(pathToFileURL(entry).href);
