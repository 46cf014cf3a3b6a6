// What a failing LLM call costs: paid requests and time, with the default retries left on.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { loadConfig } from "../../src/config/env.js";
import { createLLMService } from "../../src/services/llm/index.js";
import { LLMError } from "../../src/services/llm/llmError.js";
import { type LLMService } from "../../src/types/llm.js";
import { createLogger } from "../../src/utils/logger.js";
import { ScriptedOpenAI } from "../support/scriptedOpenAI.js";

const Answer = z.object({ intent: z.enum(["reminder", "note"]) });
const messages = [
  { role: "system" as const, content: "You classify." },
  { role: "user" as const, content: "remind me" },
];

let server: ScriptedOpenAI;
beforeEach(async () => {
  server = await ScriptedOpenAI.start();
});
afterEach(async () => server.close());

function service(env: Record<string, string> = {}): LLMService {
  return createLLMService(loadConfig({ OPENAI_BASE_URL: server.baseUrl, ...env }), createLogger("silent"))!;
}

async function failure(call: Promise<unknown>): Promise<LLMError> {
  const error = await call.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(LLMError);
  return error as LLMError;
}

describe("LLM calls that fail", () => {
  it("pay for an unusable answer once per model, not once per retry", async () => {
    server.on(() => true, { rawContent: "Sure! Dana at nine" });
    const error = await failure(service().structured("planner", Answer, messages));
    expect(error.kind).toBe("invalid_output");
    expect(server.requests.map((r) => r.body.model)).toEqual(["gpt-4o-mini", "gpt-4o"]);
  });

  it("do not fall back to the model that just failed", async () => {
    server.on(() => true, { status: 500 });
    const error = await failure(
      service({ LLM_PLANNER_MODEL: "gpt-4o", LLM_FALLBACK_MODEL: "gpt-4o", LLM_MAX_RETRIES: "0" }).structured(
        "planner",
        Answer,
        messages,
      ),
    );
    expect(error.kind).toBe("api_error");
    expect(server.requests).toHaveLength(1);
  });

  it("do not fall back after a bad request, which would only repeat", async () => {
    server.on(() => true, { status: 400 });
    await failure(service().structured("planner", Answer, messages));
    expect(server.requests).toHaveLength(1);
  });

  it("stop within twice LLM_TIMEOUT_MS in all, retries and fallback included", async () => {
    server.on(() => true, { hang: true });
    const started = Date.now();
    const error = await failure(service({ LLM_TIMEOUT_MS: "300" }).text("responseWriter", messages));
    expect(error.kind).toBe("timeout");
    expect(Date.now() - started).toBeLessThan(1500);
  });
});
