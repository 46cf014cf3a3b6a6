import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { startService, type RunningService, type StartOptions } from "../../src/app/server.js";
import { loadConfig } from "../../src/config/env.js";
import { captureLogs } from "./logs.js";
import { freePort } from "./process.js";

/** A service started in this process, and how to stop it. */
export interface LocalService {
  service: RunningService;
  /** Shuts the service down and removes its data folder. */
  stop(): Promise<void>;
}

/**
 * Memo as a developer runs it locally (the simulator on, the embedded database), started in this
 * process on a free port with its data in a new temporary folder named after `name`. `env` adds
 * settings; `options` the start's test seams (default: logs captured, not printed).
 */
export async function startLocalService(
  name: string,
  env: Record<string, string> = {},
  options: Partial<StartOptions> = {},
): Promise<LocalService> {
  const dir = await mkdtemp(path.join(tmpdir(), `memo-${name}-`));
  try {
    const config = loadConfig({
      NODE_ENV: "test",
      PORT: String(await freePort()),
      HOST: "127.0.0.1",
      DATA_DIR: dir,
      ...env,
    });
    const service = await startService(config, { logger: captureLogs().logger, ...options });
    return {
      service,
      async stop() {
        await service.shutdown("test over");
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}
