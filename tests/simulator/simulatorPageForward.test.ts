// The chat page's "Forwarded" toggle and the paperclip's text files, in real headless Chromium
// against the simulator alone: a text sent with the toggle on reaches the webhook as Meta marks a
// forwarded message (context.forwarded), the bubble says so, and the toggle turns off after it; a
// Markdown file the browser gives no type goes as a text/markdown document.
import { once } from "node:events";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createSimulator } from "../../src/transport/simulator/index.js";
import { createLogger } from "../../src/utils/logger.js";
import { chromiumAvailable, launchChromium } from "../support/browser.js";

const PHONE = "972501234567";

type Json = Record<string, unknown>;

const running: { server: Server; close(): void }[] = [];

afterEach(async () => {
  for (const r of running.splice(0)) {
    r.close();
    r.server.closeAllConnections();
    await new Promise((resolve) => r.server.close(resolve));
  }
});

/** The simulator mounted alone; its webhook keeps the messages it is posted. */
async function start() {
  const received: Json[] = [];
  let base = "";
  const app = express();
  app.post("/webhook/whatsapp", express.json(), (req, res) => {
    const body = req.body as { entry: { changes: { value: { messages?: Json[] } }[] }[] };
    received.push(...(body.entry[0]?.changes[0]?.value.messages ?? []));
    res.sendStatus(200);
  });
  const simulator = createSimulator({
    webhookUrl: () => `${base}/webhook/whatsapp`,
    phoneNumberId: "1234567890",
    publicUrl: () => `${base}/dev/whatsapp`,
    logger: createLogger("silent"),
    statusDelayMs: 2,
  });
  app.use("/dev/whatsapp", simulator.router);
  const server = app.listen(0, "127.0.0.1");
  await once(server, "listening");
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  running.push({ server, close: simulator.close });
  return { sim: `${base}/dev/whatsapp`, received };
}

describe.skipIf(!chromiumAvailable)("the simulator page's forwarded toggle, in Chromium", () => {
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

  it("sends a text as forwarded, labels its bubble, then sends the next one as the user's own", async () => {
    const { sim, received } = await start();
    page = await browser.newPage();
    await page.goto(`${sim}?phone=${PHONE}`);
    await expect.poll(() => page.getByTestId("chat-status").getAttribute("data-state")).toBe("online");

    const toggle = page.getByRole("checkbox", { name: "Send as forwarded" });
    await page.getByText("Forwarded", { exact: true }).click();
    expect(await toggle.isChecked()).toBe(true);
    await page.getByTestId("composer-input").fill("Dinner at Dana's on Friday at 8");
    await page.getByTestId("send-button").click();
    await expect.poll(() => received.length).toBe(1);
    expect(received[0]).toMatchObject({
      type: "text",
      text: { body: "Dinner at Dana's on Friday at 8" },
      context: { forwarded: true },
    });
    await expect.poll(() => page.getByTestId("message-forwarded").count()).toBe(1);
    expect(await toggle.isChecked()).toBe(false);

    await page.getByTestId("composer-input").fill("my own words");
    await page.getByTestId("send-button").click();
    await expect.poll(() => received.length).toBe(2);
    expect(received[1]).not.toHaveProperty("context");
    expect(await page.getByTestId("message-forwarded").count()).toBe(1);
  });

  it("sends a Markdown file the browser leaves untyped as a text/markdown document", async () => {
    const { sim, received } = await start();
    page = await browser.newPage();
    await page.goto(`${sim}?phone=${PHONE}`);
    await expect.poll(() => page.getByTestId("chat-status").getAttribute("data-state")).toBe("online");
    await page.getByTestId("attach-document").setInputFiles({
      name: "packing.md",
      mimeType: "",
      buffer: Buffer.from("# Packing\n- hat\n- water\n"),
    });
    await expect.poll(() => page.getByTestId("attachment-name").innerText()).toMatch(/^packing\.md/);
    await page.getByTestId("send-button").click();
    await expect.poll(() => received.length).toBe(1);
    expect(received[0]).toMatchObject({
      type: "document",
      document: { mime_type: "text/markdown", filename: "packing.md" },
    });
  });
});
