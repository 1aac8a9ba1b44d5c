#!/usr/bin/env node
// The import rules of src/ (.dependency-cruiser.cjs), and no circles between folders: a folder
// (src/<room>, or src/core/<room> and src/host/<room>, each with its subfolders) must not reach
// itself through the folders it imports. Run by `npm run lint`; prints every break and exits 1.
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { cruise } from "dependency-cruiser";

const require = createRequire(import.meta.url);

/** The breaks of the rules in `baseDir`/src, and what was looked at. */
export async function checkImports(baseDir = process.cwd()) {
  const config = require("../.dependency-cruiser.cjs");
  const result = await cruise(["src"], { ...config.options, baseDir, validate: true, ruleSet: { forbidden: config.forbidden }, outputType: "json" });
  const output = typeof result.output === "string" ? JSON.parse(result.output) : result.output;
  const problems = output.summary.violations.map((v) => {
    const via = v.cycle ? `: ${[v.from, ...v.cycle.map((c) => c.name ?? c)].join(" → ")}` : "";
    return `${v.rule.name}: ${v.from} → ${v.to}${via}`;
  });
  const edges = folderEdges(output.modules);
  problems.push(...folderCircles(edges));
  return { problems, modules: output.summary.totalCruised, folders: edges.size, rules: config.forbidden.length };
}

function folderOf(file) {
  const parts = file.replace(/\.[mc]?[jt]sx?$/, "").split("/");
  return parts.slice(0, parts[1] === "core" || parts[1] === "host" ? 3 : 2).join("/");
}

/** Folder → folder it imports → one module import that says why. */
function folderEdges(modules) {
  const edges = new Map();
  for (const module of modules) {
    if (!module.source.startsWith("src/")) continue;
    const from = folderOf(module.source);
    if (!edges.has(from)) edges.set(from, new Map());
    for (const dependency of module.dependencies) {
      const to = folderOf(dependency.resolved);
      if (!dependency.resolved.startsWith("src/") || to === from) continue;
      if (!edges.get(from).has(to)) edges.get(from).set(to, `${module.source} → ${dependency.resolved}`);
    }
  }
  return edges;
}

/** Each folder that reaches itself, with the shortest way round. */
function folderCircles(edges) {
  const found = [];
  const reported = new Set();
  for (const start of edges.keys()) {
    if (reported.has(start)) continue;
    const path = shortestWayBack(edges, start);
    if (!path) continue;
    for (const folder of path) reported.add(folder);
    const steps = path.map((from, i) => edges.get(from).get(path[(i + 1) % path.length]));
    found.push(`folder-circle: ${[...path, start].join(" → ")} (${steps.join("; ")})`);
  }
  return found;
}

function shortestWayBack(edges, start) {
  const previous = new Map();
  const queue = [start];
  while (queue.length > 0) {
    const folder = queue.shift();
    for (const next of edges.get(folder)?.keys() ?? []) {
      if (next === start) {
        const path = [folder];
        while (path[0] !== start) path.unshift(previous.get(path[0]));
        return path;
      }
      if (previous.has(next)) continue;
      previous.set(next, folder);
      queue.push(next);
    }
  }
  return undefined;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { problems, modules, folders, rules } = await checkImports();
  if (problems.length > 0) {
    console.error(`Import rules: ${problems.length} broken (${modules} modules, ${folders} folders):\n- ${problems.join("\n- ")}`);
    process.exit(1);
  }
  console.log(`Import rules hold: ${modules} modules in ${folders} folders, no circle, ${rules} rules.`);
}
