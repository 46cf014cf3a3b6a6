import { isIPv4 } from "node:net";
import type { RequestHandler } from "express";
import type { Logger } from "../utils/logger.js";

/**
 * Keeps the simulator to this machine. The service listens on 0.0.0.0 by default, and the
 * simulator has no login: anyone on the network could read every chat and post as any phone
 * (with no app secret, straight into Memo). So only connections from this host get through.
 */

/** Remote addresses warned about, so a scanner cannot fill the logs (or the memory). */
const MAX_WARNED = 1000;

/** True for 127.0.0.0/8, ::1, and IPv4 loopback mapped into IPv6 (::ffff:127.x.x.x). */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const lower = address.toLowerCase();
  // A dual-stack socket reports IPv4 peers as ::ffff:a.b.c.d.
  const v4 = lower.startsWith("::ffff:") ? lower.slice("::ffff:".length) : lower;
  if (isIPv4(v4)) return v4.startsWith("127.");
  return lower === "::1" || lower === "0:0:0:0:0:0:0:1";
}

/** Answers 403 to requests that do not come from this machine; warns once per remote address. */
export function localOnly(logger: Logger): RequestHandler {
  const warned = new Set<string>();
  return (req, res, next) => {
    // The socket's address, not req.ip: X-Forwarded-For is the client's to write.
    const remote = req.socket.remoteAddress;
    // A peer with our own address is this host calling itself on a LAN address (HOST=192.168.x.y):
    // a TCP handshake cannot complete from elsewhere with that source address.
    if (isLoopback(remote) || (remote !== undefined && remote === req.socket.localAddress)) {
      next();
      return;
    }
    const who = remote ?? "unknown";
    if (!warned.has(who) && warned.size < MAX_WARNED) {
      warned.add(who);
      logger.warn(
        { remoteAddress: who, path: req.originalUrl },
        "refused a request to the WhatsApp simulator from another machine: it answers this host only",
      );
    }
    res.status(403).json({
      error: "forbidden",
      message: "The WhatsApp simulator answers requests from this machine only (127.0.0.1 or ::1).",
    });
  };
}
