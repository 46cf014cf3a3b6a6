import { describe, expect, it } from "vitest";
import { instantOf } from "../../src/db/repositories/schedulerRepository.js";

describe("a stored instant as the scheduler reads it", () => {
  it("a Date is its epoch ms; 'infinity' (node-pg's Infinity), null, an invalid Date are no instant", () => {
    expect(instantOf(new Date("2027-04-18T05:00:00Z"))).toBe(Date.parse("2027-04-18T05:00:00Z"));
    expect(instantOf(Infinity)).toBeNull();
    expect(instantOf(-Infinity)).toBeNull();
    expect(instantOf(null)).toBeNull();
    expect(instantOf(new Date(Number.NaN))).toBeNull();
  });
});
