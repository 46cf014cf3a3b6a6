// The page between a connect link and Google's consent: GET /start shows whose WhatsApp number the
// link connects and changes nothing; only its Continue button (POST /start, from the page itself)
// binds the browser and goes on to Google. Against the link-sharing attack: someone sends a victim
// their own fresh link, and the victim's Google account would end up on the sender's phone.
import request from "supertest";
import { afterEach, describe, expect, it } from "vitest";
import { maskPhone } from "../../src/transport/http/googleAuthRoute.js";
import { backends } from "../support/db.js";
import {
  backFromGoogle,
  browserCookie,
  consent,
  continueLink,
  openLink,
  PHONE_A,
  PHONE_B,
  startGoogleTestbed,
  type GoogleTestbed,
} from "./testbed.js";

const MINUTE = 60_000;

describe("masking the WhatsApp number", () => {
  it.each([
    ["972501234567", "+972 ••• ••• 4567"],
    ["15551234567", "+1 ••• ••• 4567"],
    ["447700900123", "+44 ••• ••• 0123"],
    ["79161234567", "+7 ••• ••• 4567"],
    ["4915112345678", "+49 ••• ••• 5678"],
    ["351912345678", "+351 ••• ••• 5678"],
  ])("%s → %s", (phone, masked) => {
    expect(maskPhone(phone)).toBe(masked);
  });
});

describe.each(backends)("the confirmation page on $name", (backend) => {
  let bed: GoogleTestbed;
  afterEach(async () => bed?.close());

  /** The link's nonce row: a GET must leave it exactly as it was. */
  async function nonceRow(link: string) {
    const nonce = new URL(link).searchParams.get("t")!.split(".")[1]!;
    const { rows } = await bed.db.pool.query<{ used_at: Date | null; expires_at: Date }>(
      "SELECT used_at, expires_at FROM google_link_nonces WHERE nonce = $1",
      [nonce],
    );
    return rows[0];
  }

  it("shows the masked number and a Continue button; changes nothing, sets no cookie, does not redirect", async () => {
    bed = await startGoogleTestbed(backend);
    const link = (await bed.accounts.connectLink(PHONE_A))!;
    const token = new URL(link).searchParams.get("t")!;
    const before = await nonceRow(link);

    // A link preview fetches the link before the user does: nothing may change.
    for (let i = 0; i < 2; i++) {
      const page = await openLink(bed, link);
      expect(page.status).toBe(200);
      expect(page.type).toBe("text/html");
      expect(page.headers.location).toBeUndefined();
      expect(page.headers["set-cookie"]).toBeUndefined();
      expect(page.text).toContain('<section dir="ltr" lang="en">');
      expect(page.text).toContain(
        'This connects your Google account to Memo for the WhatsApp number <bdi dir="ltr">+972 ••• ••• 1111</bdi>.',
      );
      expect(page.text).toContain("Only continue if this is your number.");
      // The full number only inside the token (the link carries it already), never on the page.
      expect(page.text.replace(token, "")).not.toContain(PHONE_A);
      // A plain form posting the token, and only the token, back to /start.
      expect(page.text).toContain(
        `<form method="post" action="start"><input type="hidden" name="t" value="${token}"><button type="submit">Continue to Google</button></form>`,
      );
      expect(page.text).not.toContain("<script");
      // Never framed by another site (a hidden Continue button clicked blind), never cached.
      expect(page.headers["x-frame-options"]).toBe("DENY");
      expect(page.headers["content-security-policy"]).toContain("frame-ancestors 'none'");
      expect(page.headers["cache-control"]).toBe("no-store");
    }
    bed.clock.advance(MINUTE);
    await openLink(bed, link);
    expect(await nonceRow(link)).toEqual(before);
    expect(bed.google.accessTokens()).toEqual([]);

    // Continue: the cookie is set and the browser goes to Google's consent.
    const start = await continueLink(bed, link);
    expect(start.status).toBe(302);
    const consentUrl = new URL(start.headers.location!);
    expect(`${consentUrl.origin}${consentUrl.pathname}`).toBe(`${bed.google.baseUrl}/auth`);
    expect(browserCookie(start)).toMatch(/^memo_google_consent=[A-Za-z0-9_-]{43}$/);

    // Back from Google: the page names the number that was connected, masked.
    const callback = await backFromGoogle(
      bed,
      await consent(bed, start.headers.location!),
      browserCookie(start),
    );
    expect(callback.status).toBe(200);
    expect(callback.text).toContain(
      'It is connected to the WhatsApp number <bdi dir="ltr">+972 ••• ••• 1111</bdi>. You can go back to WhatsApp.',
    );
    expect(callback.text).not.toContain(PHONE_A);
    expect(await bed.googleConnected(PHONE_A)).toBe(true);
  });

  it("speaks Hebrew, right to left, to a Hebrew-speaking user, the number kept left to right", async () => {
    bed = await startGoogleTestbed(backend);
    const link = (await bed.accounts.connectLink(PHONE_B))!;
    const page = await openLink(bed, link);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<section dir="rtl" lang="he">');
    expect(page.text).not.toContain('lang="en"');
    expect(page.text).toContain('עבור מספר הוואטסאפ <bdi dir="ltr">+972 ••• ••• 2222</bdi>.');
    expect(page.text).toContain("המשיכו רק אם זה המספר שלכם.");
    expect(page.text).toContain('<button type="submit">המשיכו לגוגל</button>');

    const start = await continueLink(bed, link);
    const callback = await backFromGoogle(
      bed,
      await consent(bed, start.headers.location!),
      browserCookie(start),
    );
    expect(callback.status).toBe(200);
    expect(callback.text).toContain('הוא מחובר למספר הוואטסאפ <bdi dir="ltr">+972 ••• ••• 2222</bdi>.');
  });

  it("shows the refusal pages as before for an invalid, expired or used link, on GET and on POST", async () => {
    bed = await startGoogleTestbed(backend);
    const expired = (await bed.accounts.connectLink(PHONE_A))!;
    bed.clock.advance(16 * MINUTE);
    const used = (await bed.accounts.connectLink(PHONE_A))!;
    const start = await continueLink(bed, used);
    await backFromGoogle(bed, await consent(bed, start.headers.location!), browserCookie(start));
    const forged = new URL(used);
    forged.searchParams.set("t", forged.searchParams.get("t")!.replace(PHONE_A, PHONE_B));

    for (const [link, status, title] of [
      [used, 410, "This link was already used"],
      [expired, 410, "This link has expired"],
      [forged.href, 400, "This link is not valid"],
    ] as const) {
      for (const res of [await openLink(bed, link), await continueLink(bed, link)]) {
        expect(res.status, title).toBe(status);
        expect(res.text).toContain(title);
        // Not known whose link it is: both languages, no number, no button, no cookie.
        expect(res.text).toContain('lang="he"');
        expect(res.text).not.toContain("<form");
        expect(res.text).not.toContain("•••");
        expect(res.headers["set-cookie"]).toBeUndefined();
      }
    }
    const empty = await request(bed.app).post("/auth/google/start").set("Sec-Fetch-Site", "same-origin");
    expect(empty.status).toBe(400);
    expect(empty.text).toContain("This link is not valid");
  });

  it("refuses a Continue posted from another site: nothing set, the link still works from its own page", async () => {
    bed = await startGoogleTestbed(backend);
    const link = (await bed.accounts.connectLink(PHONE_A))!;
    const before = await nonceRow(link);
    // A form on another site auto-posting someone's link would skip the page that shows the number.
    const crossSite: Record<string, string>[] = [
      { "Sec-Fetch-Site": "cross-site" },
      { "Sec-Fetch-Site": "same-site" },
      { "Sec-Fetch-Site": "none" },
      // Older browsers without fetch metadata: the Origin decides.
      { Origin: "https://attacker.example" },
      { Origin: "null" },
    ];
    for (const headers of crossSite) {
      const res = await continueLink(bed, link, headers);
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(res.text).toContain("This page was sent from another site");
      expect(res.headers.location).toBeUndefined();
      expect(res.headers["set-cookie"]).toBeUndefined();
    }
    expect(await nonceRow(link)).toEqual(before);
    expect(
      bed.logs().filter((l) => l.event === "GOOGLE_LINK_REFUSED" && l.reason === "cross_site"),
    ).toHaveLength(5);

    // An older browser posting from this very host is let through, and so is a current one.
    expect((await continueLink(bed, link, { Host: "memo.test", Origin: "https://memo.test" })).status).toBe(
      302,
    );
    expect((await continueLink(bed, link)).status).toBe(302);
  });
});
