import { isIPv4 } from "node:net";
import type { RequestHandler } from "express";
import type { Logger } from "../../utils/logger.js";

/**
 * Keeps the simulator to this machine. The service listens on 0.0.0.0 by default, and the
 * simulator has no login: anyone on the network could read every chat and post as any phone
 * (with no app secret, straight into Memo). So only connections from this host get through.
 */

/** Remote addresses warned about, so a scanner cannot fill the logs (or the memory). */
const MAX_WARNED = 1000;

/** True for 127.0.0.0/8, ::1, and IPv4 loopback mapped into IPv6 (::ffff:127.x.x.x). @internal */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const lower = address.toLowerCase();
  // A dual-stack socket reports IPv4 peers as ::ffff:a.b.c.d.
  const v4 = lower.startsWith("::ffff:") ? lower.slice("::ffff:".length) : lower;
  if (isIPv4(v4)) return v4.startsWith("127.");
  return lower === "::1" || lower === "0:0:0:0:0:0:0:1";
}

/** Host names that always mean this machine: a page served under them is not someone else's. */
const LOOPBACK_NAMES = new Set(["localhost", "[::1]"]);

/** The host name of a Host header or an Origin ("localhost:3000" → "localhost"), lower case; undefined when unreadable. */
function hostnameOf(hostOrOrigin: string, isOrigin = false): string | undefined {
  try {
    return new URL(isOrigin ? hostOrOrigin : `http://${hostOrOrigin}`).hostname.toLowerCase() || undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether `hostname` names this machine: a loopback name or address, the address the connection
 * arrived on (HOST=192.168.x.y, opened by its IP), or one of SIMULATOR_ALLOWED_HOSTS. Any other
 * name may be a DNS-rebinding attacker's domain that resolves to 127.0.0.1 for the developer's
 * browser: its pages would be "same-origin" with the simulator.
 */
function isAllowedHost(
  hostname: string | undefined,
  allowedHosts: readonly string[],
  localAddress?: string,
): boolean {
  if (!hostname) return false;
  if (LOOPBACK_NAMES.has(hostname) || allowedHosts.includes(hostname)) return true;
  // An IP literal cannot be rebound: the browser's origin is that address itself.
  const address = hostname.replace(/^\[|\]$/g, "");
  return (
    isLoopback(address) || (localAddress !== undefined && address === localAddress.replace(/^::ffff:/, ""))
  );
}

/** Methods that change something: refused when another site's page sends them (CSRF). */
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Why a request from this machine is still refused (a foreign Host, a cross-site write), or undefined. */
function foreignRequest(
  req: Parameters<RequestHandler>[0],
  allowedHosts: readonly string[],
): string | undefined {
  const local = req.socket.localAddress;
  if (!isAllowedHost(hostnameOf(req.headers.host ?? ""), allowedHosts, local)) return "host";
  if (SAFE_METHODS.has(req.method)) return undefined;
  // Browsers send both on a fetch or form post from a page; tools (curl, the app's Graph API
  // client) send neither, and are on this machine already.
  if (req.headers["sec-fetch-site"] === "cross-site") return "cross-site";
  const origin = req.headers.origin;
  if (origin !== undefined && !isAllowedHost(hostnameOf(origin, true), allowedHosts, local)) return "origin";
  return undefined;
}

/**
 * Answers 403 to requests that do not come from this machine (warning once per remote address),
 * and to requests that do but name another host or come from another site's page: a web page the
 * developer opens could otherwise reach the simulator through DNS rebinding, or post to it.
 * `allowedHosts`: extra host names it answers to (SIMULATOR_ALLOWED_HOSTS), lower case.
 */
export function localOnly(logger: Logger, allowedHosts: readonly string[] = []): RequestHandler {
  const warned = new Set<string>();
  /** Reasons of refused local requests already warned about (a page could send thousands). */
  const warnedReasons = new Set<string>();
  return (req, res, next) => {
    // The socket's address, not req.ip: X-Forwarded-For is the client's to write.
    const remote = req.socket.remoteAddress;
    // A peer with our own address is this host calling itself on a LAN address (HOST=192.168.x.y):
    // a TCP handshake cannot complete from elsewhere with that source address.
    if (isLoopback(remote) || (remote !== undefined && remote === req.socket.localAddress)) {
      const refused = foreignRequest(req, allowedHosts);
      if (!refused) {
        next();
        return;
      }
      if (!warnedReasons.has(refused)) {
        warnedReasons.add(refused);
        logger.warn(
          { reason: refused, method: req.method, path: req.path },
          "refused a request to the WhatsApp simulator: another site's page or host name",
        );
      }
      res.status(403).json({
        error: "forbidden",
        message:
          "The WhatsApp simulator answers its own page only: open it at localhost, 127.0.0.1 or [::1] " +
          "(or a name in SIMULATOR_ALLOWED_HOSTS).",
      });
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
