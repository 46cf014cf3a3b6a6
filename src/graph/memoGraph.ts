import {
  END,
  START,
  StateGraph,
  type BaseCheckpointSaver,
  type LangGraphRunnableConfig,
} from "@langchain/langgraph";
import type { MemoGraphDeps } from "./deps.js";
import { createCapabilityCheckNode } from "./nodes/capabilityCheckNode.js";
import { createContextAssemblyNode } from "./nodes/contextAssemblyNode.js";
import { createEntityResolutionNode, ENTITY_RESOLUTION_ENDS } from "./nodes/entityResolutionNode.js";
import { createExecutorNode } from "./nodes/executorNode.js";
import { createHITLGateNode, HITL_GATE_ENDS } from "./nodes/hitlGateNode.js";
import { instrument, type MemoNode } from "./nodes/instrument.js";
import { createJoinNode } from "./nodes/joinNode.js";
import { createMemoryUpdateNode } from "./nodes/memoryUpdateNode.js";
import { createPlannerNode } from "./nodes/plannerNode.js";
import { createReplyContextNode } from "./nodes/replyContextNode.js";
import { createResolverRouterNode, RESOLVER_ROUTER_ENDS } from "./nodes/resolverRouterNode.js";
import { createResponseFormatterNode } from "./nodes/responseFormatterNode.js";
import { createResponseWriterNode } from "./nodes/responseWriterNode.js";
import { MemoStateAnnotation } from "./state/memoState.js";
import { skipUntracedRunTrees } from "./untracedRuns.js";
import { type MemoState } from "../types/state.js";
import type { MemoUpdate } from "./state/memoState.js";
import { createTurnInputNode, runIdOf, TurnInputSchema, type TurnInput } from "./turnInput.js";

/** After the planner: on to the capability check, or straight to the writer when it already replied (no LLM, LLM failure). */
function routeAfterPlanner(state: MemoState): "capability_check" | "response_writer" {
  return state.finalResponse !== undefined ? "response_writer" : "capability_check";
}

/** After the capability check: to the HITL gate, or to the writer with the "connect Google" style message. */
function routeAfterCapabilityCheck(state: MemoState): "hitl_gate" | "response_writer" {
  return state.finalResponse !== undefined ? "response_writer" : "hitl_gate";
}

/** The graph's nodes by name. */
export type MemoNodes = Record<
  | "context_assembly"
  | "reply_context"
  | "planner"
  | "capability_check"
  | "hitl_gate"
  | "resolver_router"
  | "entity_resolution"
  | "executor"
  | "join"
  | "response_formatter"
  | "response_writer"
  | "memory_update",
  MemoNode
>;

/** Builds Memo's conversation graph (spec 002 §12.4) over the given services and checkpointer. */
export function buildMemoGraph(deps: MemoGraphDeps, checkpointer?: BaseCheckpointSaver) {
  return wireMemoGraph(memoNodes(deps), checkpointer);
}

/**
 * The same graph for the LangGraph dev server (LangGraph Studio): its input is one turn
 * (TurnInputSchema), mapped into the state by turn_input; the server brings the checkpointer.
 */
export function buildMemoTurnGraph(deps: MemoGraphDeps) {
  // Studio forks and answers questions long after they were asked: no question expires there.
  const nodes = memoNodes({ ...deps, questionsExpire: false });
  return wireMemoTurnGraph(runScoped(nodes), createTurnInputNode(deps));
}

/**
 * The dev server's nodes, each seeing the turn's trace id scoped to the run: operation ids (the
 * executor's idempotency ledger, the resolvers' "already done", a saved text) derive from the
 * trace id, and a fork in Studio keeps the checkpoint's. Scoped, a fork acts afresh on what was
 * edited instead of returning the original turn's recorded outcome. Steps a run before finished
 * stay in executionResults and are not run again.
 */
function runScoped(nodes: MemoNodes): MemoNodes {
  const scoped: Partial<MemoNodes> = {};
  for (const [name, node] of Object.entries(nodes) as [keyof MemoNodes, MemoNode][]) {
    scoped[name] = (state, config) => {
      const runId = runIdOf(config);
      const traceId = !runId || state.traceId === runId ? state.traceId : `${state.traceId}/${runId}`;
      return node({ ...state, traceId }, config);
    };
  }
  return scoped as MemoNodes;
}

/** The graph's nodes over the given services, each timed. */
function memoNodes(deps: MemoGraphDeps): MemoNodes {
  // No LangSmith run tree per node when the turn is not traced.
  skipUntracedRunTrees();
  const node = (name: string, fn: MemoNode) => instrument(name, fn, deps.clock);
  return {
    // Loads the user, stores the message in memory first, reads the window and builds the time context.
    context_assembly: node("context_assembly", createContextAssemblyNode(deps)),
    // Folds reply-to targets, numbered-list items and a recent image into the message.
    reply_context: node("reply_context", createReplyContextNode(deps)),
    // Turns the message into a plan with one structured LLM call.
    planner: node("planner", createPlannerNode(deps)),
    // Stops steps the user cannot run (no Google for Gmail, a capability not available).
    capability_check: node("capability_check", createCapabilityCheckNode(deps)),
    // The single HITL control plane: asks, validates the answer, and routes to where it returns.
    hitl_gate: node("hitl_gate", createHITLGateNode(deps)),
    // Resolves the next dependency group's steps in parallel, or finishes to join.
    resolver_router: node("resolver_router", createResolverRouterNode(deps)),
    // Turns semantic args into ids, asking when several entities match.
    entity_resolution: node("entity_resolution", createEntityResolutionNode(deps)),
    // Performs the group's operations, idempotently.
    executor: node("executor", createExecutorNode(deps)),
    // Notes complete or partial failure.
    join: node("join", createJoinNode()),
    // Local human times and response flags for the writer.
    response_formatter: node("response_formatter", createResponseFormatterNode()),
    // The final message: templates when they suffice, the LLM otherwise.
    response_writer: node("response_writer", createResponseWriterNode(deps)),
    // The reply and the latest actions join short-term memory.
    memory_update: node("memory_update", createMemoryUpdateNode(deps)),
  };
}

/** A StateGraph over Memo's state, as wireMemoNodes takes it. */
const memoStateGraph = () => new StateGraph(MemoStateAnnotation);

/**
 * Memo's wiring (its state, edges and routing) around the given nodes, from context_assembly on:
 * the one wiring of Memo's graph and of the dev server's (buildMemoTurnGraph).
 */
function wireMemoNodes(nodes: MemoNodes, builder: ReturnType<typeof memoStateGraph>) {
  return (
    builder
      .addNode("context_assembly", nodes.context_assembly)
      .addNode("reply_context", nodes.reply_context)
      .addNode("planner", nodes.planner)
      .addNode("capability_check", nodes.capability_check)
      .addNode("hitl_gate", nodes.hitl_gate, { ends: [...HITL_GATE_ENDS] })
      .addNode("resolver_router", nodes.resolver_router, { ends: [...RESOLVER_ROUTER_ENDS] })
      .addNode("entity_resolution", nodes.entity_resolution, { ends: [...ENTITY_RESOLUTION_ENDS] })
      .addNode("executor", nodes.executor)
      .addNode("join", nodes.join)
      .addNode("response_formatter", nodes.response_formatter)
      .addNode("response_writer", nodes.response_writer)
      .addNode("memory_update", nodes.memory_update)

      // Reply context reads the window context assembly loaded.
      .addEdge("context_assembly", "reply_context")
      // The planner plans on the enhanced message.
      .addEdge("reply_context", "planner")
      // No plan (no LLM, LLM failure) means a reply is already written.
      .addConditionalEdges("planner", routeAfterPlanner, ["capability_check", "response_writer"])
      // A blocked capability ends the turn with its message.
      .addConditionalEdges("capability_check", routeAfterCapabilityCheck, ["hitl_gate", "response_writer"])
      // Executing a group loops back to the router for the next group (bounded by the router's counter).
      .addEdge("executor", "resolver_router")
      // Results are formatted, then written.
      .addEdge("join", "response_formatter")
      .addEdge("response_formatter", "response_writer")
      // Whatever was written is remembered.
      .addEdge("response_writer", "memory_update")
      .addEdge("memory_update", END)
  );
}

/**
 * Memo's graph around the given nodes: `buildMemoGraph`'s, and the bench's empty shape
 * (bench/graphOverhead.ts), which must stay the same graph.
 */
export function wireMemoGraph(nodes: MemoNodes, checkpointer?: BaseCheckpointSaver) {
  return (
    wireMemoNodes(nodes, memoStateGraph())
      // Every turn starts by assembling context.
      .addEdge(START, "context_assembly")
      .compile(checkpointer ? { checkpointer } : {})
  );
}

/** The dev server's graph around the given nodes: a turn (TurnInputSchema) enters at turn_input. */
function wireMemoTurnGraph(
  nodes: MemoNodes,
  turnInput: (turn: TurnInput, config: LangGraphRunnableConfig) => Promise<MemoUpdate>,
) {
  // The input schema changes only what START accepts (and what Studio's form shows): the nodes,
  // edges and state are the same, so the builder is typed as Memo's own.
  const builder = new StateGraph(MemoStateAnnotation, { input: TurnInputSchema }) as unknown as ReturnType<
    typeof memoStateGraph
  >;
  return (
    wireMemoNodes(nodes, builder)
      // The turn becomes the state MemoRuntime starts a turn with, then the turn runs as ever.
      .addNode("turn_input", turnInput, { input: TurnInputSchema })
      .addEdge(START, "turn_input")
      .addEdge("turn_input", "context_assembly")
      .compile()
  );
}

export type MemoGraph = ReturnType<typeof buildMemoGraph>;
