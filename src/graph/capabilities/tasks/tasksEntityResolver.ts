import { nonEmpty } from "../../../utils/args.js";
import type { ListRepository } from "../../../db/repositories/listRepository.js";
import type { OperationLedger } from "../../../db/repositories/operationLedger.js";
import { isUuid, type TaskRepository } from "../../../db/repositories/taskRepository.js";
import type { CapabilityContext, EntityResolution, EntityResolver } from "../../../types/capability.js";
import { operationIdOf } from "../../plan/operationId.js";
import type { DisambiguationState, PlanStep, ResolverResult } from "../../../types/index.js";
import type { ListItem, Task, TaskList } from "../../../types/tasks.js";
import { humanTime } from "../../../utils/timeContext.js";
import { t, type MessageKey } from "../../../messages/index.js";
import { isFillerListName } from "../../../nlu/commands.js";
import { findTasks } from "../../../services/tasks/taskFilters.js";
import { decideMatch, type Match } from "../../../utils/fuzzy.js";
import { invisibleNameReply } from "../../../services/tasks/visibleNames.js";
import { listLabel } from "./tasksReplies.js";
import {
  actionIds,
  bindToDependency,
  lastNumbered,
  parseHandle,
  withChosenArgs,
  type DependencyBinding,
} from "../../entities/references.js";
import { confirmUnlessDone, resolveUnlessDone } from "../../entities/rerun.js";
import { assertNever, declares } from "../../../contracts/contract.js";
import {
  splitFunction,
  tasksContract,
  type ListOperationName,
  type TaskOperationName,
} from "../../../contracts/tasks.js";

/** The question a risky plan asks before changing one task, by task operation. */
const TASK_CONFIRMATION: Partial<Record<TaskOperationName, MessageKey>> = {
  delete: "confirmDeleteOneTask",
  deleteMultiple: "confirmDeleteOneTask",
  complete: "confirmCompleteOneTask",
  update: "confirmUpdateOneTask",
};

/**
 * What each list operation names, for entity resolution: nothing to find, one list, several lists,
 * or an item of one list. A new operation of the contract fails `tsc` here until it says.
 */
const LIST_REFERENCES: Record<ListOperationName, "none" | "list" | "lists" | "item"> = {
  create: "none",
  createMultiple: "none",
  get: "list",
  getAll: "none",
  addItem: "list",
  toggleItem: "item",
  deleteItem: "item",
  update: "list",
  updateMultiple: "lists",
  delete: "list",
  deleteMultiple: "lists",
  clear: "list",
  sort: "list",
};

/**
 * What a risky plan asks before each list operation: nothing (reading, creating, adding), a
 * rename or change, deleting an empty list (one with items was asked about when resolved), an
 * item's tick or removal, or a clear.
 */
const LIST_QUESTION: Record<ListOperationName, "none" | "change" | "delete" | "item" | "clear"> = {
  create: "none",
  createMultiple: "none",
  get: "none",
  getAll: "none",
  addItem: "none",
  toggleItem: "item",
  deleteItem: "item",
  update: "change",
  updateMultiple: "change",
  delete: "delete",
  deleteMultiple: "delete",
  clear: "clear",
  // A new order is taken back with "undo", as it was: nothing to ask.
  sort: "none",
};

/** At most this many names are listed in a confirmation question. */
const MAX_NAMED_IN_CONFIRMATION = 10;

type Args = Record<string, unknown>;

/** One reference to find: where it sits in the args, and what the resolver wrote. */
interface Reference {
  /** "taskId", "taskIds.2", "updates.0.taskId", "listId", "item". */
  path: string;
  handle?: string;
  words?: string;
  /** The earlier step of this message the resolver said the reference means (D13). */
  fromStep?: unknown;
}

/** A reference resolved, or what to tell or ask the user instead. */
type Found<T> =
  | { status: "found"; item: T }
  | { status: "several"; matches: Match<T>[]; query: string }
  | { status: "missing"; message: string };

type Entity = "task" | "list" | "item";

const str = nonEmpty;
const found = <T>(item: T): Found<T> => ({ status: "found", item });
const missing = <T>(message: string): Found<T> => ({ status: "missing", message });

/** The confirmation question of each bulk task operation, for one task and for several. */
const CONFIRM: Record<"delete" | "complete" | "update", [MessageKey, MessageKey]> = {
  delete: ["confirmDeleteTask", "confirmDeleteTasks"],
  complete: ["confirmCompleteTask", "confirmCompleteTasks"],
  update: ["confirmUpdateTask", "confirmUpdateTasks"],
};

/**
 * Entity resolution for tasks and lists (spec 001 §7): handles ("#2" as last shown, "@1" the
 * latest action), ids of the user's own rows, and fuzzy matching of words in Hebrew and English.
 * One clear match resolves; several ask which (numbered, with due dates); none explains with the
 * closest names. Deleting or completing more than one thing, every *All operation, and deleting a
 * list that has items ask for confirmation here, in code, whatever the planner said.
 */
export class TasksEntityResolver implements EntityResolver {
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
    return resolveUnlessDone(
      this.ledger,
      context.phone,
      [operationIdOf(context.state.traceId, step.id)],
      args,
      () => {
        // A name of invisible characters only names nothing: asked again, never matched or stored.
        const invisible = invisibleNameReply(args, context.language);
        if (invisible) return Promise.resolve(notFound(invisible));
        const functionName = result.functionName ?? "";
        if (!declares(tasksContract, functionName))
          return Promise.resolve(notFound(t(context.language, "internalError")));
        const split = splitFunction(functionName);
        return split.kind === "lists"
          ? this.resolveList(step, split.operation, args, context)
          : this.resolveTask(step, split.operation, args, context);
      },
    );
  }

  async applySelection(
    step: PlanStep,
    disambiguation: DisambiguationState,
    selection: string[],
    context: CapabilityContext,
  ): Promise<EntityResolution> {
    const chosen = selection[0];
    if (!chosen || !disambiguation.target) return notFound(t(context.language, "internalError"));
    // The choice fills its reference; the others are resolved again (and may ask in turn).
    const args = fill(disambiguation.originalArgs, disambiguation.target, chosen);
    return this.resolve(step, withChosenArgs(step, context, args), context);
  }

  /**
   * A risky plan's question before changing tasks or lists, naming each: "Delete the task “Buy
   * milk” (tomorrow at 09:00)?", "Rename the list *Shopping* to *Groceries*?", "Tick “milk” on
   * *Shopping*?". Creating and reading ask nothing; several deleted or completed things were asked
   * about already (confirmTasks, confirmDeleteLists).
   */
  confirmation(step: PlanStep, args: Args, context: CapabilityContext): Promise<string | null> {
    // A re-run of a turn whose operation already happened asks nothing again.
    return confirmUnlessDone(
      this.ledger,
      context.phone,
      [operationIdOf(context.state.traceId, step.id)],
      () => this.question(step, args, context),
    );
  }

  /** The confirmation question of a step resolved to `args`, if it asks one. */
  private async question(step: PlanStep, args: Args, context: CapabilityContext): Promise<string | null> {
    const { phone, language } = context;
    const functionName = context.state.resolverResults.get(step.id)?.functionName ?? "";
    if (!declares(tasksContract, functionName)) return null;
    const split = splitFunction(functionName);
    if (split.kind === "tasks") return this.taskConfirmation(split.operation, args, context);
    const { operation } = split;
    const asks = LIST_QUESTION[operation];
    if (asks === "change")
      return this.listChangeConfirmation(
        operation === "update" ? [args] : (asArray(args.updates) as Args[]),
        context,
      );
    if (asks === "none") return null;
    const listIds = operation === "deleteMultiple" ? asArray(args.listIds) : [args.listId];
    const list =
      listIds.length === 1 && typeof listIds[0] === "string" ? await this.lists.get(phone, listIds[0]) : null;
    if (!list) return null;
    if (asks === "clear") {
      // Nothing to remove asks nothing: the reply says the list is already empty.
      const checked = args.onlyChecked === true;
      const count = list.items.filter((item) => !checked || item.checked).length;
      if (count === 0) return null;
      return t(language, checked ? "confirmClearChecked" : "confirmClearList", { name: list.name, count });
    }
    if (asks === "item") {
      const item = list.items.find((i) => i.id === args.item);
      if (!item) return null;
      // toggleItem without "checked" flips the item, as the executor does.
      const ticks = typeof args.checked === "boolean" ? args.checked : !item.checked;
      const key =
        operation === "deleteItem"
          ? "confirmDeleteListItem"
          : ticks
            ? "confirmTickItem"
            : "confirmUntickItem";
      return t(language, key, { item: item.text, name: list.name });
    }
    // A list with items was asked about when it was resolved (confirmListDelete).
    return list.items.length === 0 ? t(language, "confirmDeleteEmptyList", { name: list.name }) : null;
  }

  /** The risky-plan question of a task operation: the one task it changes, or each task of an updateMultiple. */
  private async taskConfirmation(
    operation: TaskOperationName,
    args: Args,
    context: CapabilityContext,
  ): Promise<string | null> {
    const { phone, language } = context;
    if (operation === "updateMultiple") {
      const updates = asArray(args.updates) as Args[];
      const tasks = await this.tasks.getMany(
        phone,
        updates.map((u) => u.taskId).filter((id): id is string => typeof id === "string"),
      );
      const byId = new Map(tasks.map((task) => [task.id, task]));
      const named = updates.flatMap((update) => {
        const task = byId.get(String(update.taskId));
        return task ? [{ task, change: changeSummary(update, language) }] : [];
      });
      if (named.length === 0) return null;
      if (named.length === 1) {
        const [{ task, change }] = named as [{ task: Task; change: string }];
        return t(language, "confirmUpdateOneTask", {
          name: task.text,
          when: this.dueSuffix(task, context),
          change,
        });
      }
      const names = named
        .slice(0, MAX_NAMED_IN_CONFIRMATION)
        .map(({ task, change }, i) => `${i + 1}. ${this.taskLabel(task, context)}: ${change}`);
      if (named.length > MAX_NAMED_IN_CONFIRMATION) names.push("…");
      return t(language, "confirmUpdateEachTask", { count: String(named.length), names: names.join("\n") });
    }
    const key = TASK_CONFIRMATION[operation];
    const ids = operation === "deleteMultiple" ? asArray(args.taskIds) : [args.taskId];
    const tasks = await this.tasks.getMany(
      phone,
      ids.filter((id): id is string => typeof id === "string"),
    );
    if (!key || tasks.length !== 1) return null;
    const task = tasks[0]!;
    return t(language, key, {
      name: task.text,
      when: this.dueSuffix(task, context),
      change: changeSummary(args, language),
    });
  }

  /** The risky-plan question of renaming (or otherwise changing) lists, naming each old and new name. */
  private async listChangeConfirmation(updates: Args[], context: CapabilityContext): Promise<string | null> {
    const { phone, language } = context;
    const lists = await this.lists.list(phone);
    const changes = updates.flatMap((update) => {
      const list = lists.find((l) => l.id === update.listId);
      return list ? [{ list, newName: str(update.newName) }] : [];
    });
    if (changes.length === 0) return null;
    if (changes.length === 1) {
      const [{ list, newName }] = changes as [{ list: TaskList; newName: string | undefined }];
      return newName
        ? t(language, "confirmRenameList", { name: list.name, newName })
        : t(language, "confirmChangeList", { name: list.name });
    }
    const names = changes.map(
      ({ list, newName }, i) => `${i + 1}. *${list.name}*${newName ? ` → *${newName}*` : ""}`,
    );
    return t(language, "confirmChangeLists", { count: String(changes.length), names: names.join("\n") });
  }

  /** " (tomorrow at 09:00)" after a task's name in a question, or nothing without a due time. */
  private dueSuffix(task: Task, context: CapabilityContext): string {
    return task.dueAt
      ? ` (${humanTime(task.dueAt, context.now, context.state.user.timezone, context.language)})`
      : "";
  }

  // ---- tasks ----

  private async resolveTask(
    step: PlanStep,
    operation: TaskOperationName,
    args: Args,
    context: CapabilityContext,
  ): Promise<EntityResolution> {
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
        // Done tasks can still be shown or deleted; only open ones are changed or completed.
        const pool = await this.tasks.list(
          phone,
          operation === "get" || operation === "delete" ? {} : { completed: false },
        );
        // "nudge every 10 minutes" with no task yet: ask what to nudge about, not "which task?".
        const nudge = (args.reminderRecurrence as { type?: unknown } | null | undefined)?.type === "nudge";
        const none: MessageKey = operation === "update" && nudge ? "askNudgeAbout" : "whichTask";
        const result = await this.findTask(taskReference(args, "taskId"), pool, context, none);
        if (result.status !== "found") return this.unresolved(step, result, args, "taskId", "task", context);
        return resolved({ ...withoutKey(args, "text"), taskId: result.item.id });
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
          // "delete them" after a step that found several: every task it found.
          const binding =
            key === "taskIds" ? bindToDependency(context, "tasks", reference, args.fromStep) : null;
          if (binding?.status === "bound") {
            chosen.push(...(await this.tasks.getMany(phone, binding.ref.ids)));
            continue;
          }
          const result = await this.findTask(reference, pool, context);
          if (result.status !== "found")
            return this.unresolved(step, result, args, reference.path, "task", context);
          chosen.push(result.item);
        }
        if (operation === "updateMultiple") {
          const updates = refs.map((ref, i) => ({
            ...withoutKey(ref as Args, "text"),
            taskId: chosen[i]!.id,
          }));
          return resolved({ ...args, updates });
        }
        const unique = uniqueById(chosen);
        const resolvedArgs = { ...args, taskIds: unique.map((task) => task.id) };
        return unique.length > 1
          ? this.confirmTasks("delete", unique, resolvedArgs, context)
          : resolved(resolvedArgs);
      }
      case "deleteAll":
      case "completeAll":
      case "updateAll": {
        const kind =
          operation === "deleteAll" ? "delete" : operation === "completeAll" ? "complete" : "update";
        // "complete them" after a step that found tasks: exactly the tasks it found (D13).
        const binding = bindToDependency(
          context,
          "tasks",
          { words: filterWords(args.filters) },
          args.fromStep,
        );
        if (binding?.status === "bound") {
          const bound = await this.tasks.getMany(phone, binding.ref.ids);
          if (bound.length === 0) return notFound(t(language, "whichTask"));
          return this.confirmTasks(kind, bound, { ...args, taskIds: bound.map((task) => task.id) }, context);
        }
        // Open tasks unless the user asked about done ones (a bulk change of done tasks is rare).
        const { tasks: matching, narrowed } = await findTasks(
          this.tasks,
          phone,
          args.filters,
          context.now,
          context.state.user.timezone,
        );
        if (matching.length === 0) return notFound(t(language, narrowed ? "noMatchingTasks" : "noOpenTasks"));
        return this.confirmTasks(
          kind,
          matching,
          { ...args, taskIds: matching.map((task) => task.id) },
          context,
        );
      }
      default:
        return assertNever(operation);
    }
  }

  private async findTask(
    reference: Reference,
    pool: Task[],
    context: CapabilityContext,
    /** What to say when nothing is named and no recent action touched a task. */
    none: MessageKey = "whichTask",
  ): Promise<Found<Task>> {
    const { language, phone, state } = context;
    // "it", "@1" or nothing named, after an earlier step of this message: what that step produced.
    const binding = bindToDependency(context, "tasks", reference, reference.fromStep);
    if (binding) return this.boundTasks(binding, context, none);
    const handle = reference.handle ? parseHandle(reference.handle) : null;
    if (handle?.kind === "number") {
      const id = lastNumbered(state.recentMessages, "task")?.ids[handle.n - 1];
      const task = id ? await this.tasks.get(phone, id) : null;
      return task ? found(task) : missing(t(language, "noSuchNumber", { n: String(handle.n) }));
    }
    if (handle?.kind === "action") {
      const task = (await this.tasks.getMany(phone, actionIds(state.latestActions, handle.n)))[0];
      return task ? found(task) : missing(t(language, "whichTask"));
    }
    if (reference.handle && isUuid(reference.handle)) {
      const task = await this.tasks.get(phone, reference.handle);
      return task ? found(task) : missing(t(language, "whichTask"));
    }
    const words = reference.words ?? reference.handle;
    if (!words) return this.latestTask(context, none);
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

  /** The tasks an earlier step of this message produced: one is found, several are asked about. */
  private async boundTasks(
    binding: NonNullable<DependencyBinding>,
    context: CapabilityContext,
    none: MessageKey,
  ): Promise<Found<Task>> {
    const tasks = binding.status === "bound" ? await this.tasks.getMany(context.phone, binding.ref.ids) : [];
    return oneOrSeveral(tasks, t(context.language, none));
  }

  /** Nothing named ("move it"): the task of the most recent action that touched one. */
  private async latestTask(context: CapabilityContext, none: MessageKey): Promise<Found<Task>> {
    for (const action of context.state.latestActions) {
      if (action.capability !== "database" || !action.externalIds?.length) continue;
      const task = (await this.tasks.getMany(context.phone, action.externalIds))[0];
      if (task) return found(task);
    }
    return missing(t(context.language, none));
  }

  private confirmTasks(
    kind: keyof typeof CONFIRM,
    tasks: Task[],
    args: Args,
    context: CapabilityContext,
  ): EntityResolution {
    const names = tasks
      .slice(0, MAX_NAMED_IN_CONFIRMATION)
      .map((task, i) => `${i + 1}. ${this.taskLabel(task, context)}`);
    if (tasks.length > MAX_NAMED_IN_CONFIRMATION) names.push("…");
    const [one, several] = CONFIRM[kind];
    return {
      status: "confirm",
      question: t(context.language, tasks.length === 1 ? one : several, {
        count: String(tasks.length),
        names: names.join("\n"),
        change: changeSummary(args, context.language),
      }),
      args,
    };
  }

  /** A task's name with its due time, as questions list it: "Buy milk (tomorrow at 09:00)". */
  private taskLabel(task: Task, context: CapabilityContext): string {
    return `${task.text}${this.dueSuffix(task, context)}`;
  }

  // ---- lists ----

  private async resolveList(
    step: PlanStep,
    operation: ListOperationName,
    args: Args,
    context: CapabilityContext,
  ): Promise<EntityResolution> {
    const { phone, language } = context;
    const references = LIST_REFERENCES[operation];
    if (references === "none") return resolved(args);
    const lists = await this.lists.list(phone);
    // "add milk to the shopping list" with no such list: the list is made with the items.
    const toCreate = operation === "addItem" ? listToCreate(args) : null;
    if (lists.length === 0) return toCreate ?? notFound(t(language, "noLists"));
    if (references === "lists") {
      const key = operation === "deleteMultiple" ? "listIds" : "updates";
      const refs = asArray(args[key]);
      const chosen: TaskList[] = [];
      for (const [i, ref] of refs.entries()) {
        const reference =
          key === "listIds"
            ? { path: `listIds.${i}`, ...wordsOrHandle(ref) }
            : listReference(ref as Args, `updates.${i}`);
        const result = this.findList(reference, lists, context);
        if (result.status !== "found")
          return this.unresolved(step, result, args, reference.path, "list", context);
        chosen.push(result.item);
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
      if (unique.length === 1) return this.confirmListDelete(unique[0]!, resolvedArgs, language);
      return {
        status: "confirm",
        question: t(language, "confirmDeleteLists", {
          count: String(unique.length),
          names: unique.map((l, i) => `${i + 1}. ${l.name}`).join("\n"),
        }),
        args: resolvedArgs,
      };
    }

    const result = this.findList(listReference(args, "listId"), lists, context);
    // Only when no name comes near: a similar one ("shoping", "Shopping list") is that list, and
    // several near ones are asked about, so no duplicate is made.
    if (result.status === "missing" && toCreate) return toCreate;
    if (result.status !== "found") return this.unresolved(step, result, args, "listId", "list", context);
    const list = result.item;
    const listArgs = { ...withoutKey(args, "listName"), listId: list.id };
    if (operation === "delete") return this.confirmListDelete(list, listArgs, language);
    if (references === "list") return resolved(listArgs);

    const item = this.findItem({ path: "item", ...wordsOrHandle(args.item) }, list, context);
    if (item.status !== "found") return this.unresolved(step, item, listArgs, "item", "item", context);
    return resolved({ ...listArgs, item: item.item.id });
  }

  /** Deleting a list with items asks first; an empty one goes at once. */
  private confirmListDelete(list: TaskList, args: Args, language: "he" | "en"): EntityResolution {
    if (list.items.length === 0) return resolved(args);
    return {
      status: "confirm",
      question: t(language, "confirmDeleteList", { name: list.name, count: list.items.length }),
      args,
    };
  }

  private findList(reference: Reference, lists: TaskList[], context: CapabilityContext): Found<TaskList> {
    const { language, state } = context;
    const byId = (id: string | undefined) => lists.find((l) => l.id === id?.toLowerCase());
    // "to it", "there", "the list" after an earlier step of this message: the list that step produced.
    const binding = bindToDependency(context, "lists", reference, reference.fromStep, namesNoList);
    if (binding) {
      const bound = binding.status === "bound" ? binding.ref.ids.flatMap((id) => byId(id) ?? []) : [];
      return oneOrSeveral(bound, t(language, "whichList"));
    }
    const handle = reference.handle ? parseHandle(reference.handle) : null;
    if (handle?.kind === "number") {
      const list = byId(lastNumbered(state.recentMessages, "list")?.ids[handle.n - 1]);
      return list ? found(list) : missing(t(language, "noSuchNumber", { n: String(handle.n) }));
    }
    if (handle?.kind === "action") {
      const list = actionIds(state.latestActions, handle.n)
        .map(byId)
        .find((l) => l);
      return list ? found(list) : missing(t(language, "whichList"));
    }
    if (reference.handle && isUuid(reference.handle)) {
      const list = byId(reference.handle);
      return list ? found(list) : missing(t(language, "whichList"));
    }
    const named = reference.words ?? reference.handle;
    const words = named && !namesNoList(named) ? named : undefined;
    if (!words) {
      // No name: the only list, the list of the most recent action on one, or a question among all.
      if (lists.length === 1) return found(lists[0]!);
      for (const action of state.latestActions) {
        if (action.capability !== "database") continue;
        const list = (action.externalIds ?? []).map(byId).find((l) => l);
        if (list) return found(list);
      }
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
    const { language, state } = context;
    const handle = reference.handle ? parseHandle(reference.handle) : null;
    if (handle?.kind === "number") {
      // The number as last shown for this list; without such a listing, as the list stands.
      const shown = lastNumbered(state.recentMessages, "list_item");
      const id = shown?.listId === list.id ? shown.ids[handle.n - 1] : list.items[handle.n - 1]?.id;
      const item = list.items.find((i) => i.id === id);
      return item ? found(item) : missing(t(language, "noSuchNumber", { n: String(handle.n) }));
    }
    const own = list.items.find((i) => i.id === reference.handle?.toLowerCase());
    if (own) return found(own);
    const words = reference.words ?? reference.handle;
    if (!words) return missing(t(language, "whichItem"));
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
  private unresolved<T extends Task | TaskList | ListItem>(
    step: PlanStep,
    result: Exclude<Found<T>, { status: "found" }>,
    args: Args,
    target: string,
    entity: Entity,
    context: CapabilityContext,
  ): EntityResolution {
    if (result.status === "missing") return notFound(result.message);
    const label = (item: T) =>
      "dueAt" in item ? this.taskLabel(item, context) : "name" in item ? listLabel(item) : item.text;
    return {
      status: "disambiguation",
      entityLabel: t(context.language, `entity.${entity}`),
      disambiguation: {
        type: entity === "task" ? "task" : "list",
        stepId: step.id,
        query: result.query,
        candidates: result.matches.map(({ item }) => ({ id: item.id, displayText: label(item) })),
        allowMultiple: false,
        originalArgs: args,
        target,
      },
    };
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
  if (decision.kind === "one") return found(decision.match.item);
  if (decision.kind === "several") return { status: "several", matches: decision.matches, query };
  return missing(notFoundMessage(decision.closest));
}

function closestHint(language: "he" | "en", names: string[]): string {
  return names.length > 0
    ? ` ${t(language, "closest", { names: names.map((n) => `"${n}"`).join(", ") })}`
    : "";
}

/** What an updateAll will set, in a few words for its confirmation: `⏰ tomorrow at 9`. */
function changeSummary(args: Args, language: "he" | "en"): string {
  const parts = [
    str(args.newText) ? `✏️ ${str(args.newText)}` : "",
    str(args.dueDate) ? `⏰ ${str(args.dueDate)}` : "",
    args.reminderRecurrence ? "🔁" : "",
    str(args.reminder) ? `🔔 ${str(args.reminder)}` : "",
    str(args.category) ? `🏷️ ${str(args.category)}` : "",
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(", ") : t(language, "askChange");
}

/** A reference in args: a handle or id under `idKey`, else the words under `wordsKey`. */
function reference(
  args: Args,
  path: string,
  idKey: "taskId" | "listId",
  wordsKey: "text" | "listName",
): Reference {
  const id = str(args[idKey]);
  const words = str(args[wordsKey]);
  return {
    path: path === idKey ? idKey : `${path}.${idKey}`,
    ...(id ? { handle: id } : {}),
    ...(words ? { words } : {}),
    ...(args.fromStep ? { fromStep: args.fromStep } : {}),
  };
}

const taskReference = (args: Args, path: string) => reference(args, path, "taskId", "text");
const listReference = (args: Args, path: string) => reference(args, path, "listId", "listName");

/** Entities a reference was bound to: one is found, several are asked about, none is `none`. */
function oneOrSeveral<T>(items: T[], none: string): Found<T> {
  if (items.length === 1) return found(items[0]!);
  if (items.length > 1)
    return { status: "several", matches: items.map((item) => ({ item, score: 0 })), query: "" };
  return missing(none);
}

/** An entry of taskIds/listIds/item: a handle or id when it looks like one, else words. */
function wordsOrHandle(value: unknown): { handle?: string; words?: string } {
  const text = str(value);
  if (!text) return {};
  return parseHandle(text) || isUuid(text) ? { handle: text } : { words: text };
}

/**
 * An addItem naming a list by words that match none: resolved to create that list with the items
 * (`createList`, the executor's cue). Null for a handle or id, which names a list that must exist.
 */
function listToCreate(args: Args): EntityResolution | null {
  const { handle, words } = listReference(args, "listId");
  if (handle && (parseHandle(handle) || isUuid(handle))) return null;
  const name = words ?? handle;
  // "the list", "my list", "it", "הרשימה" name no list: the only one, or "which list?", never a new one.
  if (!name || namesNoList(name)) return null;
  return resolved({ ...withoutKey(args, "listId"), listName: stripListWord(name), createList: true });
}

/** Words that are only filler ("the list", "my list", "it", "הרשימה"), before or after dropping "list". */
function namesNoList(words: string): boolean {
  return isFillerListName(words) || isFillerListName(stripListWord(words));
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
  let node: Record<string, unknown> = copy;
  for (const key of keys.slice(0, -1)) node = node[key] as Record<string, unknown>;
  node[keys.at(-1)!] = id;
  return copy;
}

/** The words a bulk operation's filters name tasks by, or none ("complete them" names nothing). */
function filterWords(filters: unknown): string | undefined {
  const named = filters && typeof filters === "object" ? (filters as Args) : {};
  const words = ["query", "category", "due"].map((key) => str(named[key])).filter(Boolean);
  return words.length > 0 ? words.join(" ") : undefined;
}
