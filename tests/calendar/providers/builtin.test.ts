import { backends } from "../../support/db.js";
import { builtinCalendarOf } from "../../support/services.js";
import { calendarProviderContract } from "./calendarContract.js";

/** The built-in calendar keeps the contract on every database backend of this run. */
for (const backend of backends) {
  calendarProviderContract(`BuiltinCalendar on ${backend.name}`, {
    sharedStore: true,
    async open() {
      const db = await backend.create();
      return {
        async providerFor(phone) {
          await db.pool.query("INSERT INTO users (phone) VALUES ($1) ON CONFLICT DO NOTHING", [phone]);
          return builtinCalendarOf(db.pool, phone);
        },
        close: () => db.close(),
      };
    },
  });
}
