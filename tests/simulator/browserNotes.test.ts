// The acceptance: notes work in the simulator with no OpenAI key (search by words). What
// `npm start` gets on a fresh machine: no OpenAI, no Meta, the embedded database; the user types in
// Chromium, keeps two notes, finds one again with a quote, and sees what Memo remembers.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningService } from "../../src/app/server.js";
import { chromiumAvailable, launchChromium } from "../support/browser.js";
import { startLocalService, type LocalService } from "../support/localService.js";

const PHONE = "972501234567";

describe.skipIf(!chromiumAvailable)("notes in the simulator, with no OpenAI key", () => {
  let local: LocalService | undefined;
  let service: RunningService;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    local = await startLocalService("sim-notes");
    service = local.service;
    browser = await launchChromium();
    page = await browser.newPage();
    await page.goto(`${service.simulatorUrl!}?phone=${PHONE}`);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await local?.stop();
  });

  const memoMessages = () => page.locator('[data-testid="message"][data-from="memo"]');
  const memoSays = (text: string) =>
    expect.poll(() => memoMessages().last().innerText(), { timeout: 15_000 }).toContain(text);
  const type = async (text: string) => {
    await page.getByTestId("composer-input").fill(text);
    await page.getByTestId("send-button").click();
  };

  it("keeps notes, finds one by words with a quote, lists them, and tells what it remembers", async () => {
    await type("note: the wifi password at the cabin is PineTree77");
    await memoSays("📝 Noted: “the wifi password at the cabin is PineTree77”");
    await type("פתק: הקוד של הלוקר בבריכה 4412");
    await memoSays("📝 רשמתי");

    await type("search notes for cabin wifi");
    await memoSays("🔎 From your notes:");
    await memoSays("“the wifi password at the cabin is PineTree77”");

    await type("חפש בפתקים לוקר");
    await memoSays("הקוד של הלוקר בבריכה 4412");

    await type("my notes");
    await memoSays("🗂️ Your notes (2):");

    await type("I prefer morning meetings");
    await memoSays("🧠 Got it, I'll keep that in mind");
    await service.memo.longTerm.idle();
    await type("what do you remember about me?");
    await memoSays("🧠 What I remember about you:");
    await memoSays("morning meetings");

    const { rows } = await service.db.pool.query<{ content: string }>(
      "SELECT content FROM notes WHERE user_phone = $1 ORDER BY seq",
      [PHONE],
    );
    expect(rows.map((r) => r.content)).toEqual([
      "the wifi password at the cabin is PineTree77",
      "הקוד של הלוקר בבריכה 4412",
    ]);
  });
});
