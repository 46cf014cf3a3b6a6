import { t, type Language } from "../../messages/index.js";
import { scheduleOf } from "../../nlu/hebrewCalendar.js";
import { cityName, restCity } from "../../nlu/restWindows.js";
import type { SettingsCommand } from "../../nlu/settingsCommand.js";
import type { User } from "../../types/index.js";
import { dayClock } from "./proactiveText.js";
import { nextRestWindow, restCityOf } from "./sabbathQuiet.js";

/** The Shabbat quiet and holiday calendar commands (settingsCommand kinds). */
export type SabbathCommand = Extract<
  SettingsCommand,
  { kind: "sabbathOn" | "sabbathOff" | "sabbathShow" | "calendarSchedule" }
>;

/** What a Shabbat command does: the user's columns to change (null: nothing changes) and the reply. */
export interface SabbathSetting {
  changes: Partial<Pick<User, "sabbathQuiet" | "sabbathCity" | "calendarSchedule">> | null;
  reply: string;
}

/** Whether a settings command is one of Shabbat quiet's. */
export const isSabbathCommand = (command: SettingsCommand): command is SabbathCommand =>
  command.kind === "sabbathOn" ||
  command.kind === "sabbathOff" ||
  command.kind === "sabbathShow" ||
  command.kind === "calendarSchedule";

/**
 * "\nQuiet from candle lighting Fri 17:14 to havdalah Sat 18:10 (Jerusalem)." for the user as they
 * will be, in the city's time (named so when the user's zone is another's); "" when none is known.
 */
function nextWindowLine(user: User, language: Language, nowMs: number): string {
  const city = restCityOf(user);
  const window = city ? nextRestWindow(user, city, nowMs) : null;
  if (!city || !window) return "";
  const zone = window.timeZone;
  const line = t(language, zone === user.timeZone ? "sabbath.window" : "sabbath.windowCityTime", {
    start: dayClock(window.start, zone, language, true),
    end: dayClock(window.end, zone, language, true),
    city: cityName(city, language),
  });
  return `\n${line}`;
}

const scheduleName = (user: User, language: Language) =>
  t(language, scheduleOf(user) === "israel" ? "sabbath.scheduleIsrael" : "sabbath.scheduleDiaspora");

/**
 * A Shabbat quiet or holiday calendar command: what changes and what to say. A city hebcal does
 * not know, or no city at all (a zone without one), changes nothing and says so.
 */
export function sabbathSetting(
  user: User,
  language: Language,
  command: SabbathCommand,
  nowMs: number,
): SabbathSetting {
  switch (command.kind) {
    case "sabbathOn": {
      const city = command.city === null ? null : restCity(command.city);
      if (command.city !== null && city === null)
        return { changes: null, reply: t(language, "sabbath.unknownCity", { city: command.city }) };
      const after: User = { ...user, sabbathQuiet: true, sabbathCity: city ?? user.sabbathCity };
      if (!restCityOf(after)) return { changes: null, reply: t(language, "sabbath.needCity") };
      const changed = !user.sabbathQuiet || after.sabbathCity !== user.sabbathCity;
      return {
        changes: changed ? { sabbathQuiet: true, sabbathCity: after.sabbathCity } : null,
        reply: `${t(language, "sabbath.on", { schedule: scheduleName(after, language) })}${nextWindowLine(after, language, nowMs)}`,
      };
    }
    case "sabbathOff":
      return {
        changes: user.sabbathQuiet ? { sabbathQuiet: false } : null,
        reply: t(language, "sabbath.off"),
      };
    case "calendarSchedule": {
      const after: User = { ...user, calendarSchedule: command.schedule };
      const line = after.sabbathQuiet ? nextWindowLine(after, language, nowMs) : "";
      return {
        changes: user.calendarSchedule !== command.schedule ? { calendarSchedule: command.schedule } : null,
        reply: `${t(language, "sabbath.schedule", { schedule: scheduleName(after, language) })}${line}`,
      };
    }
    case "sabbathShow":
      return {
        changes: null,
        reply: user.sabbathQuiet
          ? `${t(language, "sabbath.stateOn", { schedule: scheduleName(user, language) })}${nextWindowLine(user, language, nowMs)}`
          : t(language, "sabbath.stateOff", { schedule: scheduleName(user, language) }),
      };
  }
}
