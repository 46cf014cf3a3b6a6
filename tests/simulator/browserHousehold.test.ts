// A household in the simulator, as two people try it on one machine with no accounts and no
// language model: Yossi (phone A, given no name in the page) invites Dana (phone B), who has never
// written to Memo, so the invitation reaches her as a template with Accept / Decline quick replies;
// she taps Accept, Yossi shares his shopping list, and each sees what the other added. The two
// phones are switched in the page's header, the way a developer would.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningService } from "../../src/app/server.js";
import { chromiumAvailable, launchChromium } from "../support/browser.js";
import { startLocalService, type LocalService } from "../support/localService.js";

const YOSSI = "972521110001";
const DANA = "972501234567";

describe.skipIf(!chromiumAvailable)("a household of two phones in the simulator", () => {
  let local: LocalService | undefined;
  let service: RunningService;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    local = await startLocalService("sim-household");
    service = local.service;
    browser = await launchChromium();
    page = await browser.newPage();
    await page.goto(`${service.simulatorUrl!}?phone=${YOSSI}`);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await local?.stop();
  });

  const memoMessages = () => page.locator('[data-testid="message"][data-from="memo"]');
  /** Everything Memo said in the open chat from the `from`-th of its messages on. */
  const memoSaidSince = async (from: number) =>
    (await memoMessages().allInnerTexts()).slice(from).join("\n---\n");
  const memoSays = (text: string, from = 0) =>
    expect.poll(() => memoSaidSince(from), { timeout: 15_000 }).toContain(text);
  /** Sends `text` and waits for Memo's answer to contain each of `replies`. */
  const say = async (text: string, ...replies: string[]) => {
    const before = await memoMessages().count();
    await page.getByTestId("composer-input").fill(text);
    await page.getByTestId("send-button").click();
    for (const reply of replies) await memoSays(reply, before);
  };
  /** Switches the page to another phone and waits for its conversation. */
  const switchTo = async (phone: string) => {
    await page.getByTestId("phone-select").selectOption(phone);
    await expect.poll(() => page.getByTestId("chat").getAttribute("data-phone")).toBe(phone);
    await expect.poll(() => page.getByTestId("chat").getAttribute("data-connected")).toBe("true");
  };

  it("invites Dana, who taps Accept on the template; the shared list shows who added what", async () => {
    // 1. Yossi starts with Memo and invites Dana.
    await expect.poll(() => page.getByTestId("chat").getAttribute("data-connected")).toBe("true");
    await say("hi", "I'm Memo");
    await say("add Dana 050-1234567 to my household", "I've invited Dana");

    // 2. Dana, added through the header's phone panel, never wrote: the invitation is a template.
    await page.getByTestId("phone-add-toggle").click();
    await page.getByTestId("phone-add-input").fill(DANA);
    await page.getByTestId("name-input").fill("Dana");
    await page.getByTestId("phone-add-button").click();
    await expect.poll(() => page.getByTestId("chat").getAttribute("data-phone")).toBe(DANA);
    const invitation = memoMessages().filter({ hasText: "invites you to share a household" });
    await expect.poll(() => invitation.count(), { timeout: 15_000 }).toBe(1);
    expect(await invitation.getAttribute("data-type")).toBe("template");
    expect(await page.locator('[data-testid="message"][data-from="user"]').count()).toBe(0);
    const buttons = invitation.getByTestId("message-button");
    expect(await buttons.allInnerTexts()).toEqual(["Accept", "Decline"]);
    expect(await buttons.first().getAttribute("data-id")).toMatch(/^hh:accept:/);
    const before = await memoMessages().count();
    await buttons.first().click();
    await memoSays("You've joined", before);
    // The tap shows as Dana's message, quoting the invitation.
    const tap = page.locator('[data-testid="message"][data-from="user"]').last();
    expect(await tap.getAttribute("data-type")).toBe("button");
    expect(await tap.getByTestId("message-text").innerText()).toBe("Accept");
    expect(await tap.getByTestId("message-quote").innerText()).toContain("invites you");

    // 3. Yossi was told, and shares his shopping list.
    await switchTo(YOSSI);
    await memoSays("Dana accepted");
    await say("create shopping list", "Created the list shopping");
    await say("add milk to shopping list", "Added to shopping: milk");
    await say("share the shopping list with Dana", "shopping is now shared with your household (Dana)");

    // 4. Dana adds to it and sees who added milk. Yossi's WhatsApp name is the one the page sends
    // for a phone given no name ("Dev User", in the webhook's contacts[].profile.name).
    await switchTo(DANA);
    await say("add bread to shopping list", "milk — Dev User", "(Dev User's, shared)");

    // 5. Yossi sees who added bread.
    await switchTo(YOSSI);
    await say("show shopping list", "bread — Dana");
  }, 120_000);
});
