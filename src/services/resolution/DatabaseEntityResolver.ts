import type { DisambiguationState, PlanStep, ResolverResult } from "../../types/index.js";
import type { ListItem, Task, TaskList } from "../../types/tasks.js";
import type { ListRepository } from "../../db/repositories/ListRepository.js";
import { isUuid, type TaskRepository } from "../../db/repositories/TaskRepository.js";
import type { OperationLedger } from "../../db/repositories/OperationLedger.js";
import type { CapabilityContext, EntityResolution, EntityResolver } from "../../graph/registry.js";
import { humanTime } from "../../graph/nodes/ResponseFormatterNode.js";
import { operationIdOf } from "../../graph/nodes/ExecutorNode.js";
import { localDayNumber } from "../../utils/timeContext.js";
import { t, type MessageKey } from "../../utils/userMessages.js";
import { decideMatch, type Match } from "./fuzzyMatch.js";
import { actionIds, lastNumbered, parseHandle } from "./references.js";

/** At most this many names are listed in a confirmation question. */
const MAX_NAMED_IN_CONFIRMATION = 10;

type Args = Record<string, unknown>;

/** One reference to find: where it sits in the args, and what the resolver wrote. */
interface Reference {
  /** "taskId", "taskIds.2", "updates.0", "listId", "item". */
  path: string;
  handle?: string;
  words?: string;
}

/** A reference resolved, or what to tell or ask the user instead. */
type Found<T> =
  | { status: "found"; item: T }
  | { status: "several"; matches: Match<T>[]; query: string }
  | { status: "missing"; message: string };

const str = (v: unknown) => (typeof v === "string" && v.trim() ? v.trim() : undefined);

/**
 * Entity resolution for tasks and lists (spec 001 §7): handles ("#2" as last shown, "@1" the
 * latest action), ids of the user's own rows, and fuzzy matching of words in Hebrew and English.
 * One clear match resolves; several ask which (numbered, with due dates); none explains with the
 * closest names. Deleting or completing more than one thing, and every *All operation, asks for
 * confirmation here, in code, whatever the planner said.
 */
export class DatabaseEntityResolver implements EntityResolver {
  readonly capability = "database" as const;

  constructor(
    private readonly tasks: TaskRepository,
    private readonly lists: ListRepository,
    private readonly ledger: OperationLedger,
  ) {}

  async resolve(
    step: PlanStep,
    result: ResolverResult,
    context: CapabilityContext,
  ): Promise<EntityResolution> {
    const args = result.args ?? {};
    // A re-run of a turn whose operation already happened: the executor reports its outcome.
    if ((await this.ledger.get(context.phone, operationIdOf(context.state.traceId, step.id))) !== undefined) {
      return { status: "resolved", args };
    }
    const [kind, operation = ""] = (result.functionName ?? "").split(".");
    return kind === "lists"
      ? this.resolveList(step, operation, args, context)
      : this.resolveTask(step, operation, args, context);
  }

  async applySelection(
    step: PlanStep,
    disambiguation: DisambiguationState,
    selection: string[],
    context: CapabilityContext,
  ): Promise<EntityResolution> {
    const chosen = selection[0];
    if (!chosen || !disambiguation.target)
      return { status: "not_found", message: t(context.language, "internalError") };
    const args = fill(disambiguation.originalArgs, disambiguation.target, chosen);
    const result = context.state.resolverResults.get(step.id);
    return this.resolve(
      step,
      { stepId: step.id, type: "execute", functionName: result?.functionName ?? "", args },
      context,
    );
  }

  // ---- tasks ----

  private async resolveTask(step: PlanStep, operation: string, args: Args, context: CapabilityContext) {
    const { phone, language } = context;
    switch (operation) {
      case "create":
      case "createMultiple":
      case "getAll":
        return resolved(args);
      case "get":
      case "update":
      case "delete":
      case "complete":
      case "addSubtask": {
        const pool =
          operation === "get" || operation === "delete"
            ? await this.tasks.list(phone)
            : await this.tasks.list(phone, { completed: false });
        const found = await this.findTask(taskReference(args, "taskId"), pool, context);
        if (found.status !== "found") return this.unresolved(step, found, args, "taskId", "task", context);
        return resolved({ ...withoutKey(args, "text"), taskId: found.item.id });
      }
      case "deleteMultiple":
      case "updateMultiple": {
        const key = operation === "deleteMultiple" ? "taskIds" : "updates";
        const refs = asArray(args[key]);
        if (refs.length === 0) return notFound(t(language, "whichTask"));
        const pool = await this.tasks.list(phone, operation === "deleteMultiple" ? {} : { completed: false });
        const chosen: Task[] = [];
        for (const [i, ref] of refs.entries()) {
          const reference =
            key === "taskIds"
              ? { path: `taskIds.${i}`, ...wordsOrHandle(ref) }
              : taskReference(ref as Args, `updates.${i}`);
          const found = await this.findTask(reference, pool, context);
          if (found.status !== "found")
            return this.unresolved(step, found, args, reference.path, "task", context);
          chosen.push(found.item);
        }
        const unique = uniqueById(chosen);
        if (operation === "updateMultiple") {
          const updates = refs.map((ref, i) => ({
            ...withoutKey(ref as Args, "text"),
            taskId: chosen[i]!.id,
          }));
          return resolved({ ...args, updates });
        }
        const resolvedArgs = { ...args, taskIds: unique.map((task) => task.id) };
        return unique.length > 1
          ? this.confirmTasks("confirmDeleteTasks", unique, resolvedArgs, context)
          : resolved(resolvedArgs);
      }
      case "deleteAll":
      case "completeAll":
      case "updateAll": {
        const filters = (args.filters ?? {}) as Args;
        const completed =
          typeof filters.completed === "boolean"
            ? filters.completed
            : operation === "deleteAll"
              ? undefined
              : false;
        const query = str(filters.query);
        let matching = await this.tasks.list(phone, {
          ...(completed === undefined ? { completed: false } : { completed }),
          ...(str(filters.category) ? { category: str(filters.category)! } : {}),
        });
        if (query) {
          const decision = decideMatch(query, matching, (task) => task.text);
          matching =
            decision.kind === "one"
              ? [decision.match.item]
              : decision.kind === "several"
                ? decision.matches.map((m) => m.item)
                : [];
        }
        matching = matching.filter((task) => dueFilter(filters.due, task, context));
        if (matching.length === 0)
          return notFound(
            t(language, query || filters.due || filters.category ? "noMatchingTasks" : "noOpenTasks"),
          );
        const key: MessageKey =
          operation === "deleteAll"
            ? "confirmDeleteTasks"
            : operation === "completeAll"
              ? "confirmCompleteTasks"
              : "confirmUpdateTasks";
        return this.confirmTasks(
          key,
          matching,
          { ...args, taskIds: matching.map((task) => task.id) },
          context,
        );
      }
      default:
        return notFound(t(language, "internalError"));
    }
  }

  private async findTask(
    reference: Reference,
    pool: Task[],
    context: CapabilityContext,
  ): Promise<Found<Task>> {
    const { language, phone, state } = context;
    const handle = reference.handle ? parseHandle(reference.handle) : null;
    if (handle?.kind === "number") {
      const id = lastNumbered(state.recentMessages, "task")?.ids[handle.n - 1];
      const task = id ? await this.tasks.get(phone, id) : null;
      return task
        ? { status: "found", item: task }
        : { status: "missing", message: t(language, "noSuchNumber", { n: String(handle.n) }) };
    }
    if (handle?.kind === "action") return this.taskOfAction(handle.n, context);
    if (reference.handle && isUuid(reference.handle)) {
      const task = await this.tasks.get(phone, reference.handle);
      return task
        ? { status: "found", item: task }
        : { status: "missing", message: t(language, "whichTask") };
    }
    const words =
      reference.words ?? (reference.handle && !isUuid(reference.handle) ? reference.handle : undefined);
    // Nothing named: "it", the most recent action on tasks.
    if (!words) {
      const n = state.latestActions.findIndex(
        (a) => a.capability === "database" && (a.externalIds?.length ?? 0) > 0,
      );
      return this.taskOfAction(n + 1, context);
    }
    return decided(
      decideMatch(words, pool, (task) => task.text),
      words,
      (closest) =>
        t(language, "notFoundTask", { query: words }) +
        closestHint(
          language,
          closest.map((m) => m.item.text),
        ),
    );
  }

  private async taskOfAction(n: number, context: CapabilityContext): Promise<Found<Task>> {
    const action = n > 0 ? context.state.latestActions[n - 1] : undefined;
    const ids = action?.capability === "database" ? actionIds(context.state.latestActions, n) : [];
    const task = ids[0] ? await this.tasks.get(context.phone, ids[0]) : null;
    return task
      ? { status: "found", item: task }
      : { status: "missing", message: t(context.language, "whichTask") };
  }

  private confirmTasks(
    key: MessageKey,
    tasks: Task[],
    args: Args,
    context: CapabilityContext,
  ): EntityResolution {
    const names = tasks
      .slice(0, MAX_NAMED_IN_CONFIRMATION)
      .map((task, i) => `${i + 1}. ${this.taskLabel(task, context)}`);
    if (tasks.length > MAX_NAMED_IN_CONFIRMATION) names.push("…");
    return {
      status: "confirm",
      question: t(context.language, key, { count: String(tasks.length), names: names.join("\n") }),
      args,
    };
  }

  private taskLabel(task: Task, context: CapabilityContext): string {
    const when = task.dueAt
      ? humanTime(task.dueAt, context.now, context.state.user.timezone, context.language)
      : null;
    return when ? `${task.text} (${when})` : task.text;
  }

  // ---- lists ----

  private async resolveList(step: PlanStep, operation: string, args: Args, context: CapabilityContext) {
    const { phone, language } = context;
    if (operation === "create" || operation === "createMultiple" || operation === "getAll")
      return resolved(args);
    const lists = await this.lists.list(phone);
    if (lists.length === 0) return notFound(t(language, "noLists"));
    if (operation === "deleteMultiple" || operation === "updateMultiple") {
      const key = operation === "deleteMultiple" ? "listIds" : "updates";
      const refs = asArray(args[key]);
      const chosen: TaskList[] = [];
      for (const [i, ref] of refs.entries()) {
        const reference =
          key === "listIds"
            ? { path: `listIds.${i}`, ...wordsOrHandle(ref) }
            : listReference(ref as Args, `updates.${i}`);
        const found = this.findList(reference, lists, context);
        if (found.status !== "found")
          return this.unresolved(step, found, args, reference.path, "list", context);
        chosen.push(found.item);
      }
      if (chosen.length === 0) return notFound(t(language, "whichList"));
      if (operation === "updateMultiple") {
        return resolved({
          ...args,
          updates: refs.map((ref, i) => ({ ...withoutKey(ref as Args, "listName"), listId: chosen[i]!.id })),
        });
      }
      const unique = uniqueById(chosen);
      const resolvedArgs = { ...args, listIds: unique.map((l) => l.id) };
      if (unique.length < 2) return resolved(resolvedArgs);
      return {
        status: "confirm",
        question: t(language, "confirmDeleteLists", {
          count: String(unique.length),
          names: unique.map((l, i) => `${i + 1}. ${l.name}`).join("\n"),
        }),
        args: resolvedArgs,
      } satisfies EntityResolution;
    }

    const found = this.findList(listReference(args, "listId"), lists, context);
    if (found.status !== "found") return this.unresolved(step, found, args, "listId", "list", context);
    const list = found.item;
    const listArgs = { ...withoutKey(args, "listName"), listId: list.id };
    if (operation === "delete" && list.items.length > 0) {
      return {
        status: "confirm",
        question: t(language, "confirmDeleteList", { name: list.name, count: String(list.items.length) }),
        args: listArgs,
      } satisfies EntityResolution;
    }
    if (operation !== "toggleItem" && operation !== "deleteItem") return resolved(listArgs);

    const item = this.findItem({ path: "item", ...wordsOrHandle(args.item) }, list, context);
    if (item.status !== "found") return this.unresolved(step, item, listArgs, "item", "item", context);
    return resolved({ ...listArgs, item: item.item.id });
  }

  private findList(reference: Reference, lists: TaskList[], context: CapabilityContext): Found<TaskList> {
    const { language, state } = context;
    const handle = reference.handle ? parseHandle(reference.handle) : null;
    if (handle?.kind === "number") {
      const id = lastNumbered(state.recentMessages, "list")?.ids[handle.n - 1];
      const list = lists.find((l) => l.id === id);
      return list
        ? { status: "found", item: list }
        : { status: "missing", message: t(language, "noSuchNumber", { n: String(handle.n) }) };
    }
    const byId = (id: string | undefined) => lists.find((l) => l.id === id);
    if (handle?.kind === "action") {
      const list = byId(actionIds(state.latestActions, handle.n)[0]);
      return list
        ? { status: "found", item: list }
        : { status: "missing", message: t(language, "whichList") };
    }
    if (reference.handle && isUuid(reference.handle)) {
      const own = byId(reference.handle.toLowerCase());
      return own ? { status: "found", item: own } : { status: "missing", message: t(language, "whichList") };
    }
    const words =
      reference.words ?? (reference.handle && !isUuid(reference.handle) ? reference.handle : undefined);
    if (!words) {
      // No name: the only list, the list of the latest action, or a question among all of them.
      if (lists.length === 1) return { status: "found", item: lists[0]! };
      const latest = state.latestActions[0];
      const recent = latest?.capability === "database" ? byId(latest.externalIds?.[0]) : undefined;
      if (recent) return { status: "found", item: recent };
      return { status: "several", matches: lists.map((item) => ({ item, score: 0 })), query: "" };
    }
    return decided(
      decideMatch(stripListWord(words), lists, (l) => l.name),
      words,
      (closest) =>
        t(language, "notFoundList", { query: words }) +
        closestHint(
          language,
          closest.map((m) => m.item.name),
        ),
    );
  }

  private findItem(reference: Reference, list: TaskList, context: CapabilityContext): Found<ListItem> {
    const { language } = context;
    const handle = reference.handle ? parseHandle(reference.handle) : null;
    if (handle?.kind === "number") {
      // Items are shown in position order, numbered from 1.
      const item = list.items[handle.n - 1];
      return item
        ? { status: "found", item }
        : { status: "missing", message: t(language, "noSuchNumber", { n: String(handle.n) }) };
    }
    const own = list.items.find((i) => i.id === reference.handle?.toLowerCase());
    if (own) return { status: "found", item: own };
    const words = reference.words ?? reference.handle;
    if (!words) return { status: "missing", message: t(language, "whichItem") };
    return decided(
      decideMatch(words, list.items, (i) => i.text),
      words,
      (closest) =>
        t(language, "notFoundItem", { query: words, list: list.name }) +
        closestHint(
          language,
          closest.map((m) => m.item.text),
        ),
    );
  }

  // ---- shared ----

  /** A reference that did not resolve to one entity: a question among the matches, or a not-found reply. */
  private unresolved<T extends { id: string }>(
    step: PlanStep,
    found: Exclude<Found<T>, { status: "found" }>,
    args: Args,
    target: string,
    entity: "task" | "list" | "item",
    context: CapabilityContext,
  ): EntityResolution {
    if (found.status === "missing") return notFound(found.message);
    return {
      status: "disambiguation",
      entityLabel: t(context.language, `entity.${entity}`),
      disambiguation: {
        type: entity === "task" ? "task" : "list",
        stepId: step.id,
        query: found.query,
        candidates: found.matches.map(({ item }) => ({
          id: item.id,
          displayText: this.displayOf(item, context),
        })),
        allowMultiple: false,
        originalArgs: args,
        target,
      },
    };
  }

  private displayOf(item: { id: string }, context: CapabilityContext): string {
    if ("dueAt" in item) return this.taskLabel(item as unknown as Task, context);
    if ("name" in item) return String((item as unknown as TaskList).name);
    return String((item as unknown as ListItem).text);
  }
}

const resolved = (args: Args): EntityResolution => ({ status: "resolved", args });
const notFound = (message: string): EntityResolution => ({ status: "not_found", message });

/** The outcome of a fuzzy decision as a Found. */
function decided<T>(
  decision: ReturnType<typeof decideMatch<T>>,
  query: string,
  notFoundMessage: (closest: Match<T>[]) => string,
): Found<T> {
  if (decision.kind === "one") return { status: "found", item: decision.match.item };
  if (decision.kind === "several") return { status: "several", matches: decision.matches, query };
  return { status: "missing", message: notFoundMessage(decision.closest) };
}

function closestHint(language: "he" | "en", names: string[]): string {
  return names.length > 0
    ? ` ${t(language, "closest", { names: names.map((n) => `"${n}"`).join(", ") })}`
    : "";
}

/** A task reference in args: a handle or id in taskId, else the words in text. */
function taskReference(args: Args, path: string): Reference {
  const prefix = path === "taskId" ? "taskId" : `${path}.taskId`;
  return {
    path: prefix,
    ...(str(args.taskId) ? { handle: str(args.taskId)! } : {}),
    ...(str(args.text) ? { words: str(args.text)! } : {}),
  };
}

function listReference(args: Args, path: string): Reference {
  const prefix = path === "listId" ? "listId" : `${path}.listId`;
  return {
    path: prefix,
    ...(str(args.listId) ? { handle: str(args.listId)! } : {}),
    ...(str(args.listName) ? { words: str(args.listName)! } : {}),
  };
}

/** An entry of taskIds/listIds/item: a handle or id when it looks like one, else words. */
function wordsOrHandle(value: unknown): { handle?: string; words?: string } {
  const text = str(value);
  if (!text) return {};
  return parseHandle(text) || isUuid(text) ? { handle: text } : { words: text };
}

/** "shopping list" / "רשימת קניות" name the list "shopping" / "קניות". */
function stripListWord(words: string): string {
  const stripped = words
    .replace(/^(?:the\s+)?(.+?)\s+list$/i, "$1")
    .replace(/^(?:ה)?רשימ(?:ת|ה)\s+(?:ה)?(.+)$/u, "$1")
    .trim();
  return stripped || words;
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function withoutKey(args: Args, key: string): Args {
  const { [key]: _dropped, ...rest } = args;
  return rest;
}

function uniqueById<T extends { id: string }>(items: T[]): T[] {
  return [...new Map(items.map((item) => [item.id, item])).values()];
}

/** A copy of args with the reference at `path` ("taskId", "taskIds.1", "updates.0.taskId") set to `id`. */
function fill(args: Args, path: string, id: string): Args {
  const copy = structuredClone(args);
  const keys = path.split(".");
  let node: Record<string, unknown> | unknown[] = copy;
  for (const key of keys.slice(0, -1)) node = node[key] as Record<string, unknown>;
  const last = keys.at(-1)!;
  node[last] = id;
  return copy;
}

/** Whether a task passes a filters.due window, in the user's zone. */
function dueFilter(due: unknown, task: Task, context: CapabilityContext): boolean {
  if (typeof due !== "string") return true;
  if (due === "none") return task.dueAt === null && task.recurrence === null;
  if (!task.dueAt) return false;
  const at = Date.parse(task.dueAt);
  const zone = context.state.user.timezone;
  const diff = localDayNumber(at, zone) - localDayNumber(context.now, zone);
  switch (due) {
    case "overdue":
      return at < context.now;
    case "today":
      return diff === 0;
    case "tomorrow":
      return diff === 1;
    case "week":
      return diff >= 0 && diff < 7;
    case "upcoming":
      return at >= context.now;
    default:
      return true;
  }
}
