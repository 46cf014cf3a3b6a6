// The chat page's own guards, in real headless Chromium against the simulator alone: only web
// links become links, messages the simulator drops leave the page, a file over the page's limit is
// refused unread, and a file read that finishes late attaches nowhere but where it was picked.
import { once } from "node:events";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import express from "express";
import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createSimulator } from "../../src/transport/simulator/index.js";
import { createLogger } from "../../src/utils/logger.js";
import { chromiumAvailable, launchChromium } from "../support/browser.js";

const PHONE = "972501234567";
const OTHER_PHONE = "972509990002";
const PHONE_NUMBER_ID = "1234567890";
const MB = 1024 * 1024;

/** What the test reads of the page's globals (tests compile without the DOM library). */
interface TestWindow {
  __releaseReads(): void;
}

const running: { server: Server; close(): void; dir: string }[] = [];

afterEach(async () => {
  for (const r of running.splice(0)) {
    r.close();
    r.server.closeAllConnections();
    await new Promise((resolve) => r.server.close(resolve));
    await rm(r.dir, { recursive: true, force: true });
  }
});

/** The simulator mounted alone (its webhook answers 200), with `conversations` already on disk. */
async function start(options: { maxMessagesPerPhone?: number; conversations?: unknown } = {}) {
  const dir = await mkdtemp(path.join(tmpdir(), "memo-sim-page-"));
  if (options.conversations) {
    await mkdir(path.join(dir, "simulator"), { recursive: true });
    await writeFile(
      path.join(dir, "simulator", "conversations.json"),
      JSON.stringify({ version: 1, conversations: options.conversations, media: [] }),
    );
  }
  let base = "";
  const app = express();
  app.post("/webhook/whatsapp", (_req, res) => res.sendStatus(200));
  const simulator = createSimulator({
    webhookUrl: () => `${base}/webhook/whatsapp`,
    phoneNumberId: PHONE_NUMBER_ID,
    publicUrl: () => `${base}/dev/whatsapp`,
    logger: createLogger("silent"),
    statusDelayMs: 2,
    dataDir: dir,
    ...(options.maxMessagesPerPhone ? { maxMessagesPerPhone: options.maxMessagesPerPhone } : {}),
  });
  app.use("/dev/whatsapp", simulator.router);
  const server = app.listen(0, "127.0.0.1");
  await once(server, "listening");
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  running.push({ server, close: simulator.close, dir });
  return { sim: `${base}/dev/whatsapp`, graph: `${base}/dev/whatsapp/graph/v23.0` };
}

describe.skipIf(!chromiumAvailable)("the simulator page's guards, in Chromium", () => {
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });
  afterEach(async () => {
    await page?.close();
  });

  const open = async (sim: string, phone = PHONE) => {
    page = await browser.newPage();
    await page.goto(`${sim}?phone=${phone}`);
    await expect.poll(() => page.getByTestId("chat-status").getAttribute("data-state")).toBe("online");
  };
  const memoRows = () => page.locator('[data-testid="message"][data-from="memo"]');

  it("links only http(s) URLs: a javascript: link shows as text", async () => {
    const message = (id: string, link: string, timestamp: number) => ({
      id,
      phone: PHONE,
      direction: "out",
      timestamp,
      type: "document",
      media: { id: "", mimeType: "", sha256: "", fileSize: 0, link },
      status: "read",
    });
    const { sim } = await start({
      conversations: {
        [PHONE]: {
          messages: [
            message("wamid.A", "javascript:alert(document.domain)", 1_700_000_000_000),
            message("wamid.B", "https://example.com/a.pdf", 1_700_000_001_000),
          ],
        },
      },
    });
    await open(sim);
    await expect.poll(() => memoRows().count()).toBe(2);
    const links = memoRows().locator("a.text");
    expect(await links.nth(0).innerText()).toContain("javascript:alert");
    expect(await links.nth(0).getAttribute("href")).toBeNull();
    expect(await links.nth(1).getAttribute("href")).toBe("https://example.com/a.pdf");
  });

  it("drops the bubbles the simulator no longer keeps", async () => {
    const { sim, graph } = await start({ maxMessagesPerPhone: 2 });
    await open(sim);
    for (const body of ["one", "two", "three"]) {
      const res = await fetch(`${graph}/${PHONE_NUMBER_ID}/messages`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ messaging_product: "whatsapp", to: PHONE, text: { body } }),
      });
      expect(res.status).toBe(200);
    }
    await expect
      .poll(() => memoRows().getByTestId("message-text").allInnerTexts(), { timeout: 10_000 })
      .toEqual(["two", "three"]);
  });

  it("refuses a file over 18 MB before reading it", async () => {
    const { sim } = await start();
    await open(sim);
    await page.getByTestId("attach-document").setInputFiles({
      name: "big.pdf",
      mimeType: "application/pdf",
      buffer: Buffer.concat([Buffer.from("%PDF-1.7\n"), Buffer.alloc(18 * MB)]),
    });
    await expect.poll(() => page.getByTestId("toast").innerText()).toMatch(/up to 18 MB/);
    expect(await page.getByTestId("attachment-bar").isHidden()).toBe(true);
  });

  it("attaches a file read that ends late only to the chat it was picked in, and only if it was the last pick", async () => {
    const { sim } = await start();
    page = await browser.newPage();
    // File reads wait until the test releases them, so their order is the test's to choose.
    await page.addInitScript(() => {
      const w = globalThis as unknown as { FileReader: { prototype: Record<string, unknown> } } & TestWindow;
      const read = w.FileReader.prototype.readAsDataURL as (this: unknown, blob: unknown) => void;
      const held: (() => void)[] = [];
      w.FileReader.prototype.readAsDataURL = function (this: unknown, blob: unknown) {
        held.push(() => read.call(this, blob));
      };
      w.__releaseReads = () => {
        for (const go of held.splice(0).reverse()) go();
      };
    });
    // Both phones known to the page (it remembers the phones it was opened for).
    for (const phone of [OTHER_PHONE, PHONE]) {
      await page.goto(`${sim}?phone=${phone}`);
      await expect.poll(() => page.getByTestId("chat-status").getAttribute("data-state")).toBe("online");
    }
    const file = (name: string) => ({ name, mimeType: "text/plain", buffer: Buffer.from(`${name}\n`) });

    // Two picks: the second read is released first, the first last; the second pick stays.
    await page.getByTestId("attach-document").setInputFiles(file("first.txt"));
    await page.getByTestId("attach-document").setInputFiles(file("second.txt"));
    await page.evaluate(() => (globalThis as unknown as TestWindow).__releaseReads());
    await expect.poll(() => page.getByTestId("attachment-name").innerText()).toContain("second.txt");
    await page.waitForTimeout(200);
    expect(await page.getByTestId("attachment-name").innerText()).toContain("second.txt");

    // A pick whose read ends after a switch of phone is not attached to the other chat.
    await page.getByTestId("attachment-cancel").click();
    await page.getByTestId("attach-document").setInputFiles(file("for-the-first-phone.txt"));
    await page.getByTestId("phone-select").selectOption(OTHER_PHONE);
    await expect.poll(() => page.getByTestId("chat-status").getAttribute("data-state")).toBe("online");
    await page.evaluate(() => (globalThis as unknown as TestWindow).__releaseReads());
    await page.waitForTimeout(200);
    expect(await page.getByTestId("attachment-bar").isHidden()).toBe(true);
  });
});
