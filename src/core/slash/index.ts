export { SlashCommands } from "./commands";
export type { ExpandedCommand } from "./parse";
export { findWorkflows, readWorkflow, WORKFLOW_LIMIT_BYTES, type Workflow, type WorkflowSources } from "./workflows";
export { BUILTIN_COMMANDS } from "./builtins";
