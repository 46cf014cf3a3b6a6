// The simulator in real headless Chromium, against the whole service: what a new developer sees.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningService } from "../../src/app/server.js";
import { chromiumAvailable, launchChromium } from "../support/browser.js";
import { plan, step } from "../support/memoHarness.js";
import { ScriptedOpenAI } from "../support/scriptedOpenAI.js";
import { startLocalService, type LocalService } from "../support/localService.js";

describe.skipIf(!chromiumAvailable)("the simulator in Chromium", () => {
  let llm: ScriptedOpenAI;
  let local: LocalService | undefined;
  let service: RunningService;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    llm = await ScriptedOpenAI.start();
    local = await startLocalService("sim", {
      WHATSAPP_APP_SECRET: "browser-test-secret",
      OPENAI_BASE_URL: llm.baseUrl,
      // Summaries and facts by rules: the scripted replies are for the turns.
      MEMORY_MODE: "rules",
      LLM_MAX_RETRIES: "0",
    });
    service = local.service;
    browser = await launchChromium();
    page = await browser.newPage();
    await page.goto(`${service.simulatorUrl!}?phone=972501234567`);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await local?.stop();
    await llm?.close();
  });

  const memoMessages = () => page.locator('[data-testid="message"][data-from="memo"]');
  const send = async (text: string) => {
    await page.getByTestId("composer-input").fill(text);
    await page.getByTestId("send-button").click();
  };

  it("is served where npm start says, with the service's own webhook behind it", () => {
    expect(service.simulatorUrl).toBe(`${service.url}/dev/whatsapp`);
  });

  it('typing "what can you do" gets Memo\'s reply in the chat, and the message is read', async () => {
    await send("what can you do");
    await expect.poll(() => memoMessages().count(), { timeout: 15_000 }).toBeGreaterThan(0);
    await expect
      .poll(() => memoMessages().last().innerText(), { timeout: 15_000 })
      .toContain("Here's what I can do for you");
    const mine = page.locator('[data-testid="message"][data-from="user"]').last();
    await expect
      .poll(() => mine.getByTestId("ticks").getAttribute("data-status"), { timeout: 15_000 })
      .toBe("read");
  });

  it("tapping a button of a question answers it", async () => {
    llm.enqueue(plan({ riskLevel: "high", steps: [step("s1", "general", "answer_question")] }), {
      text: "All right, it's done.",
    });
    const before = await memoMessages().count();
    await send("clear my whole schedule");
    await expect.poll(() => memoMessages().count(), { timeout: 15_000 }).toBe(before + 1);
    const question = memoMessages().last();
    const yes = question.locator('[data-testid="message-button"][data-id="yes"]');
    await expect.poll(() => yes.count(), { timeout: 5_000 }).toBe(1);
    await yes.click();
    await expect
      .poll(() => memoMessages().last().innerText(), { timeout: 15_000 })
      .toContain("All right, it's done.");
  });

  it("shows Hebrew right to left", async () => {
    await send("מה אתה יודע לעשות?");
    await expect
      .poll(() => memoMessages().last().innerText(), { timeout: 15_000 })
      .toContain("הנה מה שאני יכול לעשות בשבילך");
    // :dir() is the direction the browser computed for the bubble's text (dir="auto").
    const rtl = await memoMessages()
      .last()
      .getByTestId("message-text")
      .evaluate((el: unknown) => (el as { matches(selector: string): boolean }).matches(":dir(rtl)"));
    expect(rtl).toBe(true);
  });
});
