import { AsyncLocalStorageProviderSingleton } from "@langchain/core/singletons";
import type { RunnableConfig } from "@langchain/core/runnables";

/** Where @langchain/core keeps the running step's config in the async context (`getConfig()`, `interrupt()`). */
const CHILD_CONFIG = Symbol.for("lc:child_config");
/** Where it keeps context variables (`setContextVariable`), inherited by nested runs. */
const CONTEXT_VARIABLES = Symbol.for("lc:context_variables");

type RunWithConfig = typeof AsyncLocalStorageProviderSingleton.runWithConfig;

let installed = false;

/**
 * Stops LangGraph from building a LangSmith RunTree for every node, edge and channel write of a
 * turn when nothing traces it. @langchain/core's `runWithConfig` (which LangGraph calls around
 * each of them) constructs a `RunTree` with `tracingEnabled: false` only to carry the step's config
 * in the async context: a uuid7 (crypto random), a timestamp string and a dozen properties, about
 * 40 times a turn, for nothing. Here, when the config has no callbacks (no tracer: Memo passes its
 * LangSmith tracer as a callback when LANGSMITH_TRACING=true, and LangChain's own implicit tracing
 * is switched off at start-up) and no context variables are set, the context holds a plain object
 * with what is read from it (the config, and `tracingEnabled: false`, so callback managers still
 * see tracing off); otherwise the original runs. Idempotent; applies to every graph of the process.
 * Written against @langchain/core 1.4.0 (pinned); tests/graph/untracedRuns.test.ts and the HITL
 * suites (interrupt() reads the config from this context) fail if an upgrade changes the contract.
 */
export function skipUntracedRunTrees(): void {
  if (installed) return;
  installed = true;
  const provider = AsyncLocalStorageProviderSingleton;
  const original: RunWithConfig = provider.runWithConfig.bind(provider);
  const untraced: RunWithConfig = <T>(
    config: RunnableConfig | undefined,
    callback: () => T,
    avoidCreatingRootRunTree?: boolean,
  ): T => {
    const storage = provider.getInstance();
    const previous = storage.getStore() as Record<symbol, unknown> | undefined;
    // Context variables (setContextVariable) make core rebuild the store around them, which only a
    // RunTree survives with its config intact: that rare case keeps LangChain's own path.
    if (avoidCreatingRootRunTree || hasCallbacks(config) || previous?.[CONTEXT_VARIABLES] !== undefined)
      return original(config, callback, avoidCreatingRootRunTree);
    return storage.run({ tracingEnabled: false, extra: { [CHILD_CONFIG]: config } }, callback);
  };
  provider.runWithConfig = untraced;
}

function hasCallbacks(config: RunnableConfig | undefined): boolean {
  const callbacks = config?.callbacks;
  if (callbacks === undefined || callbacks === null) return false;
  return Array.isArray(callbacks) ? callbacks.length > 0 : true;
}
