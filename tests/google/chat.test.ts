// "connect Google" / "disconnect Google" in chat, and the capability check's connect message, through
// the real graph (PostgresSaver on PGlite) with the Google connection injected; no LLM unless a test
// scripts the planner.
import { randomBytes, randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/env.js";
import { createCheckpointer } from "../../src/db/checkpointer.js";
import { PgConversationStore } from "../../src/db/repositories/conversationStore.js";
import { PgUserRepository } from "../../src/db/repositories/userRepository.js";
import { TurnBufferedSaver } from "../../src/db/turnBufferedSaver.js";
import { createCoreCapabilities } from "../../src/graph/capabilities/core/coreCapabilities.js";
import { buildMemoGraph } from "../../src/graph/memoGraph.js";
import { MemoRuntime } from "../../src/graph/memoRuntime.js";
import { recognizeGoogleCommand } from "../../src/nlu/googleCommands.js";
import { createLLMService } from "../../src/services/llm/index.js";
import { PgGoogleAccountRepository } from "../../src/db/repositories/googleAccountRepository.js";
import { createGoogleAccounts } from "../../src/services/google/googleAccountService.js";
import type { GoogleConnector } from "../../src/services/google/types.js";
import { MemoryService } from "../../src/services/memory/index.js";
import { pgliteBackend } from "../support/db.js";
import { captureLogs } from "../support/logs.js";
import { plan, step } from "../support/memoHarness.js";
import { ScriptedOpenAI } from "../support/scriptedOpenAI.js";
import {
  completeLink,
  connectThroughBrowser,
  continueLink,
  PHONE_A,
  PHONE_B,
  startGoogleTestbed,
  type GoogleTestbed,
} from "./testbed.js";

describe("recognizing connect / disconnect Google", () => {
  it.each([
    "connect Google",
    "Connect google!",
    "connect my google account",
    "please connect my Google account",
    "connect to google",
    "reconnect google",
    "link my gmail",
    "can you connect google calendar",
    "חבר גוגל",
    "חבר את גוגל",
    "תחבר את חשבון הגוגל שלי",
    "לחבר גוגל בבקשה",
    "אני רוצה לחבר את הגוגל",
    "תתחבר לגוגל",
    "חבר ג׳ימייל",
  ])("%s → connect", (text) => {
    expect(recognizeGoogleCommand(text)).toBe("connect_google");
  });

  it.each([
    "disconnect Google",
    "Disconnect my Google account.",
    "disconnect from google",
    "unlink gmail",
    "sign out of google",
    "remove my google account",
    "נתק גוגל",
    "נתק את גוגל",
    "תנתק את חשבון הגוגל שלי",
    "להתנתק מגוגל",
    "בטל את החיבור לגוגל",
  ])("%s → disconnect", (text) => {
    expect(recognizeGoogleCommand(text)).toBe("disconnect_google");
  });

  it.each([
    "google",
    "what is google",
    "connect google calendar to the meeting room display",
    "search google for flights",
    "email Dana that google is connected",
    "remind me to connect google tomorrow",
    "חבר אותי לדנה",
    "מה זה גוגל",
    "connect",
  ])("%s → not a command", (text) => {
    expect(recognizeGoogleCommand(text)).toBeNull();
  });
});

/** Memo's graph as createMemoRuntime composes it, with `google` injected (FAST_PATH off). */
async function memoWith(bed: GoogleTestbed, google: GoogleConnector | undefined, llm?: ScriptedOpenAI) {
  const pool = bed.db.pool;
  const { logger } = captureLogs();
  const config = loadConfig({
    ...(llm ? { OPENAI_BASE_URL: llm.baseUrl } : {}),
    LLM_MAX_RETRIES: "0",
    LLM_TIMEOUT_MS: "3000",
    FAST_PATH: "off",
    MEMORY_MODE: "rules",
  });
  const users = new PgUserRepository(pool);
  const memory = new MemoryService(new PgConversationStore(pool), { clock: bed.clock.now, logger });
  const capabilities = createCoreCapabilities(google ? { google } : {}).register({
    capability: "gmail",
    resolvers: [
      {
        name: "FakeGmail",
        capability: "gmail",
        actions: [],
        resolve: () => Promise.reject(new Error("must not run: Gmail is blocked")),
      },
    ],
    executor: {
      name: "FakeGmailExecutor",
      capability: "gmail",
      execute: () => Promise.reject(new Error("must not run: Gmail is blocked")),
    },
  });
  const saver = new TurnBufferedSaver(await createCheckpointer("postgres", pool));
  let ids = 0;
  const graph = buildMemoGraph(
    {
      users,
      memory,
      llm: llm ? createLLMService(config, logger) : null,
      capabilities,
      logger,
      clock: bed.clock.now,
      newId: () => `hitl-${++ids}`,
      defaultTimeZone: config.defaultTimeZone,
      fastPath: config.fastPath,
      ...(google ? { google } : {}),
    },
    saver,
  );
  const runtime = new MemoRuntime({
    graph,
    checkpointer: saver,
    memory,
    users,
    logger,
    clock: bed.clock.now,
    newId: randomUUID,
  });
  return (phone: string, text: string) => runtime.invokeMemoGraph(phone, text);
}

/** The connect link in a reply. */
function linkIn(text: string): string {
  const match = /https:\/\/memo\.test\/auth\/google\/start\?t=\S+/.exec(text);
  if (!match) throw new Error(`no connect link in: ${text}`);
  return match[0];
}

describe("connect and disconnect Google in chat", () => {
  let bed: GoogleTestbed;
  let server: ScriptedOpenAI | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
    await bed?.close();
  });

  it("sends a working link, then says it is connected; disconnects and says so (English, no LLM)", async () => {
    bed = await startGoogleTestbed(pgliteBackend);
    const say = await memoWith(bed, bed.accounts);

    const reply = await say(PHONE_A, "connect Google");
    expect(reply.status).toBe("completed");
    expect(reply.text).toMatch(
      /^Open this link to connect your Google account \(it works once, for 15 minutes\):\nhttps:\/\/memo\.test\/auth\/google\/start\?t=/,
    );
    // The link in the chat is the real thing: through Google's consent it connects, and the chat is told.
    expect((await completeLink(bed, linkIn(reply.text))).status).toBe(200);
    expect(await bed.googleConnected(PHONE_A)).toBe(true);
    expect(bed.notified).toEqual([
      {
        phone: PHONE_A,
        text: "Google is connected ✅ (user@example.com) I can now use your calendar and Gmail.",
      },
    ]);

    expect((await say(PHONE_A, "connect my google account")).text).toBe(
      'Your Google account is already connected ✅ To connect a different one, say "disconnect Google" first.',
    );
    expect((await say(PHONE_A, "Disconnect Google")).text).toBe(
      'Google is disconnected: I deleted your Google tokens. Say "connect Google" to connect again.',
    );
    expect(await bed.googleConnected(PHONE_A)).toBe(false);
    expect(await bed.accounts.status(PHONE_A)).toBe("none");
    expect(bed.google.revoked).toHaveLength(1);
    expect((await say(PHONE_A, "disconnect google")).text).toBe(
      "Your Google account wasn't connected, so there was nothing to disconnect.",
    );
  });

  it("does the same in Hebrew", async () => {
    bed = await startGoogleTestbed(pgliteBackend);
    const say = await memoWith(bed, bed.accounts);

    const reply = await say(PHONE_B, "חבר את גוגל");
    expect(reply.text).toMatch(/^אפשר לפתוח את הקישור הזה כדי לחבר את חשבון הגוגל שלך/);
    expect((await say(PHONE_B, "נתק גוגל")).text).toBe("חשבון הגוגל שלך לא היה מחובר, אז לא היה מה לנתק.");

    expect((await completeLink(bed, linkIn(reply.text))).status).toBe(200);
    expect(bed.notified.map((n) => n.text)).toEqual([
      "גוגל מחובר ✅ (user@example.com) עכשיו אני יכול להשתמש ביומן וב-Gmail שלך.",
    ]);
    expect((await say(PHONE_B, "חבר גוגל")).text).toBe(
      'חשבון הגוגל שלך כבר מחובר ✅ כדי לחבר חשבון אחר, כתבו קודם "נתק גוגל".',
    );
    expect((await say(PHONE_B, "תנתק את חשבון הגוגל שלי")).text).toBe(
      'גוגל נותק: מחקתי את הגישה לחשבון הגוגל שלך. כתבו "חבר גוגל" כדי לחבר שוב.',
    );
    expect(await bed.googleConnected(PHONE_B)).toBe(false);
  });

  it("says Google is not set up when this server has no Google OAuth client", async () => {
    bed = await startGoogleTestbed(pgliteBackend);
    const unconfigured = createGoogleAccounts({
      accounts: new PgGoogleAccountRepository(bed.db.pool),
      config: loadConfig({}),
      logger: captureLogs().logger,
      secret: randomBytes(32),
    });
    for (const google of [unconfigured, undefined]) {
      const say = await memoWith(bed, google);
      expect((await say(PHONE_A, "connect google")).text).toMatch(
        /^Google isn't set up on this Memo server \(GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET/,
      );
      expect((await say(PHONE_B, "חבר גוגל")).text).toMatch(/^גוגל לא מוגדר בשרת הממו הזה/);
    }
  });
});

describe("capability check: Gmail without Google", () => {
  let bed: GoogleTestbed;
  let server: ScriptedOpenAI;
  afterEach(async () => {
    await server?.close();
    await bed?.close();
  });

  it("answers with a connect link right away, in the user's language", async () => {
    bed = await startGoogleTestbed(pgliteBackend);
    server = await ScriptedOpenAI.start();
    const say = await memoWith(bed, bed.accounts, server);

    server.enqueue(plan({ steps: [step("s1", "gmail", "search_email")] }));
    const reply = await say(PHONE_A, "any new email from Dana?");
    expect(reply.text).toMatch(
      /^To use email I need access to your Google account\. Connect it here \(the link works once, for 15 minutes\):\nhttps:\/\/memo\.test\/auth\/google\/start\?t=/,
    );
    expect((await continueLink(bed, linkIn(reply.text))).status).toBe(302);

    server.enqueue(plan({ steps: [step("s1", "gmail", "search_email")] }));
    expect((await say(PHONE_B, "יש מייל חדש מדנה?")).text).toMatch(
      /^כדי להשתמש במייל אני צריך גישה לחשבון הגוגל שלך\. אפשר לחבר אותו כאן/,
    );
  });

  it("says access was lost, with a reconnect link, once Google refused the tokens", async () => {
    bed = await startGoogleTestbed(pgliteBackend);
    server = await ScriptedOpenAI.start();
    const say = await memoWith(bed, bed.accounts, server);
    await connectThroughBrowser(bed, PHONE_A);
    expect(await bed.accounts.markLost(PHONE_A)).toBe(true);

    server.enqueue(plan({ steps: [step("s1", "gmail", "search_email")] }));
    const reply = await say(PHONE_A, "any new email from Dana?");
    expect(reply.text).toMatch(
      /^I lost access to your Google account \(the permission was revoked or expired\)\. To use email again, reconnect here/,
    );
    // The reconnect link works and the connection is back.
    expect((await completeLink(bed, linkIn(reply.text))).status).toBe(200);
    expect(await bed.accounts.status(PHONE_A)).toBe("connected");
  });

  it("keeps the plain connect text when no link can be made", async () => {
    bed = await startGoogleTestbed(pgliteBackend);
    server = await ScriptedOpenAI.start();
    const say = await memoWith(bed, undefined, server);
    server.enqueue(plan({ steps: [step("s1", "gmail", "search_email")] }));
    expect((await say(PHONE_A, "any new email from Dana?")).text).toBe(
      'To use email I need access to your Google account. Say "connect Google" and I\'ll send you a link.',
    );
  });
});
