// Every phrase the help texts, README.md and docs/NLU.md offer the user to type is typed into the
// simulator of a service with no language model, in one conversation, and must get a real answer
// in its language: not "Without a language model I understand…", not an error, not a "not found"
// of something the script set up. The phrases are read from the texts themselves, so a new example
// is tested as soon as it is written. One in-process service, one PGlite, no browser.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeCapabilities } from "../../src/graph/capabilities/core/coreExecutors.js";
import { type RunningService } from "../../src/app/server.js";
import type { SimMessage } from "../../src/transport/simulator/store.js";
import type { CapabilityName } from "../../src/types/index.js";
import { t } from "../../src/messages/index.js";
import { startLocalService, type LocalService } from "../support/localService.js";

const PHONE = "972501234567";
const ROOT = path.resolve(import.meta.dirname, "../..");
const ALL_CAPABILITIES: CapabilityName[] = ["database", "calendar", "gmail", "second-brain", "general"];

type Language = "he" | "en";
const languageOf = (text: string): Language => (/[\u05D0-\u05EA]/u.test(text) ? "he" : "en");

/** The phrases in straight double quotes: how the help texts and README mark what to type. */
function quoted(text: string): string[] {
  return [...text.matchAll(/"([^"]+)"/gu)].map((m) => m[1]!.replace(/\s+/gu, " ").trim());
}

/** README: the quoted commands of the paragraph on what works without a language model. */
function readmeExamples(readme: string): string[] {
  const start = readme.indexOf("Without a language model Memo still understands");
  if (start < 0) throw new Error("README.md no longer has its no-model paragraph: update this test");
  return quoted(readme.slice(start, readme.indexOf("\n\n", start)));
}

/**
 * docs/NLU.md: the English and Hebrew cells of the fast-path table, each alternative (" / ") that
 * is a whole phrase. Templates ("remind me <when> to <text>") are not typed as they are.
 */
function nluExamples(nlu: string): string[] {
  const start = nlu.indexOf("## Fast path");
  const table = nlu
    .slice(start)
    .split("\n")
    .filter((line) => line.startsWith("| ") && !/^\|\s*-/.test(line))
    .slice(1);
  if (start < 0 || table.length === 0)
    throw new Error("docs/NLU.md has no fast-path table: update this test");
  return table
    .flatMap((line) => line.split("|").slice(1, 3))
    .flatMap((cell) => cell.split(" / "))
    .map((phrase) => phrase.trim())
    .filter((phrase) => phrase && !/[<>…]/u.test(phrase));
}

/** Where the help texts leave the words to the user ("note: …"), the words this script types. */
const FILLED: Record<string, string> = {
  "note: the wifi password is …": "note: the wifi password is hunter2",
  "note: …": "note: the gate code is 1948",
  "forget that …": "forget that the wifi password is hunter2",
  "forget that…": "forget that the gate code is 1948",
  "פתק: הסיסמה של הוויפי היא …": "פתק: הסיסמה של הוויפי היא hunter2",
  "פתק: …": "פתק: הקוד של השער הוא 1948",
  "תשכח ש…": "תשכח שהסיסמה של הוויפי היא hunter2",
};

/**
 * Examples of the help Memo gives when a model is configured that only a model can answer, and why.
 * That help is shown with a model only; without one Memo lists the commands above.
 */
const MODEL_ONLY: Record<string, string> = {
  "every Sunday at 8:00": "shows that reminders repeat; alone it names no reminder, the model asks what",
  "כל יום ראשון ב-8:00": "shows that reminders repeat; alone it names no reminder, the model asks what",
  "what's my wifi password?": "a question answered from the notes by the model",
  "מה הסיסמה של הוויפי?": "a question answered from the notes by the model",
};

/**
 * Messages run before an example so it has something to act on, in this one conversation; each
 * example runs after all that come before it in the script (lists before "show", notes before
 * "search", tasks before "done 2").
 */
const SETUP: Record<string, string[]> = {
  "done 2": ["my tasks"],
  "delete task 3": ["add task water the plants", "my tasks"],
  "בוצע 2": ["המשימות שלי"],
  "תמחק משימה 3": ["תוסיף משימה להשקות את העציצים", "תוסיף משימה לקנות מתנה", "המשימות שלי"],
  // Deleting a list that has items asks first (and the script cancels), so the list stays.
  "delete shopping list": ["add milk to shopping list"],
  "delete the shopping list": ["add milk to shopping list"],
  "delete list shopping": ["add milk to shopping list"],
  "תמחק את רשימת קניות": ["תוסיף חלב לרשימת קניות"],
  "מחק את הרשימה קניות": ["תוסיף חלב לרשימת קניות"],
  // Undo takes back a change made just before it, so no other example loses what it needs.
  undo: ["add task buy stamps"],
  "undo that": ["add task buy stamps"],
  בטל: ["תוסיף משימה לקנות בולים"],
  "תבטל את זה": ["תוסיף משימה לקנות בולים"],
  תחזיר: ["תוסיף משימה לקנות בולים"],
};

/** The order examples run in: what makes things first, then what reads them, then what removes them. */
function stage(phrase: string): number {
  if (/^(?:forget everything|תשכח הכל)/iu.test(phrase)) return 3;
  if (/^(?:forget|תשכח|delete|תמחק|done|בוצע|סיימתי|disconnect|נתק)/iu.test(phrase)) return 2;
  if (
    /^(?:note|remember that|פתק|תזכור|תרשום|create list|new list|צור רשימה|רשימה חדשה|add|תוסיף|remind|תזכיר|nudge|נדנד)/iu.test(
      phrase,
    )
  )
    return 0;
  return 1;
}

/** Replies that mean the phrase did not work. */
function failures(language: Language): string[] {
  const prefix = (text: string) =>
    text.slice(0, text.indexOf("{") < 0 ? undefined : text.indexOf("{")).trim();
  return [
    t(language, "noLLM"),
    t(language, "internalError"),
    t(language, "llmFailed"),
    t(language, "clarifyQuestion"),
    t(language, "noLists"),
    t(language, "invalidFreeText"),
    t(language, "undo.nothing"),
    prefix(t(language, "noSuchNumber")),
    prefix(t(language, "notFoundTask")),
    prefix(t(language, "notFoundList")),
    prefix(t(language, "notes.notFound")),
    prefix(t(language, "notes.forgetNotFound")),
  ].filter(Boolean);
}

describe("every example the help, README and docs offer works in the simulator without a model", () => {
  let local: LocalService | undefined;
  let service: RunningService;

  beforeAll(async () => {
    local = await startLocalService("help-examples");
    service = local.service;
  }, 60_000);

  afterAll(async () => {
    await local?.stop();
  });

  const memoMessages = async (): Promise<SimMessage[]> => {
    const res = await fetch(`${service.simulatorUrl!}/api/messages?phone=${PHONE}`);
    const { messages } = (await res.json()) as { messages: SimMessage[] };
    return messages.filter((m) => m.direction === "out");
  };

  /** Sends `text` as the user; what Memo answered (its messages joined), and whether it asks back. */
  async function send(text: string): Promise<{ reply: string; asks: boolean }> {
    const before = (await memoMessages()).length;
    const res = await fetch(`${service.simulatorUrl!}/api/messages`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ phone: PHONE, type: "text", text }),
    });
    expect(res.status, text).toBe(200);
    const deadline = Date.now() + 20_000;
    while ((await memoMessages()).length === before) {
      if (Date.now() > deadline) throw new Error(`no reply to "${text}"`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await service.inFlight.drain(10_000);
    const answer = (await memoMessages()).slice(before);
    return { reply: answer.map((m) => m.text ?? "").join("\n"), asks: answer.some((m) => m.interactive) };
  }

  /** Sends `text`; a question Memo asks back is cancelled, so the next example starts afresh. */
  async function say(text: string): Promise<string> {
    const { reply, asks } = await send(text);
    if (asks) await send("cancel");
    return reply;
  }

  it("extracts the examples, then answers each one in its language", async () => {
    const readme = await readFile(path.join(ROOT, "README.md"), "utf8");
    const nlu = await readFile(path.join(ROOT, "docs/NLU.md"), "utf8");
    const sources: Record<string, string[]> = {
      "help without a model (en)": quoted(t("en", "noLLM")),
      "help without a model (he)": quoted(t("he", "noLLM")),
      "help with a model (en)": quoted(describeCapabilities("en", ALL_CAPABILITIES)),
      "help with a model (he)": quoted(describeCapabilities("he", ALL_CAPABILITIES)),
      "README.md": readmeExamples(readme),
      "docs/NLU.md": nluExamples(nlu),
    };
    // A change of markup that hides the examples must fail here, not pass with nothing tested.
    for (const [source, found] of Object.entries(sources))
      expect(found.length, `examples found in ${source}`).toBeGreaterThanOrEqual(
        source === "README.md" ? 8 : 6,
      );

    const unfilled = Object.values(sources)
      .flat()
      .filter((phrase) => phrase.includes("…") && !FILLED[phrase]);
    expect(unfilled, "examples with … need their words in FILLED").toEqual([]);

    const phrases = [...new Set(Object.values(sources).flat())]
      .filter((phrase) => !MODEL_ONLY[phrase])
      .map((phrase) => FILLED[phrase] ?? phrase);
    const script = phrases
      .map((phrase, i) => ({ phrase, i }))
      .sort((a, b) => stage(a.phrase) - stage(b.phrase) || a.i - b.i)
      .map(({ phrase }) => phrase);
    expect(script.length).toBeGreaterThanOrEqual(40);

    // What this service itself answers to "help" and in its welcome: no model, so the commands.
    const shown = [await say("hi"), await say("help"), await say("עזרה")];
    for (const help of shown) {
      expect(help).not.toContain("every Sunday");
      expect(quoted(help).filter((phrase) => MODEL_ONLY[phrase])).toEqual([]);
      expect(quoted(help).length).toBeGreaterThanOrEqual(6);
      for (const phrase of quoted(help))
        if (!script.includes(FILLED[phrase] ?? phrase)) script.push(FILLED[phrase] ?? phrase);
    }
    const broken: string[] = [];
    for (const phrase of script) {
      for (const setup of SETUP[phrase] ?? []) await say(setup);
      const reply = await say(phrase);
      const language = languageOf(phrase.replace(/wifi|google/giu, ""));
      const failed = failures(language).find((failure) => reply.includes(failure));
      const inLanguage =
        language === "he" ? /[\u05D0-\u05EA]/u.test(reply) : /^[^\u05D0-\u05EA]*[A-Za-z]/u.test(reply);
      if (failed || !inLanguage || !reply.trim())
        broken.push(`"${phrase}" → ${JSON.stringify(reply.slice(0, 160))}`);
    }
    expect(broken).toEqual([]);
  }, 600_000);
});
