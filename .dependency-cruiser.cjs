/**
 * The import rules of src/, checked by `npm run lint` (scripts/check-imports.mjs, which also
 * refuses circles between folders). Type-only imports count: a type is a dependency too.
 */
module.exports = {
  forbidden: [
    { name: "no-circular", severity: "error", comment: "No module imports one that imports it back.", from: {}, to: { circular: true } },
    {
      name: "loop-knows-no-participant",
      severity: "error",
      comment: "The loop (core/task) names no capability: participants join it through the door (core/task/participant.ts), assembled by the Controller.",
      from: { path: "^src/core/task/" },
      to: { path: "^src/core/(participants|controller)/" },
    },
    {
      name: "participants-are-assembled",
      severity: "error",
      comment: "Only the Controller's assembly (and a participant's own folder) imports a participant.",
      from: { path: "^src/", pathNot: ["^src/core/controller/", "^src/core/participants/"] },
      to: { path: "^src/core/participants/" },
    },
    {
      name: "participants-stand-alone",
      severity: "error",
      comment: "A participant imports no other participant: they meet only at the moments of the door.",
      from: { path: "^src/core/participants/([^/]+)/" },
      to: { path: "^src/core/participants/", pathNot: "^src/core/participants/$1/" },
    },
    {
      name: "core-below-hosts",
      severity: "error",
      comment: "The core and the providers never reach up into a host, the CLI or the extension.",
      from: { path: "^src/(core|api|shared)/" },
      to: { path: "^src/(host/(node|vscode)|cli|extension\\.ts)" },
    },
    {
      name: "api-below-core",
      severity: "error",
      comment: "The providers know nothing of the agent.",
      from: { path: "^src/(api|shared)/" },
      to: { path: "^src/core/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "\\.test\\.tsx?$" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { extensions: [".ts", ".tsx", ".js", ".mjs"] },
  },
};
