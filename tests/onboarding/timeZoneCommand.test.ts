import { describe, expect, it } from "vitest";
import { MESSAGES, t } from "../../src/messages/index.js";
import { isTimeZoneQuestion, parseTimeZoneCommand } from "../../src/nlu/timeZoneCommand.js";

describe("parseTimeZoneCommand", () => {
  it.each([
    ["Change my time zone to London", "London"],
    ["change timezone to Europe/Paris", "Europe/Paris"],
    ["set my timezone to New York", "New York"],
    ["set time zone: UTC+2", "UTC+2"],
    ["my time zone is Tokyo", "Tokyo"],
    ["timezone Asia/Jerusalem", "Asia/Jerusalem"],
    ["update my time zone to Israel", "Israel"],
    // Natural variants.
    ["Please change my time zone to London.", "London"],
    ["CHANGE THE TIME ZONE TO PARIS!", "PARIS"],
    ["Hey Memo, can you please set my time zone to tokyo?", "tokyo"],
    ["change the timezone to London please", "London"],
    ["change my time-zone back to London", "London"],
    ["set timezone Europe/Paris", "Europe/Paris"],
    ["My timezone: Tel Aviv", "Tel Aviv"],
    ["time zone: New York", "New York"],
    ["my time zone is now Tokyo", "Tokyo"],
    ["I'd like to change my time zone to Berlin", "Berlin"],
    ["switch my timezone to GMT-5", "GMT-5"],
    ["  set   my  time zone   to   São Paulo  ", "São Paulo"],
    // Hebrew.
    ["שנה אזור זמן ללונדון", "לונדון"],
    ["שנה את אזור הזמן שלי לניו יורק", "ניו יורק"],
    ["שני אזור זמן לפריז", "פריז"],
    ["תשנה אזור זמן ל-UTC+2", "UTC+2"],
    ["עדכן אזור זמן לישראל", "ישראל"],
    ["אזור זמן: תל אביב", "תל אביב"],
    ["אזור הזמן שלי הוא ברלין", "ברלין"],
    ["הגדר אזור זמן לטוקיו", "טוקיו"],
    ["לשנות אזור זמן ללונדון", "לונדון"],
    ["בבקשה תשנה את איזור הזמן שלי לברלין", "ברלין"],
    ["אפשר לשנות את אזור הזמן לתל אביב?", "תל אביב"],
    ["היי ממו, שנה אזור זמן ל UTC+3", "UTC+3"],
    ["אזור הזמן שלי: אילת", "אילת"],
    ["אזור זמן תל אביב", "תל אביב"],
  ])("reads %j as a change to %j", (text, place) => {
    expect(parseTimeZoneCommand(text)).toEqual({ place });
  });

  it.each([
    "remind me to change the time zone on my watch tomorrow",
    "what time is it in London",
    "what's my time zone?",
    "what time zone is London in?",
    "change the time zone on my watch",
    "set the time zone for the meeting to London",
    "set a reminder to change the time zone",
    "change my time zone",
    "update my time zone please",
    "my time zone is wrong",
    "my time zone is what?",
    "time zone differences are annoying",
    "timezone is confusing",
    "hello",
    "",
    "תזכיר לי לשנות את אזור הזמן בשעון מחר",
    "צריך לשנות את אזור הזמן בשעון",
    "מה אזור הזמן שלי?",
    "אזור הזמן שלי לא נכון",
    "מה השעה בלונדון",
    "שנה אזור זמן",
    "אזור זמן?",
  ])("leaves %j alone", (text) => {
    expect(parseTimeZoneCommand(text)).toBeNull();
  });

  it("leaves long messages that mention a time zone to the planner", () => {
    const long = `set my time zone to London ${"and then tell me about the weather ".repeat(5)}`;
    expect(parseTimeZoneCommand(long)).toBeNull();
  });
});

describe("isTimeZoneQuestion", () => {
  it.each([
    "what's my time zone?",
    "What is my timezone",
    "what’s my current time zone?",
    "which time zone am I in?",
    "what time zone do you have me in?",
    "my time zone?",
    "מה אזור הזמן שלי",
    "מה אזור הזמן שלי?",
    "באיזה אזור זמן אני?",
    "איזה אזור זמן מוגדר לי?",
  ])("hears %j as a question about the user's zone", (text) => {
    expect(isTimeZoneQuestion(text)).toBe(true);
    expect(parseTimeZoneCommand(text)).toBeNull();
  });

  it.each([
    "what time is it in London",
    "what's the time zone in London?",
    "change my time zone to London",
    "מה השעה",
  ])("does not hear %j as one", (text) => {
    expect(isTimeZoneQuestion(text)).toBe(false);
  });
});

describe("onboarding messages", () => {
  it("fit a WhatsApp list button", () => {
    expect(MESSAGES.en["onboarding.chooseButton"].length).toBeLessThanOrEqual(20);
    expect(MESSAGES.he["onboarding.chooseButton"].length).toBeLessThanOrEqual(20);
  });

  it("fill their placeholders", () => {
    expect(t("en", "onboarding.timeZoneSet", { zone: "London (UTC+0)", time: "09:30" })).toBe(
      "Done — your time zone is now London (UTC+0). It's 09:30 there.",
    );
    expect(t("he", "onboarding.timeZoneSet", { zone: "לונדון (UTC+0)", time: "09:30" })).toContain(
      "לונדון (UTC+0)",
    );
    expect(t("en", "onboarding.timeZoneWhich", {})).toContain("{place}");
  });

  it("suggest a change command that Memo understands", () => {
    for (const language of ["en", "he"] as const) {
      const example = /"([^"]+)"/.exec(MESSAGES[language]["onboarding.timeZoneCurrent"])?.[1] ?? "";
      expect(parseTimeZoneCommand(example), example).not.toBeNull();
    }
  });
});
