import type { OperationLedger } from "../../db/repositories/operationLedger.js";
import type { EntityResolution } from "../../types/capability.js";

/** Whether any of the operations is in the user's ledger: it happened, in an earlier run of this turn. */
async function alreadyDone(
  ledger: OperationLedger | undefined,
  phone: string,
  operationIds: readonly string[],
): Promise<boolean> {
  if (!ledger) return false;
  for (const id of operationIds) if ((await ledger.get(phone, id)) !== undefined) return true;
  return false;
}

/**
 * Resolves a step whose operation may already have happened (a turn re-run after a crash). The
 * ledger is read only when the resolution would not go straight on to the executor (a question,
 * nothing found, an error): a step already done then resolves to its args as they are, and the
 * executor reports its first outcome. A first run that resolves (most runs) reads no ledger here;
 * a re-run that resolves reaches the executor, which finds the ledger entry itself.
 */
export async function resolveUnlessDone(
  ledger: OperationLedger | undefined,
  phone: string,
  operationIds: readonly string[],
  args: Record<string, unknown>,
  resolve: () => Promise<EntityResolution>,
): Promise<EntityResolution> {
  let resolution: EntityResolution;
  try {
    resolution = await resolve();
  } catch (error) {
    if (await alreadyDone(ledger, phone, operationIds)) return { status: "resolved", args };
    throw error;
  }
  if (resolution.status === "resolved") return resolution;
  return (await alreadyDone(ledger, phone, operationIds)) ? { status: "resolved", args } : resolution;
}

/** A risky step's question, unless the step already happened (a re-run asks nothing again). */
export async function confirmUnlessDone(
  ledger: OperationLedger | undefined,
  phone: string,
  operationIds: readonly string[],
  question: () => Promise<string | null>,
): Promise<string | null> {
  const asked = await question();
  if (asked === null) return null;
  return (await alreadyDone(ledger, phone, operationIds)) ? null : asked;
}
