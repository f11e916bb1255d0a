import { describe, expect, it } from "vitest";
import type { ServerId } from "~/lib/ids";
import { parseSearchParams, SEARCH_MAX_LIMIT } from "~/services/files/search.server";
import { refusal } from "../../../tests/helpers/refusals.ts";

const parse = (query: string) => parseSearchParams("srv1" as ServerId, new URLSearchParams(query));

describe("parseSearchParams: GET /api/search", () => {
  it("defaults to newest first, 50 from offset 0", () => {
    expect(parse("")).toEqual({
      serverId: "srv1",
      category: undefined,
      playerName: undefined,
      playerIdentifier: undefined,
      filename: undefined,
      from: undefined,
      to: undefined,
      metadata: undefined,
      sort: "desc",
      limit: 50,
      offset: 0,
      page: 1,
    });
  });

  it("pages by offset (default 50) or by page (default 20), at most 100 a page", () => {
    expect(parse("limit=10&offset=30")).toMatchObject({ limit: 10, offset: 30, page: 4 });
    expect(parse("page=3")).toMatchObject({ limit: 20, offset: 40, page: 3 });
    expect(parse("page=2&limit=500")).toMatchObject({ limit: SEARCH_MAX_LIMIT, offset: 100, page: 2 });
    expect(parse("page=2&offset=7")).toMatchObject({ offset: 20 });
    expect(parse("limit=+7+")).toMatchObject({ limit: 7 });
  });

  it("refuses paging that is not a whole number in range", () => {
    for (const [query, field] of [["limit=0", "limit"], ["limit=-1", "limit"], ["limit=2.5", "limit"], ["page=0", "page"], ["offset=-5", "offset"], ["offset=abc", "offset"], ["limit=1e2", "limit"]]) {
      expect(refusal(() => parse(query)).details, query).toEqual({ field });
    }
  });

  it("refuses paging past what a database offset can hold", () => {
    expect(refusal(() => parse("offset=99999999999999999999")).details).toEqual({ field: "offset" });
    expect(refusal(() => parse("page=99999999999999999")).details).toEqual({ field: "page" });
  });

  it("sorts by sort or order, in any case", () => {
    expect(parse("sort=ASC").sort).toBe("asc");
    expect(parse("order=asc").sort).toBe("asc");
    expect(refusal(() => parse("sort=newest")).details).toEqual({ field: "sort" });
  });

  it("reads bare dates as whole UTC days, and full times as sent", () => {
    expect(parse("from_date=2026-11-01&to_date=2026-11-01")).toMatchObject({ from: new Date("2026-11-01T00:00:00.000Z"), to: new Date("2026-11-01T23:59:59.999Z") });
    expect(parse("from_date=2026-11-01T10:00:00%2B02:00").from).toEqual(new Date("2026-11-01T08:00:00Z"));
  });

  it("refuses dates it cannot read, days that do not exist, and a range that ends before it starts", () => {
    expect(refusal(() => parse("from_date=last week")).details).toEqual({ field: "from_date" });
    expect(refusal(() => parse("to_date=2026-02-30")).message).toBe("to_date must be a date (YYYY-MM-DD or ISO 8601)");
    expect(refusal(() => parse("from_date=2026-02-30T10:00:00Z")).details).toEqual({ field: "from_date" });
    expect(refusal(() => parse("from_date=2026-11-02&to_date=2026-11-01")).message).toBe("from_date must not be after to_date");
    expect(parse("from_date=2026-11-01T10:00:00Z&to_date=2026-11-01T10:00:00Z").from).toEqual(new Date("2026-11-01T10:00:00Z"));
  });

  it("takes metadata as a JSON object only", () => {
    expect(parse('metadata={"plate":"ABC"}').metadata).toEqual({ plate: "ABC" });
    for (const bad of ["[1]", "null", "5", "{oops"]) expect(refusal(() => parse(`metadata=${encodeURIComponent(bad)}`)).details, bad).toEqual({ field: "metadata" });
  });

  it("trims text filters, drops blanks and bounds them to 200 characters", () => {
    expect(parse(`category=+Mugshots+&player_name=&filename=${"f".repeat(300)}`)).toMatchObject({ category: "Mugshots", playerName: undefined });
    expect(parse(`filename=${"f".repeat(300)}`).filename).toHaveLength(200);
  });
});
