// `npm start`: builds dist/ when it is missing or older than src/, then runs the service in this
// process (so SIGTERM reaches it directly). A fresh clone works with `npm install && npm start`.
import { spawnSync } from "node:child_process";
import { readdirSync, rmSync, statSync, existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
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
