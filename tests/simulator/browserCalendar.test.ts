// The acceptance: with no Google account, the built-in calendar serves calendar requests
// end to end in the simulator. `npm start`'s configuration with an OpenAI-compatible server (the
// scripted one) standing in for OpenAI; the user types in Chromium, Memo adds the event to the
// built-in calendar, lists it (the no-LLM fast path), warns of a conflict, and offers the event in
// the user's private iCalendar feed.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { calendarFeedUrl } from "../../src/transport/http/calendarFeedRoute.js";
import { PgLocalSecretRepository } from "../../src/db/repositories/localSecretRepository.js";
import { loadSecretKey } from "../../src/services/google/secrets.js";
import { type RunningService } from "../../src/app/server.js";
import { chromiumAvailable, launchChromium } from "../support/browser.js";
import { fakeClock } from "../support/clock.js";
import { captureLogs } from "../support/logs.js";
import { plan, step } from "../support/memoHarness.js";
import { ScriptedOpenAI } from "../support/scriptedOpenAI.js";
import { startLocalService, type LocalService } from "../support/localService.js";

const PHONE = "972501234567";

describe.skipIf(!chromiumAvailable)("the built-in calendar in the simulator, with no Google account", () => {
  // Thursday 5 March 2026, 12:00 in Jerusalem.
  const clock = fakeClock("2026-03-05T10:00:00Z");
  let local: LocalService | undefined;
  let llm: ScriptedOpenAI;
  let service: RunningService;
  let browser: Browser;
  let page: Page;
  const logs = captureLogs();

  beforeAll(async () => {
    llm = await ScriptedOpenAI.start();
    local = await startLocalService(
      "sim-calendar",
      {
        OPENAI_BASE_URL: llm.baseUrl,
        // Summaries and facts by rules: the scripted replies are for the turns.
        MEMORY_MODE: "rules",
        LLM_MAX_RETRIES: "0",
      },
      { logger: logs.logger, memo: { clock: clock.now } },
    );
    service = local.service;
    // An Israeli number: onboarding takes Asia/Jerusalem without asking.
    await service.users.getOrCreate(PHONE, { timeZone: "Asia/Jerusalem", language: "en" });
    browser = await launchChromium();
    page = await browser.newPage();
    await page.goto(`${service.simulatorUrl!}?phone=${PHONE}`);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await local?.stop();
    await llm?.close();
  });

  const memoMessages = () => page.locator('[data-testid="message"][data-from="memo"]');
  const memoSays = (text: string) =>
    expect.poll(() => memoMessages().last().innerText(), { timeout: 15_000 }).toContain(text);
  const type = async (text: string) => {
    await page.getByTestId("composer-input").fill(text);
    await page.getByTestId("send-button").click();
  };

  it("adds an event, shows it for tomorrow, warns of a clash, and puts it in the private feed", async () => {
    llm.enqueue(plan({ steps: [step("s1", "calendar", "create_event")] }), {
      json: { operation: "create", summary: "Dentist", start: "tomorrow at 10:00" },
    });
    await type("Put the dentist in my calendar tomorrow at 10");
    await memoSays("Added to your calendar");
    await memoSays("Dentist");

    // No LLM: the fast path reads the built-in calendar.
    const calls = llm.requests.length;
    await type("what's on my calendar tomorrow?");
    await memoSays("10:00");
    await memoSays("Dentist");
    expect(llm.requests.length).toBe(calls);

    // A second event at the same time: Memo names the clash and asks first.
    llm.enqueue(plan({ steps: [step("s1", "calendar", "create_event")] }), {
      json: { operation: "create", summary: "Call with Noa", start: "tomorrow at 10:30" },
    });
    await type("Add a call with Noa tomorrow at 10:30");
    await memoSays("Dentist");
    await type("yes");
    await memoSays("Call with Noa");

    const { rows } = await service.db.pool.query<{ summary: string }>(
      "SELECT summary FROM calendar_events WHERE user_phone = $1 ORDER BY start_at",
      [PHONE],
    );
    expect(rows.map((r) => r.summary)).toEqual(["Dentist", "Call with Noa"]);

    // The private feed any calendar app can subscribe to, offered in the chat, has both events.
    await type("calendar link");
    await memoSays("private calendar link");
    const offered = /(http\S+\.ics)/.exec(await memoMessages().last().innerText())?.[1];
    const secret = await loadSecretKey(
      new PgLocalSecretRepository(service.db.pool),
      { env: "test" },
      logs.logger,
    );
    expect(offered).toBe(calendarFeedUrl(service.url, PHONE, secret));
    const feed = await fetch(offered!);
    expect(feed.status).toBe(200);
    expect(feed.headers.get("content-type")).toContain("text/calendar");
    const ics = await feed.text();
    expect(ics).toContain("SUMMARY:Dentist");
    expect(ics).toContain("SUMMARY:Call with Noa");
  });
});
