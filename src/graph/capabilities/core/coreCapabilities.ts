import { ALL_IN_EVERY_TIER, tierIncludes, type PlanTiers } from "../../../config/planTiers.js";
import type { GoogleConnector } from "../../../services/google/types.js";
import type { UndoService } from "../../../services/undo/undoJournal.js";
import { createMetaExecutor, generalExecutor, textTemplate } from "./coreExecutors.js";
import { UndoEntityResolver } from "./undoEntityResolver.js";
import { CapabilityRegistry } from "../registry.js";
import { generalResolver } from "./generalResolver.js";
import { metaResolver } from "./metaResolver.js";

/** What the core capabilities are built with. */
export interface CoreCapabilityOptions {
  /** "connect Google" / "disconnect Google" in chat (default: none, Memo says Google is not set up). */
  google?: GoogleConnector;
  /** The user's private iCalendar feed link (default: none, Memo says it cannot make one). */
  calendarFeedLink?: (phone: string) => string;
  /** "undo" / "בטל": takes back the user's latest change (default: none, nothing to undo). */
  undo?: UndoService;
  /** Whether a language model is configured (default: true); without one, help lists the commands. */
  withModel?: boolean;
  /** What each tier includes (default: everything): help lists only what the user's tier has. */
  planTiers?: PlanTiers;
}

/** A registry with the capabilities every Memo has: general conversation and meta. Others register on it. */
export function createCoreCapabilities(options: CoreCapabilityOptions = {}): CapabilityRegistry {
  const registry = new CapabilityRegistry();
  registry.register({
    capability: "general",
    resolvers: [generalResolver],
    executor: generalExecutor,
    template: textTemplate,
  });
  registry.register({
    capability: "meta",
    resolvers: [metaResolver],
    executor: createMetaExecutor(
      (tier) =>
        registry.capabilities().filter((c) => tierIncludes(options.planTiers ?? ALL_IN_EVERY_TIER, tier, c)),
      options.google,
      options.calendarFeedLink,
      options.undo,
      options.withModel ?? true,
    ),
    // "undo" after other messages names the change and asks first.
    ...(options.undo ? { entityResolver: new UndoEntityResolver(options.undo) } : {}),
    template: textTemplate,
  });
  return registry;
}
