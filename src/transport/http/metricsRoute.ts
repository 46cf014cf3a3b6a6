import { Router } from "express";
import type { Metrics } from "../../services/metrics/metrics.js";
import { sameSecret } from "../whatsapp/signature.js";

export interface MetricsRouteDeps {
  metrics: Pick<Metrics, "render" | "contentType">;
  /** METRICS_TOKEN: scrapers must send `Authorization: Bearer <token>` (default: unset, open to anyone who can reach it). */
  token?: string;
}

/** `Authorization: Bearer <token>`, the scheme case-insensitive (RFC 6750). */
const BEARER = /^Bearer +(\S+) *$/i;

/** Whether the Authorization header carries the configured token. */
function authorized(header: string | undefined, token: string): boolean {
  // No header, or not a bearer credential: refused before any comparison.
  const given = header ? BEARER.exec(header)?.[1] : undefined;
  if (given === undefined) return false;
  // Compared as SHA-256 digests in constant time: neither the token's length nor how many leading
  // characters were right shows in the time taken.
  return sameSecret(given, token);
}

/**
 * GET /metrics: Prometheus' text format. With a token, anything but the right bearer token gets a
 * bare 401 (nothing about why). Without one it is open: keep it off the public internet then.
 */
export function metricsRoutes(deps: MetricsRouteDeps): Router {
  const router = Router();
  router.get("/metrics", async (req, res) => {
    if (deps.token !== undefined && !authorized(req.get("authorization"), deps.token)) {
      res.status(401).set("www-authenticate", 'Bearer realm="metrics"').end();
      return;
    }
    const body = await deps.metrics.render();
    // Scrapes are live readings: never served from a cache.
    res.set("cache-control", "no-store").type(deps.metrics.contentType).send(body);
  });
  return router;
}
