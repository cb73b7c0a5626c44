/**
 * The console's modules import each other without a cycle: a cycle is how
 * rooms (auth/, data/, screens/, ui/) grow into one knot. Type-only imports
 * count too, since they tie the modules' meanings together all the same.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const root = dirname(new URL(import.meta.url).pathname);
const app = resolve(root, "..");

function modules(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return modules(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

/** importsOf lists the console's modules that file imports (static, dynamic, re-exports; types too). */
function importsOf(file: string, known: Set<string>): string[] {
  const text = readFileSync(file, "utf8");
  const found: string[] = [];
  for (const [, spec] of text.matchAll(/(?:\bfrom|\bimport|\bimport\()\s*["']([^"']+)["']/g)) {
    const base = spec!.startsWith("~/") ? join(app, spec!.slice(2)) : spec!.startsWith(".") ? resolve(dirname(file), spec!) : undefined;
    const target = base && [base, `${base}.ts`, `${base}.tsx`, join(base, "index.ts")].find((p) => known.has(p));
    if (target) found.push(target);
  }
  return found;
}

/** findCycle returns one cycle of the graph as a list of modules (the first repeated at the end), or undefined. */
function findCycle(graph: Map<string, string[]>): string[] | undefined {
  const state = new Map<string, "open" | "done">();
  const path: string[] = [];
  const visit = (m: string): string[] | undefined => {
    state.set(m, "open");
    path.push(m);
    for (const next of graph.get(m) ?? []) {
      if (state.get(next) === "open") return [...path.slice(path.indexOf(next)), next];
      if (!state.has(next)) {
        const cycle = visit(next);
        if (cycle) return cycle;
      }
    }
    path.pop();
    state.set(m, "done");
    return undefined;
  };
  for (const m of graph.keys()) {
    if (state.has(m)) continue;
    const cycle = visit(m);
    if (cycle) return cycle;
  }
  return undefined;
}

describe("the console's imports", () => {
  it("finds a cycle when there is one", () => {
    const graph = new Map([
      ["a", ["b"]],
      ["b", ["c"]],
      ["c", ["a"]],
      ["d", []],
    ]);
    expect(findCycle(graph)).toEqual(["a", "b", "c", "a"]);
    expect(findCycle(new Map([["a", ["b"]], ["b", []]]))).toBeUndefined();
  });

  it("web/app/admin has no import cycle", () => {
    const files = modules(root);
    const known = new Set(files);
    const graph = new Map(files.map((f) => [f, importsOf(f, known)]));
    const cycle = findCycle(graph)?.map((f) => relative(root, f));
    expect(cycle, `import cycle: ${cycle?.join(" → ")}`).toBeUndefined();
  });
});
