/*
 * How long shared records stay current. Each is read by more than one service (the one that keeps
 * the record and the scheduler that clears or wakes for it), so it lives here, below both.
 */

/** Messages and latest actions older than this are dropped; idle conversations are cleared (12 hours). */
export const CONVERSATION_MAX_AGE_MS = 12 * 60 * 60 * 1000;
/** A reminder delivery's claim not renewed for this long was left by a crashed instance and is taken over (5 minutes). */
export const CLAIM_LEASE_MS = 5 * 60 * 1000;
