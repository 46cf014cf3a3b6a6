// The baseline of webhook_ack: a bare Express endpoint answering 200, as its own process.
import express from "express";

const app = express();
app.disable("x-powered-by");
app.post("/webhook/whatsapp", express.raw({ type: () => true, limit: "3mb" }), (_req, res) => {
  res.sendStatus(200);
});
const server = app.listen(Number(process.env.PORT), "127.0.0.1", () => {
  process.stdout.write("bare listening\n");
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
