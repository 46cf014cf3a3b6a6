import { createMetaExecutor, generalExecutor, textTemplate } from "./executors/GeneralExecutor.js";
import { CapabilityRegistry } from "./registry.js";
import { generalResolver } from "./resolvers/GeneralResolver.js";
import { metaResolver } from "./resolvers/MetaResolver.js";

/** A registry with the capabilities every Memo has: general conversation and meta. Others register on it. */
export function createCoreCapabilities(): CapabilityRegistry {
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
    executor: createMetaExecutor(() => registry.capabilities()),
    template: textTemplate,
  });
  return registry;
}
