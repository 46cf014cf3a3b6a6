import type {
  CapabilityModule,
  RecognizeContext,
  RecognizedStep,
  EntityResolver,
  Executor,
  ExternalRestorer,
  Resolver,
  ResponseTemplate,
} from "../../types/capability.js";
import type { CapabilityName, PlanStep } from "../../types/index.js";

/** The capabilities the graph can use; new ones register here, with no edits to the graph wiring. */
export class CapabilityRegistry {
  private readonly modules = new Map<CapabilityName, CapabilityModule>();

  register(module: CapabilityModule): this {
    if (this.modules.has(module.capability)) {
      throw new Error(`Capability ${module.capability} is registered twice`);
    }
    this.modules.set(module.capability, module);
    return this;
  }

  /** Puts `module` in place of the registered one of its capability (test doubles, alternatives). */
  replace(module: CapabilityModule): this {
    this.modules.set(module.capability, module);
    return this;
  }

  has(capability: CapabilityName): boolean {
    return this.modules.has(capability);
  }

  /** The capabilities registered, in registration order. */
  capabilities(): CapabilityName[] {
    return [...this.modules.keys()];
  }

  /** The resolver for a step: one listing its action, else one taking every action of its capability. */
  resolverFor(step: PlanStep): Resolver | undefined {
    const resolvers = this.modules.get(step.capability)?.resolvers ?? [];
    return (
      resolvers.find((r) => r.actions.includes(step.action) || r.handles?.(step.action)) ??
      resolvers.find((r) => r.actions.length === 0)
    );
  }

  executorFor(capability: CapabilityName): Executor | undefined {
    return this.modules.get(capability)?.executor;
  }

  entityResolverFor(capability: CapabilityName): EntityResolver | undefined {
    return this.modules.get(capability)?.entityResolver;
  }

  /** Whether the capability confirms risky changes itself (see CapabilityModule.confirmsInCode). */
  confirmsInCode(capability: CapabilityName): boolean {
    return this.modules.get(capability)?.confirmsInCode ?? false;
  }

  templateFor(capability: CapabilityName): ResponseTemplate | undefined {
    return this.modules.get(capability)?.template;
  }

  undoExternalFor(capability: CapabilityName): ExternalRestorer | undefined {
    return this.modules.get(capability)?.undoExternal;
  }

  /** The first capability that reads `message` as its own in code (`CapabilityModule.recognize`), with its step. */
  async recognize(
    message: string,
    context: RecognizeContext,
  ): Promise<{ capability: CapabilityName; step: RecognizedStep } | null> {
    for (const module of this.modules.values()) {
      const step = await module.recognize?.(message, context);
      if (step) return { capability: module.capability, step };
    }
    return null;
  }
}
