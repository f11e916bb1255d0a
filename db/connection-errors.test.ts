import { describe, expect, it } from "vitest";
import { failedBeforeSending, isDatabaseUnavailable, markIfUnavailable } from "./connection-errors.ts";

const coded = (code: string, message = code) => Object.assign(new Error(message), { code });

describe("markIfUnavailable and isDatabaseUnavailable", () => {
  it("mark the driver's errors of a database that cannot be reached", () => {
    for (const error of [coded("ECONNREFUSED"), coded("57P01"), coded("57P03"), coded("53300"), coded("08006"), coded("08P01"), new Error("Connection terminated unexpectedly"), new Error("timeout exceeded when trying to connect"), new Error("Client has encountered a connection error and is not queryable")]) {
      expect(isDatabaseUnavailable(markIfUnavailable(error)), error.message).toBe(true);
    }
  });

  it("leave bad queries, constraints and other errors alone", () => {
    for (const error of [coded("23505", "duplicate key"), coded("42P01", "relation does not exist"), coded("40001"), new Error("syntax error"), coded("0800")]) {
      expect(isDatabaseUnavailable(markIfUnavailable(error)), error.message).toBe(false);
    }
  });

  it("see an outage inside an AggregateError or a cause, and find the mark on a wrapping error", () => {
    expect(isDatabaseUnavailable(markIfUnavailable(new AggregateError([coded("ECONNREFUSED"), coded("ECONNREFUSED")])))).toBe(true);
    const marked = markIfUnavailable(coded("ECONNRESET"));
    expect(isDatabaseUnavailable(new Error("query failed", { cause: marked }))).toBe(true);
  });

  it("do not mark a socket error nobody passed through the pool, and survive non-objects", () => {
    expect(isDatabaseUnavailable(coded("ECONNREFUSED"))).toBe(false);
    expect(markIfUnavailable("text")).toBe("text");
    expect(markIfUnavailable(null)).toBeNull();
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });

  it("keep the mark off the error's enumerable fields, so logs and JSON stay as they were", () => {
    const error = markIfUnavailable(coded("ECONNREFUSED")) as Error;
    expect(Object.keys(error)).toEqual(["code"]);
  });
});

describe("failedBeforeSending", () => {
  it("is true only when no connection was made, so the statement never ran", () => {
    for (const error of [coded("ECONNREFUSED"), coded("ENOTFOUND"), coded("57P03"), coded("53300"), new Error("timeout exceeded when trying to connect")]) expect(failedBeforeSending(error), error.message).toBe(true);
    for (const error of [coded("ECONNRESET"), coded("57P01"), new Error("Connection terminated unexpectedly"), coded("EPIPE")]) expect(failedBeforeSending(error), error.message).toBe(false);
  });

  it("needs every attempt of an AggregateError to have failed to connect", () => {
    expect(failedBeforeSending(new AggregateError([coded("ECONNREFUSED"), coded("EHOSTUNREACH")]))).toBe(true);
    expect(failedBeforeSending(new AggregateError([coded("ECONNREFUSED"), coded("ECONNRESET")]))).toBe(false);
    expect(failedBeforeSending(new AggregateError([]))).toBe(false);
    expect(failedBeforeSending(new Error("wrapped", { cause: coded("EAI_AGAIN") }))).toBe(true);
  });
});
