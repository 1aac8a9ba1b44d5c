export { SlashCommands, type ExpandedCommand } from "./commands";
export { PersonText } from "./person-text";
export { findWorkflows, readWorkflow, WORKFLOW_LIMIT_BYTES, type Workflow, type WorkflowSources } from "./workflows";
export { BUILTIN_COMMANDS } from "./builtins";
