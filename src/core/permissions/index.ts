export { applyModelRequest, evaluateCommand } from "./evaluate-command";
export { DEFAULT_ALLOW_LIST, DEFAULT_COMMAND_POLICY, type CommandDecision, type CommandPolicy, type DecisionRule } from "./command-policy";
export { NO_FILES, type CommandFiles, type CommandWord } from "./command-files";
export type { DenyRule } from "./deny-rules";
export { historyExpansion } from "./line-text";
export { LEXICAL_DISK, type DiskView } from "./workspace-paths";
export { parseShell, type ParseResult } from "./parse-shell";
