import { checkOperation, type Contract, type OperationOf } from "../../contracts/contract.js";
import { t } from "../../messages/index.js";
import type { CapabilityContext, Executor, ExecutorOutcome } from "../../types/capability.js";
import type { PlanStep } from "../../types/index.js";

/** What an executor over a contract is handed: one operation of the contract, typed. */
export interface TypedExecutor<C extends Contract> {
  name: string;
  execute(
    operation: OperationOf<C>,
    context: CapabilityContext & { operationId: string; step: PlanStep },
  ): Promise<ExecutorOutcome>;
}

/**
 * The one place a capability's types are erased (issue 33): the registry hands every executor a
 * function name and `Record<string, unknown>` arguments; this checks them against the contract's
 * schema of that operation before the typed executor runs. A step whose arguments do not satisfy
 * its contract is a defect of ours, not the user's: logged with its context, it fails with the
 * generic failure text, and nothing runs.
 */
export function typedExecutor<C extends Contract>(contract: C, executor: TypedExecutor<C>): Executor {
  return {
    name: executor.name,
    capability: contract.capability,
    execute(functionName, args, context) {
      const checked = checkOperation(contract, functionName, args);
      if (checked.success) return executor.execute(checked.operation, context);
      context.logger.error(
        {
          event: "INVALID_OPERATION",
          node: "executor",
          capability: contract.capability,
          executor: executor.name,
          functionName,
          stepId: context.step.id,
          operationId: context.operationId,
          traceId: context.state.traceId,
          issues: checked.issues,
        },
        "operation does not satisfy its contract",
      );
      return Promise.resolve({
        success: false,
        errorCode: "INVALID_OPERATION",
        error: t(context.language, "internalError"),
      });
    },
  };
}
