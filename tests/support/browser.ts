import { existsSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";

/** Debian's Chromium: browser tests drive it, never a downloaded browser. */
const CHROMIUM = "/usr/bin/chromium";

/** Whether Chromium is installed; when not, say so once, so a skipped leg is never taken for a pass. */
export const chromiumAvailable = existsSync(CHROMIUM);
if (!chromiumAvailable) {
  console.warn(`simulator browser tests skipped: no Chromium at ${CHROMIUM} (apt-get install chromium)`);
}

/** Headless Chromium with nothing reaching the network on its own. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}
