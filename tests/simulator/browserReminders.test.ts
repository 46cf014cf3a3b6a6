// The acceptance, as a new developer would try it: `npm start` with no accounts, the
// simulator in the browser, "remind me in 2 minutes to stretch", and the reminder arrives on
// time, once. The service's clock is a fake one, so two minutes pass in an instant.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/env.js";
import { startService, type RunningService } from "../../src/app/server.js";
import { chromiumAvailable, launchChromium } from "../support/browser.js";
import { fakeClock } from "../support/clock.js";
import { captureLogs } from "../support/logs.js";
import { freePort } from "../support/process.js";

const MINUTE = 60_000;

describe.skipIf(!chromiumAvailable)("a reminder in the simulator, with no accounts", () => {
  const clock = fakeClock(Date.now());
  let dir: string;
  let service: RunningService;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "memo-sim-reminder-"));
    // What `npm start` gets on a fresh machine: no OpenAI, no Meta, the embedded database.
    const config = loadConfig({
      NODE_ENV: "test",
      PORT: String(await freePort()),
      HOST: "127.0.0.1",
      DATA_DIR: dir,
    });
    service = await startService(config, { logger: captureLogs().logger, memo: { clock: clock.now } });
    browser = await launchChromium();
    page = await browser.newPage();
    await page.goto(`${service.simulatorUrl!}?phone=972501234567`);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await service?.shutdown("test over");
    await rm(dir, { recursive: true, force: true });
  });

  const memoMessages = () => page.locator('[data-testid="message"][data-from="memo"]');
  const reminders = () => memoMessages().filter({ hasText: "⏰ Reminder: stretch" });
  const memoSays = (text: string) =>
    expect.poll(() => memoMessages().last().innerText(), { timeout: 15_000 }).toContain(text);

  it('"remind me in 2 minutes to stretch" rings two minutes later, once, with Done and Snooze', async () => {
    await page.getByTestId("composer-input").fill("remind me in 2 minutes to stretch");
    await page.getByTestId("send-button").click();
    await memoSays("stretch");
    expect(await reminders().count()).toBe(0);

    clock.advance(MINUTE + 30_000);
    await service.scheduler.runDue();
    expect(await reminders().count()).toBe(0);

    clock.advance(30_000);
    await service.scheduler.runDue();
    await expect.poll(() => reminders().count(), { timeout: 15_000 }).toBe(1);
    const ring = reminders().first();
    await expect.poll(() => ring.locator('[data-testid="message-button"]').count()).toBe(2);

    // More passes, later: still one.
    for (let i = 0; i < 3; i++) {
      clock.advance(MINUTE);
      await service.scheduler.runDue();
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await reminders().count()).toBe(1);

    await ring.locator('[data-testid="message-button"]').first().click();
    await memoSays("✅ Done: stretch");
  });
});
