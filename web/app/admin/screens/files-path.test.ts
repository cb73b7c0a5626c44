import { describe, expect, it } from "vitest";
import { filesCopy } from "~/content/console";
import { describeFailure } from "./file-failure";
import {
  MAX_PATH_BYTES,
  baseName,
  breadcrumbs,
  filesPath,
  formatSize,
  isPreviewable,
  joinPath,
  objectUrlPath,
  parentOf,
  pathProblem,
  percent,
  refusalOf,
} from "./files-path";
import { parseRoute } from "../route";
import { failureOf } from "./upload";
import { asRequestFailure } from "../data/problem";

describe("files paths", () => {
  it.each([
    [undefined, "", "/admin/files"],
    ["downloads", "", "/admin/files/downloads"],
    ["downloads", "2026/q1/", "/admin/files/downloads/2026/q1"],
    ["media", "a b/ü#?", "/admin/files/media/a%20b/%C3%BC%23%3F"],
  ])("bucket %s, folder %j is at %s, and the route reads it back", (bucket, prefix, path) => {
    expect(filesPath(bucket, prefix)).toBe(path);
    expect(parseRoute(path)).toEqual({ screen: "files", bucket, prefix: prefix.replace(/\/$/, "") });
  });

  it("joins, splits and names paths without empty parts", () => {
    expect(joinPath("", "a.pdf")).toBe("a.pdf");
    expect(joinPath("docs/2026/", "a.pdf")).toBe("docs/2026/a.pdf");
    expect(baseName("docs/2026/a.pdf")).toBe("a.pdf");
    expect(parentOf("docs/2026/a.pdf")).toBe("docs/2026");
    expect(parentOf("a.pdf")).toBe("");
  });

  it("has breadcrumbs from the bucket list down to the folder shown", () => {
    expect(breadcrumbs("Files", "media", "")).toEqual([
      { label: "Files", href: "/admin/files", current: false },
      { label: "media", href: "/admin/files/media", current: true },
    ]);
    expect(breadcrumbs("Files", "media", "a b/c").map((c) => [c.label, c.href, c.current])).toEqual([
      ["Files", "/admin/files", false],
      ["media", "/admin/files/media", false],
      ["a b", "/admin/files/media/a%20b", false],
      ["c", "/admin/files/media/a%20b/c", true],
    ]);
  });

  it.each([
    ["report.pdf", undefined],
    ["a folder/ünïcode name.png", undefined],
    ["", "empty"],
    ["../secret", "dots"],
    ["a/./b", "dots"],
    ["/lead", "emptySegment"],
    ["trail/", "emptySegment"],
    ["a//b", "emptySegment"],
    ["tab\there", "control"],
    ["x".repeat(MAX_PATH_BYTES), undefined],
    ["é".repeat(MAX_PATH_BYTES / 2 + 1), "tooLong"],
  ])("path %j: %s", (path, problem) => expect(pathProblem(path)).toBe(problem));

  it("encodes each segment of an object's URL path", () => {
    expect(objectUrlPath("downloads", "saas-financial-model.csv")).toBe("downloads/saas-financial-model.csv");
    expect(objectUrlPath("media", "a b/c#d?.png")).toBe("media/a%20b/c%23d%3F.png");
  });
});

describe("sizes and progress", () => {
  it.each([
    [0, "0 B"],
    [900, "900 B"],
    [1024, "1 KB"],
    [1536, "1.5 KB"],
    [12 * 1024 * 1024, "12 MB"],
    [1.25 * 1024 ** 3, "1.3 GB"],
    [-1, "—"],
  ])("%d bytes are %s", (n, text) => expect(formatSize(n)).toBe(text));

  it("is 100% only when every byte is sent", () => {
    expect(percent(0, 0)).toBe(0);
    expect(percent(999, 1000)).toBe(99);
    expect(percent(1000, 1000)).toBe(100);
    expect(percent(1200, 1000)).toBe(100);
  });

  it("previews images only", () => {
    expect(isPreviewable("image/png")).toBe(true);
    expect(isPreviewable("image/svg+xml")).toBe(true);
    expect(isPreviewable("text/csv")).toBe(false);
    expect(isPreviewable(undefined)).toBe(false);
  });
});

describe("storage/v1 refusals", () => {
  it("reads an error body, and keeps a body that is not one", () => {
    expect(failureOf(400, '{"statusCode":"413","code":"EntityTooLarge","error":"Payload too large","message":"The object exceeded the maximum allowed size"}')).toEqual({
      status: 400,
      statusCode: "413",
      message: "The object exceeded the maximum allowed size",
    });
    expect(failureOf(502, "<html>Bad gateway</html>")).toEqual({ status: 502, message: "<html>Bad gateway</html>" });
    expect(failureOf(500, "")).toEqual({ status: 500, message: "HTTP 500" });
  });

  it.each([
    ["409", "The resource already exists", "exists"],
    ["413", "The object exceeded the maximum allowed size", "tooLarge"],
    ["415", "mime type text/html is not supported", "typeNotAllowed"],
    ["404", "Object not found", "notFound"],
    ["400", "Invalid key: a/../b", "invalidName"],
  ] as const)("statusCode %s is %s, with the server's words kept", (statusCode, message, refusal) => {
    const f = { status: 400, statusCode, message };
    expect(refusalOf(f)).toBe(refusal);
    expect(describeFailure(f)).toEqual({ title: filesCopy.refusals[refusal], text: filesCopy.serverSaid(message) });
  });

  it("counts the body's statusCode as the status, so an aal2 refusal is seen as one", () => {
    expect(asRequestFailure({ status: 400, statusCode: "403", message: "AAL2 session is required" })).toMatchObject({ status: 403 });
    expect(asRequestFailure({ status: 503, statusCode: "503", message: "x" })).toMatchObject({ status: 503 });
    expect(describeFailure({ status: 0, message: "Failed to fetch" })).toEqual({ title: "The server cannot be reached", text: "Check your connection, then try again." });
    expect(describeFailure({ status: 503, statusCode: "503", message: "Could not reach the database, try again in a moment" }).text).toContain(
      filesCopy.serverSaid("Could not reach the database, try again in a moment"),
    );
  });
});
