/**
 * The planner evaluation's corpus is what it claims to be (docs/EVALS.md): at least 300 messages,
 * 150 in each language, unique ids, each message in its language, expected actions the contracts'
 * (src/contracts/), dependencies on earlier steps only, every category in both languages, every
 * capability and operation in each language, argument words the user wrote, and every message one
 * that reaches the planner's model: none is caught by the code in front of it (the fast path, an
 * answer to a document's offer, "save it", the commands answered before the graph).
 */
import { PLANNER_ACTIONS, knownAction } from "../../evals/planner/actions.js";
import {
  actionsOf,
  argWords,
  intentsOf,
  loadPlannerCorpus,
  nowOf,
  PLANNER_CATEGORIES,
  plansOf,
  zoneOf,
  type PlannerItem,
} from "../../evals/planner/corpus.js";
import { holdsArg } from "../../evals/planner/metrics.js";
import { plannerMessagesOf } from "../../evals/planner/plannerRun.js";
import { plannerStateOf } from "../../evals/planner/plannerState.js";
import { latestNumbered, numberedElsewhere } from "../../src/graph/entities/references.js";
import { fastPathTurn } from "../../src/graph/plan/fastPath.js";
import { offerAnswerTurn } from "../../src/graph/plan/offerAnswer.js";
import { isBareDone } from "../../src/nlu/buttonCommands.js";
import { parseHebrewBirthdayCommand } from "../../src/nlu/hebrewBirthdayCommand.js";
import { calendarOptionsOf } from "../../src/nlu/holidays.js";
import { recognizeHouseholdCommand } from "../../src/nlu/householdCommands.js";
import { isSaveTextCommand } from "../../src/nlu/saveTextCommand.js";
import { parseSettingsCommand } from "../../src/nlu/settingsCommand.js";
import { textToSave } from "../../src/services/documents/savedText.js";
import { detectLanguage } from "../../src/utils/language.js";

const items = loadPlannerCorpus();
const LANGUAGES = ["en", "he"] as const;

/** What in front of the planner's model would answer the item's message instead, or null. */
function caughtBy(item: PlannerItem): string | null {
  const state = plannerStateOf(item);
  const { message } = item;
  const language = item.language;
  // Answered before the graph, whatever the user's data (the inbound router's routes).
  if (parseSettingsCommand(message)) return "a settings command";
  if (parseHebrewBirthdayCommand(message)) return "the Hebrew birthday command";
  if (isBareDone(message)) return "a bare done (a ringing reminder's)";
  if (recognizeHouseholdCommand(message)) return "a household command";
  // The planner node, in its order.
  if (!item.forwarded && offerAnswerTurn(message, state.recentMessages, nowOf(item), zoneOf(item), language))
    return "an answer to a document's offer";
  if (!item.forwarded && isSaveTextCommand(message) && textToSave(state.recentMessages, message) !== null)
    return '"save it"';
  const fast = fastPathTurn(
    message,
    nowOf(item),
    zoneOf(item),
    () => true,
    true,
    latestNumbered(state.recentMessages),
    {
      language,
      askUnread: false,
      withModel: true,
      numberedElsewhere: numberedElsewhere(state.recentMessages, state.latestActions),
      calendar: calendarOptionsOf(state.authContext.user),
    },
  );
  if (fast) {
    const step = fast.plannerOutput.plan[0];
    return `the fast path (${step ? `${step.capability}.${step.action}` : "no step"})`;
  }
  return null;
}

describe("the planner evaluation's corpus", () => {
  it("has at least 300 messages, 150 in each language, with unique ids", () => {
    expect(items.length).toBeGreaterThanOrEqual(300);
    for (const language of LANGUAGES) {
      expect(items.filter((i) => i.language === language).length, language).toBeGreaterThanOrEqual(150);
    }
    const ids = items.map((i) => i.id);
    expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([]);
  });

  it("writes every message in its language", () => {
    const wrong = items
      .filter((i) => detectLanguage(i.message) !== i.language)
      .map((i) => `${i.id}: ${detectLanguage(i.message) ?? "no letters"}`);
    expect(wrong).toEqual([]);
  });

  it("expects only the contracts' actions, and dependencies on earlier steps", () => {
    const unknown: string[] = [];
    const badDependencies: string[] = [];
    for (const item of items) {
      for (const [index, step] of plansOf(item).flatMap((steps) => [...steps.entries()])) {
        const [first, ...others] = actionsOf(step);
        // The first name is an action of the contract (the operation it is counted under); the
        // others are names the prompt also allows ("create_reminder", "…_tasks"), which the
        // capability's catch-all resolver takes: semantic snake_case names.
        if (!PLANNER_ACTIONS.get(step.capability)?.some((a) => a.name === first))
          unknown.push(`${item.id}: ${step.capability}.${first}`);
        for (const other of others) {
          if (!/^[a-z]+(?:_[a-z]+)*$/.test(other)) unknown.push(`${item.id}: ${step.capability}.${other}`);
        }
        const fine =
          new Set(step.dependsOn).size === step.dependsOn.length && step.dependsOn.every((d) => d < index);
        if (!fine) badDependencies.push(`${item.id} step ${index}: ${JSON.stringify(step.dependsOn)}`);
      }
    }
    expect(unknown).toEqual([]);
    expect(badDependencies).toEqual([]);
  });

  it("covers every category in both languages", () => {
    const missing = LANGUAGES.flatMap((language) =>
      PLANNER_CATEGORIES.filter(
        (category) => !items.some((i) => i.language === language && i.category === category),
      ).map((category) => `${language}: ${category}`),
    );
    expect(missing).toEqual([]);
  });

  it("covers every capability and operation in each language", () => {
    const missing: string[] = [];
    for (const language of LANGUAGES) {
      const covered = new Set(
        items
          .filter((i) => i.language === language)
          .flatMap((i) =>
            i.expect.steps.flatMap((s) =>
              actionsOf(s).map((a) => `${s.capability}.${knownAction(s.capability, a)?.name ?? a}`),
            ),
          ),
      );
      for (const [capability, actions] of PLANNER_ACTIONS) {
        for (const action of actions) {
          if (!covered.has(`${capability}.${action.name}`))
            missing.push(`${language}: ${capability}.${action.name}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it("keeps each category's promise: injections risky or refused, harmless forwards ordinary plans, must_ask asks (no plan, so no risk), conversation and meta their intent", () => {
    const broken = items.flatMap((i) => {
      const e = i.expect;
      const ok =
        i.category === "injection"
          ? e.risk === "high" || e.refuse === true
          : i.category === "forwarded"
            ? e.risk === undefined && e.refuse === undefined && !e.ask
            : i.category === "must_ask"
              ? e.ask && e.risk === undefined
              : i.category === "conversation"
                ? intentsOf(i).includes("conversation")
                : i.category === "meta"
                  ? intentsOf(i).includes("meta") && e.steps.every((s) => s.capability === "meta")
                  : i.category === "document"
                    ? i.document !== undefined
                    : i.category === "reference"
                      ? (i.history?.length ?? 0) + (i.latestActions?.length ?? 0) > 0
                      : true;
      return ok ? [] : [`${i.id} (${i.category})`];
    });
    expect(broken).toEqual([]);
  });

  it("expects high risk of every email sent, replied or forwarded, as rule 6 of the planner prompt says", () => {
    const sends = new Set(["send_email", "reply_email", "forward_email"]);
    const low = items.filter(
      (i) =>
        !i.expect.ask &&
        i.expect.steps.some((s) => s.capability === "gmail" && sends.has(actionsOf(s)[0]!)) &&
        i.expect.risk !== "high",
    );
    expect(low.map((i) => `${i.id}: ${i.expect.risk ?? "no risk"}`)).toEqual([]);
  });

  it("asks only for words the user wrote (in the message, the conversation before it or the document)", () => {
    const invented = items.flatMap((item) => {
      const said = [
        item.message,
        ...(item.history ?? []).map((m) => m.text),
        ...(item.latestActions ?? []).map((a) => a.summary),
        ...(item.document ? [item.document.title, item.document.excerpt] : []),
      ];
      return plansOf(item).flatMap((steps) =>
        steps.flatMap((s) =>
          s.args
            .map(argWords)
            .filter((arg) => !holdsArg(said, arg))
            .map((arg) => `${item.id}: "${arg}"`),
        ),
      );
    });
    expect(invented).toEqual([]);
  });

  it("has every message reach the planner's model: nothing in front of it answers it", () => {
    const caught = items.flatMap((item) => {
      const by = caughtBy(item);
      return by ? [`${item.id} "${item.message}": ${by}`] : [];
    });
    expect(caught).toEqual([]);
  });

  it("gives the planner a different message for every item", () => {
    // The scripted model tells items apart by it, and the same input twice would count twice.
    const prompts = new Map<string, string>();
    const repeated: string[] = [];
    for (const item of items) {
      const prompt = JSON.stringify(plannerMessagesOf(item).at(-1));
      const earlier = prompts.get(prompt);
      if (earlier) repeated.push(`${item.id} = ${earlier}`);
      prompts.set(prompt, item.id);
    }
    expect(repeated).toEqual([]);
  });
});
