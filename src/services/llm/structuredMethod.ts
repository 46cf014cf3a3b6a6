import type { LLMModelConfig, StructuredOutputMethod } from "../../config/llmConfig.js";

/** The `method` names of @langchain/openai's withStructuredOutput. */
export type LangChainStructuredMethod = "jsonSchema" | "functionCalling" | "jsonMode";

/** Our LLM_STRUCTURED_OUTPUT_METHOD values, spelled as @langchain/openai 1.6 expects them. */
const LANGCHAIN_METHOD: Record<StructuredOutputMethod, LangChainStructuredMethod> = {
  jsonSchema: "jsonSchema",
  functionCalling: "functionCalling",
  jsonMode: "jsonMode",
};

/** The method to use with this model: the configured one, unless the model cannot do it. */
export function structuredMethodFor(
  model: LLMModelConfig,
  configured: StructuredOutputMethod,
): LangChainStructuredMethod {
  const method = LANGCHAIN_METHOD[configured];
  // o1-mini and o1-preview take neither tools nor a json_schema format: the schema goes in the
  // prompt (JSON mode), and the answer is checked against it all the same.
  if (/^o1-(mini|preview)/.test(model.model)) return "jsonMode";
  // @langchain/openai refuses json_schema for gpt-3.5 and pre-4o gpt-4 models; they all call functions.
  if (method === "jsonSchema" && /^(gpt-3|gpt-4-|gpt-4$)/.test(model.model)) return "functionCalling";
  // o1 takes no tools, but does take a json_schema response format.
  if (method === "functionCalling" && model.functionFormat === "none") return "jsonSchema";
  return method;
}
