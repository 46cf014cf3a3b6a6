import { main } from "./app/main.js";

await main();
