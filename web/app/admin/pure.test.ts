import { describe, expect, it } from "vitest";
import { PAGE_SIZE, clampPage, pageCount, pageRange, shownRange } from "./data/paging";
import { ilikeAny, quoteValue } from "./data/search";
import { formatDateTime, formatListTime, isoDay } from "./time";
import { csvFileName } from "./screens/csv";
import { INBOX_FILTERS, listSearch, messagePath, parseRoute, readListParams } from "./route";
import { messageStatus } from "./data/tables";

describe("paging", () => {
  it.each([
    [1, 0, 24],
    [2, 25, 49],
    [0, 0, 24],
    [3.7, 50, 74],
  ])("page %d is rows %d–%d", (page, from, to) => expect(pageRange(page)).toEqual({ from, to }));

  it.each([
    [0, 1],
    [1, 1],
    [25, 1],
    [26, 2],
    [100_000, 4000],
  ])("%d rows fill %d pages", (total, pages) => expect(pageCount(total)).toBe(pages));

  it("keeps a page within the list", () => {
    expect(clampPage(9, 30)).toBe(2);
    expect(clampPage(-1, 30)).toBe(1);
    expect(clampPage(Number.NaN, 30)).toBe(1);
    expect(clampPage(2, 0)).toBe(1);
  });

  it("numbers the rows shown", () => {
    expect(shownRange(1, 25, 120)).toEqual({ from: 1, to: 25 });
    expect(shownRange(5, 20, 120)).toEqual({ from: 101, to: 120 });
    expect(shownRange(1, 0, 0)).toEqual({ from: 0, to: 0 });
    expect(PAGE_SIZE).toBe(25);
  });
});

describe("search filters", () => {
  it("matches any column case-insensitively", () => {
    expect(ilikeAny(["name", "email"], "Ada")).toBe("name.ilike.*Ada*,email.ilike.*Ada*");
  });
  it("quotes a term that holds PostgREST's reserved characters", () => {
    expect(ilikeAny(["email"], "a.b@c")).toBe('email.ilike."*a.b@c*"');
    expect(ilikeAny(["name"], 'say "hi", (ok)')).toBe('name.ilike."*say \\"hi\\", (ok)*"');
    expect(quoteValue("back\\slash")).toBe('"back\\\\slash"');
  });
  it("drops typed wildcards and collapses white space", () => {
    expect(ilikeAny(["name"], "  100%   sure* ")).toBe("name.ilike.*100 sure*");
  });
});

describe("times", () => {
  const at = "2026-11-24T08:05:00Z";
  it("shows the received time in the viewer's zone", () => {
    expect(formatDateTime(at, { timeZone: "Europe/Berlin", locale: "en-GB" })).toBe("24 Nov 2026, 09:05 CET");
    expect(formatDateTime(at, { timeZone: "America/New_York", locale: "en-US" })).toBe("Nov 24, 2026, 3:05 AM EST");
    expect(formatDateTime("not a time")).toBe("not a time");
  });
  it("shortens list times by how recent they are", () => {
    const now = new Date("2026-11-24T20:00:00Z");
    const o = { timeZone: "UTC", locale: "en-GB" };
    expect(formatListTime(at, now, o)).toBe("08:05");
    expect(formatListTime("2026-03-02T10:00:00Z", now, o)).toBe("2 Mar");
    expect(formatListTime("2025-03-02T10:00:00Z", now, o)).toBe("2 Mar 2025");
  });
  it("takes the calendar day in the viewer's zone", () => {
    expect(isoDay(new Date("2026-11-24T23:30:00Z"), "Asia/Tokyo")).toBe("2026-11-25");
  });
});

describe("CSV file names", () => {
  const now = new Date("2026-11-24T12:00:00Z");
  it.each([
    ["contact_messages", {}, "contact-messages-2026-11-24.csv"],
    ["contact_messages", { filter: "all" }, "contact-messages-2026-11-24.csv"],
    ["contact_messages", { filter: "open", q: "Acme, Inc." }, "contact-messages-open-search-acme-inc-2026-11-24.csv"],
    ["waitlist", { filter: "saas-2" }, "waitlist-saas-2-2026-11-24.csv"],
    ["subscribers", { q: "../../etc/passwd" }, "subscribers-search-etc-passwd-2026-11-24.csv"],
    ["subscribers", { q: "***" }, "subscribers-2026-11-24.csv"],
  ] as const)("%s %o", (list, parts, want) => expect(csvFileName(list, parts, now, "UTC")).toBe(want));
});

describe("routes", () => {
  it.each([
    ["/admin", { screen: "inbox" }],
    ["/admin/", { screen: "inbox" }],
    ["/admin/inbox", { screen: "inbox" }],
    ["/admin/inbox/0193-ab", { screen: "message", id: "0193-ab" }],
    ["/admin/waitlist", { screen: "waitlist" }],
    ["/admin/subscribers", { screen: "subscribers" }],
    ["/admin/account", { screen: "account" }],
    ["/admin/account/x", { screen: "not-found" }],
    ["/admin/nope", { screen: "not-found" }],
    ["/admin/inbox/a/b", { screen: "not-found" }],
  ])("%s", (path, want) => expect(parseRoute(path)).toEqual(want));

  it("round-trips a message path", () => {
    expect(parseRoute(messagePath("a b"))).toEqual({ screen: "message", id: "a b" });
  });

  it("reads and writes a list's state in the query", () => {
    expect(readListParams("", INBOX_FILTERS)).toEqual({ q: "", filter: "open", page: 1 });
    expect(readListParams("?q=acme&filter=spam&page=3", INBOX_FILTERS)).toEqual({ q: "acme", filter: "spam", page: 3 });
    expect(readListParams("?filter=bogus&page=-2", INBOX_FILTERS)).toEqual({ q: "", filter: "open", page: 1 });
    expect(listSearch({ q: "", filter: "open", page: 1 }, "open")).toBe("");
    expect(listSearch({ q: "a&b", filter: "all", page: 2 }, "open")).toBe("?q=a%26b&filter=all&page=2");
  });
});

describe("message status", () => {
  it("puts spam before handled", () => {
    expect(messageStatus({ spam: true, handled_at: "2026-01-01T00:00:00Z" })).toBe("spam");
    expect(messageStatus({ spam: false, handled_at: "2026-01-01T00:00:00Z" })).toBe("handled");
    expect(messageStatus({ spam: false, handled_at: null })).toBe("open");
  });
});
