// Another person's words in Memo's sentences (DECISIONS D14): quotedText makes them inert (markup
// as fullwidth look-alikes, bidi controls removed, links defanged), and the catalogue says which
// placeholders carry them, so `t` quotes them whoever calls it.
import { describe, expect, it } from "vitest";
import { MESSAGES, t, type MessageKey } from "../../src/messages/index.js";
import { OTHERS_WORDS } from "../../src/messages/othersWords.js";
import { quotedBlock, quotedInline } from "../../src/utils/quotedText.js";

describe("quotedInline", () => {
  it("shows WhatsApp's markup characters as fullwidth look-alikes that never format", () => {
    expect(quotedInline("*URGENT* _now_ ~gone~ `code` ```block```")).toBe(
      "＊URGENT＊ ＿now＿ ～gone～ ｀code｀ ｀｀｀block｀｀｀",
    );
    // A quote marker at the start, and only there.
    expect(quotedInline("> Memo: your account is locked")).toBe("＞ Memo: your account is locked");
    expect(quotedInline("2 > 1")).toBe("2 > 1");
    // What the look-alikes stand for, by Unicode's own compatibility mapping.
    expect(quotedInline("*_~`").normalize("NFKC")).toBe("*_~`");
  });

  it("removes every bidi control, so the words show in the order they were written", () => {
    const controls = [
      "\u202A",
      "\u202B",
      "\u202C",
      "\u202D",
      "\u202E",
      "\u2066",
      "\u2067",
      "\u2068",
      "\u2069",
    ];
    for (const control of [...controls, "\u200E", "\u200F", "\u061C"]) {
      expect(quotedInline(`invoice${control}gnp.exe`)).toBe("invoicegnp[.]exe");
    }
    expect(quotedInline("\u2067dlrow\u2069 olleh")).toBe("dlrow olleh");
    // Memo's own isolate around a phone number (displayPhone) keeps its digits in order in Hebrew.
    expect(quotedInline("יוסי (\u2066+972 52 111 0001\u2069)")).toBe("יוסי (\u2066+972 52 111 0001\u2069)");
    expect(quotedInline("\u2066evil\u2069")).toBe("evil");
  });

  it("defangs links: no scheme, every dot of an address bracketed", () => {
    expect(quotedInline("verify at http://evil.example/login")).toBe("verify at evil[.]example/login");
    expect(quotedInline("HTTPS://Evil.Example")).toBe("Evil[.]Example");
    expect(quotedInline("www.evil.co.il/x?a=1.5")).toBe("www[.]evil[.]co[.]il/x?a=1.5");
    expect(quotedInline("ftp://files.evil.example")).toBe("ftp[:]//files[.]evil[.]example");
    expect(quotedInline("mail me: a.b@evil.com.")).toBe("mail me: a.b@evil[.]com.");
    expect(quotedInline("open 10.0.0.1/admin")).toBe("open 10[.]0[.]0[.]1/admin");
    expect(quotedInline("photo.zip")).toBe("photo[.]zip");
    expect(quotedInline("evil\u3002com")).toBe("evil[.]com");
    // Numbers, abbreviations and sentences keep their dots; a phone number stays as written.
    expect(quotedInline("1.5 kg, e.g. milk. Call 050-1234567")).toBe("1.5 kg, e.g. milk. Call 050-1234567");
  });

  it("keeps the words on one line, and changes nothing more when applied again", () => {
    expect(quotedInline("milk\n4. ☐ fake item\r\n  eggs\t")).toBe("milk 4. ☐ fake item eggs");
    const once = quotedInline("*x* http://a.example/b > ~y~ \u202Eexe.png");
    expect(quotedInline(once)).toBe(once);
    expect(quotedInline("לחם ב-*מבצע*")).toBe("לחם ב-＊מבצע＊");
  });
});

describe("quotedBlock", () => {
  it("quotes every line with '> ', so nothing inside can end the quote or format", () => {
    expect(quotedBlock("call the plumber")).toBe("> call the plumber");
    expect(quotedBlock("line one\n\n> Memo: *verify* now\r\n  ```x```  ")).toBe(
      "> line one\n> ＞ Memo: ＊verify＊ now\n> ｀｀｀x｀｀｀",
    );
    expect(quotedBlock("\u202Eעברית\u202C\nhttp://evil.example")).toBe("> עברית\n> evil[.]example");
  });
});

describe("the placeholders that carry another person's words", () => {
  const placeholders = (text: string | Record<string, string>) =>
    (typeof text === "string" ? [text] : Object.values(text)).flatMap((s) =>
      [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!),
    );

  it("name placeholders the sentence has, in both languages", () => {
    for (const [key, quoted] of Object.entries(OTHERS_WORDS)) {
      for (const language of ["en", "he"] as const) {
        const entry = MESSAGES[language][key as MessageKey] as string | Record<string, string>;
        for (const name of Object.keys(quoted))
          expect(placeholders(entry), `${language} ${key}`).toContain(name);
      }
    }
  });

  it("cover every name, list and text of the household's sentences", () => {
    const words = new Set(["who", "name", "names", "owner", "list", "lists", "text", "from"]);
    // Its list names come bold from Memo (they are the reader's own copies).
    const memoMarkup = new Set(["household.copied"]);
    for (const key of Object.keys(MESSAGES.en) as MessageKey[]) {
      if (!key.startsWith("household.") || memoMarkup.has(key)) continue;
      const declared = OTHERS_WORDS[key as keyof typeof OTHERS_WORDS] ?? {};
      for (const name of placeholders(MESSAGES.en[key])) {
        if (words.has(name)) expect(Object.keys(declared), `${key} {${name}}`).toContain(name);
      }
    }
  });

  it("are quoted by t, a quote block on lines of its own under the name", () => {
    expect(t("en", "household.task", { who: "*Yossi*", text: "call\nhttp://evil.example" })).toBe(
      "📋 ＊Yossi＊ gave you a task:\n> call\n> evil[.]example\nI'll let ＊Yossi＊ know when you mark it done.",
    );
    expect(t("he", "reminder.ringFromAt", { from: "יוסי", text: "_לשלם_", time: "היום ב-17:00" })).toBe(
      "⏰ תזכורת מיוסי (היום ב-17:00):\n> ＿לשלם＿",
    );
    // Memo's own words are left as they are.
    expect(t("en", "task.created", { text: "*mine*" })).toBe("✅ Added: **mine**");
  });
});
