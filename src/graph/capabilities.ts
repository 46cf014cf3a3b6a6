import type { GoogleConnector } from "../services/google/types.js";
import { createMetaExecutor, generalExecutor, textTemplate } from "./executors/GeneralExecutor.js";
import { CapabilityRegistry } from "./registry.js";
import { generalResolver } from "./resolvers/GeneralResolver.js";
import { metaResolver } from "./resolvers/MetaResolver.js";

/** What the core capabilities are built with. */
export interface CoreCapabilityOptions {
  /** "connect Google" / "disconnect Google" in chat (default: none, Memo says Google is not set up). */
  google?: GoogleConnector;
  /** The user's private iCalendar feed link (default: none, Memo says it cannot make one). */
  calendarFeedLink?: (phone: string) => string;
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
    executor: createMetaExecutor(() => registry.capabilities(), options.google, options.calendarFeedLink),
    template: textTemplate,
  });
  return registry;
}
