import { RESPONSE_WRITER_SYSTEM_PROMPT } from "../../prompts/responseWriterPrompt.js";
import { replyLanguage } from "../../utils/language.js";
import { t } from "../../messages/index.js";
import type { MemoGraphDeps } from "../deps.js";
import { userTextOf } from "../errorText.js";
import { llmUsageUpdate } from "../state/metadata.js";
import type { MemoUpdate } from "../state/memoState.js";
import type { MemoState } from "../../types/state.js";

/**
 * response_writer: the final message. A reply already decided upstream (blocked capability,
 * cancellation, error) stands. Results every capability can put in words by template are
 * joined with no LLM call; otherwise the LLM writes from the formatted results, and without an
 * LLM the failures are still explained (spec 002 §10.2).
 */
export function createResponseWriterNode(deps: MemoGraphDeps) {
  return async (state: MemoState): Promise<MemoUpdate> => {
    if (state.finalResponse !== undefined) return {};
    const language = replyLanguage(state.user.language);
    const results = state.formattedResponse;
    if (results.length === 0) return { finalResponse: t(language, "internalError") };

    const templated = results.map((r) =>
      r.success
        ? (deps.capabilities.templateFor(r.agent)?.(r, language) ?? null)
        : (r.error ?? t(language, "internalError")),
    );
    if (templated.every((text): text is string => text !== null)) {
      const failures = results.filter((r) => !r.success);
      const text =
        failures.length > 0 && failures.length < results.length
          ? `${templated.filter((_, i) => results[i]!.success).join("\n\n")}\n\n${t(
              language,
              "partialFailure",
              {
                errors: failures.map((f) => f.error ?? f.operation).join("; "),
              },
            )}`
          : templated.join("\n\n");
      return { finalResponse: text };
    }

    if (!deps.llm) {
      return { finalResponse: templated.map((text, i) => text ?? results[i]!.operation).join("\n\n") };
    }
    try {
      const payload = results.map((r) => ({
        capability: r.agent,
        operation: r.operation,
        success: r.success,
        error: r.error,
        data: r.formattedData,
        context: r.context,
      }));
      const { value, usage } = await deps.llm.text("responseWriter", [
        { role: "system", content: RESPONSE_WRITER_SYSTEM_PROMPT },
        {
          role: "user",
          content: `Language: ${language}\n${state.now.formatted}\nUser's message: ${state.input.message}\n\nResults:\n${JSON.stringify(payload, null, 1)}`,
        },
      ]);
      return { finalResponse: value.trim(), metadata: llmUsageUpdate(usage) };
    } catch (error) {
      deps.logger.error(
        { err: error, node: "response_writer", traceId: state.traceId },
        "response writer failed",
      );
      return { finalResponse: userTextOf(error, language, { unexplained: "llmFailed" }) };
    }
  };
}
