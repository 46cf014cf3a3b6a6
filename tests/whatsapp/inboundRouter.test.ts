// Every inbound message goes one way: the InboundRouter decides who answers it, and whoever
// answers leaves the user's message and the reply in the conversation window exactly once.
import { describe, expect, it } from "vitest";
import { PgTaskRepository } from "../../src/db/repositories/taskRepository.js";
import { t } from "../../src/messages/index.js";
import { isPlanner } from "../support/memoHarness.js";
import {
  echoLLM,
  scriptedHarnesses,
  textMessage,
  waId,
  type WaMessage,
  type WhatsAppHarness,
} from "../support/whatsappHarness.js";

const { server, harness } = scriptedHarnesses();

type Language = "en" | "he";

/** One kind of message: who must answer it, the message, and what the answer did for the user. */
interface Kind {
  kind: string;
  route: "onboarding" | "timeZone" | "reminder" | "settings" | "household" | "graph";
  /** Planner calls the message costs: none on the routes before the graph and on the fast path. */
  plannerCalls: "none" | "some";
  /** A user already onboarded (default), or a phone seen for the first time. */
  newUser?: boolean;
  /** The message, sent now (after any setup of the user's data). */
  message: (h: WhatsAppHarness, phone: string, language: Language) => Promise<WaMessage>;
  /** What the user's words were, as the window keeps them (default: the text's body). */
  said?: (language: Language) => string;
  /** What the user sees changed (beyond the reply). */
  check: (h: WhatsAppHarness, phone: string, reply: string, language: Language) => Promise<void>;
}

const text = (words: Record<Language, string>) => (h: WhatsAppHarness, phone: string, language: Language) =>
  Promise.resolve(textMessage(phone, words[language], h.clock.now()));

const KINDS: Kind[] = [
  {
    kind: "a reminder's Done button",
    route: "reminder",
    plannerCalls: "none",
    message: async (h, phone, language) => {
      const tasks = new PgTaskRepository(h.db.pool);
      const task = await tasks.create(phone, `test:${waId()}`, {
        text: "water the plants",
        timeZone: "Asia/Jerusalem",
      });
      return {
        from: phone,
        id: waId(),
        timestamp: String(Math.floor(h.clock.now() / 1000)),
        type: "interactive",
        interactive: {
          type: "button_reply",
          button_reply: { id: `rem:done:${task.id}`, title: t(language, "reminder.buttonDone") },
        },
      };
    },
    said: (language) => t(language, "reminder.buttonDone"),
    check: async (h, phone, reply, language) => {
      expect(reply).toBe(t(language, "reminder.done", { text: "water the plants" }));
      const open = await new PgTaskRepository(h.db.pool).list(phone, { completed: false });
      expect(open.map((task) => task.text)).not.toContain("water the plants");
    },
  },
  {
    kind: "a settings command",
    route: "settings",
    plannerCalls: "none",
    message: text({ en: "stop the morning summary", he: "תפסיק את סיכום הבוקר" }),
    check: async (h, phone, reply, language) => {
      expect(reply).toBe(t(language, "digest.off"));
      expect((await h.memo.users.get(phone))?.digestEnabled).toBe(false);
    },
  },
  {
    kind: "a time-zone command",
    route: "timeZone",
    plannerCalls: "none",
    message: text({ en: "change my time zone to London", he: "שנה את אזור הזמן ללונדון" }),
    check: async (h, phone, reply, language) => {
      expect(reply).toContain(language === "en" ? "your time zone is now" : "אזור הזמן שלך הוא עכשיו");
      expect((await h.memo.users.get(phone))?.timeZone).toBe("Europe/London");
    },
  },
  {
    kind: "a household command",
    route: "household",
    plannerCalls: "none",
    message: text({ en: "my household", he: "משק הבית שלי" }),
    check: (_h, _phone, reply, language) => {
      // Nobody shares this user's household yet, and the household answers so.
      expect(reply).toBe(t(language, "household.none"));
      return Promise.resolve();
    },
  },
  {
    kind: "a first contact (onboarding)",
    route: "onboarding",
    plannerCalls: "none",
    newUser: true,
    message: text({ en: "hi", he: "שלום" }),
    check: async (h, phone, reply, language) => {
      expect(reply).toContain(t(language, "onboarding.welcome"));
      expect((await h.memo.users.get(phone))?.language).toBe(language);
    },
  },
  {
    kind: "a fast-path command",
    route: "graph",
    plannerCalls: "none",
    message: text({ en: "create list camping", he: "צור רשימה קמפינג" }),
    check: (_h, _phone, reply, language) => {
      expect(reply).toContain(language === "en" ? "Created the list *camping*" : "קמפינג");
      return Promise.resolve();
    },
  },
  {
    kind: "free text for the planner",
    route: "graph",
    plannerCalls: "some",
    message: text({ en: "what is the capital of France?", he: "מה הבירה של צרפת?" }),
    check: (_h, _phone, reply, language) => {
      expect(reply).toBe(
        `echo: ${language === "en" ? "what is the capital of France?" : "מה הבירה של צרפת?"}`,
      );
      return Promise.resolve();
    },
  },
];

/** A phone of the language's country: one time zone each, so a first contact asks nothing more. */
const PHONES: Record<Language, string> = { en: "447700900123", he: "972501112233" };

describe("the inbound router: one way in for every message", () => {
  const cases = (["en", "he"] as const).flatMap((language) => KINDS.map((kind) => ({ ...kind, language })));

  it.each(cases)(
    "$kind ($language) is answered by the $route route, its message and reply in the window once",
    async (kind) => {
      const { language } = kind;
      const h = await harness();
      echoLLM(server());
      const phone = PHONES[language];
      if (!kind.newUser) await h.knownUser(phone, language);
      const message = await kind.message(h, phone, language);
      const plannerBefore = server().requests.filter(isPlanner).length;

      await h.deliver(message);
      await h.graphApi.waitForSent(1);
      await h.idle();

      // Which route answered, said once for the one message this harness took.
      const routes = h
        .logs()
        .filter((line) => line.event === "INBOUND_ROUTE")
        .map((line) => line.route);
      expect(routes).toEqual([kind.route]);
      const plannerCalls = server().requests.filter(isPlanner).length - plannerBefore;
      if (kind.plannerCalls === "none") expect(plannerCalls).toBe(0);
      else expect(plannerCalls).toBeGreaterThan(0);

      // One reply, what the route said.
      const replies = h.graphApi.textsTo(phone);
      expect(replies).toHaveLength(1);
      const reply = replies[0]!;
      await kind.check(h, phone, reply, language);

      // The window holds the user's words once, then the reply once, linked to what was sent.
      await h.memo.memory.load(phone);
      const window = h.memo.memory.getRecentMessages(phone);
      const said = kind.said?.(language) ?? (message.text as { body: string }).body;
      const mine = window.filter((m) => m.role === "user");
      expect(mine.map((m) => [m.content, m.whatsappMessageId])).toEqual([[said, message.id]]);
      const answers = window.filter((m) => m.role === "assistant");
      expect(answers.map((m) => m.content)).toEqual([reply]);
      expect(window.indexOf(mine[0]!)).toBeLessThan(window.indexOf(answers[0]!));
      expect(answers[0]!.whatsappMessageId).toBe(h.graphApi.sent.at(-1)!.id);
    },
  );
});
