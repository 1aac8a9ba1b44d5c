import { parseArgs } from "node:util";
import type { ApiConfiguration } from "../api";
import type { ToolCallMode } from "../shared/settings";

export interface CliOptions {
  task: string;
  api: ApiConfiguration;
  yolo: boolean;
  json: boolean;
  cwd: string;
  storageDir: string | undefined;
  toolCallMode: ToolCallMode;
}

export const USAGE = `Usage: tandem [options] "task"

Options:
  --provider anthropic|openai   model provider (default: anthropic, or openai when only OPENAI_API_KEY is set)
  --model ID                    model id (default: the provider's default model)
  --base-url URL                API endpoint (also ANTHROPIC_BASE_URL / OPENAI_BASE_URL)
  --native-tools                use the provider's native tool calls instead of XML in the text
  --openai-api chat|responses   which OpenAI API to call (default: Responses for GPT-6 and
                                GPT-5.4+ on OpenAI itself, Chat Completions elsewhere)
  --yolo                        approve every tool without asking
  --cwd DIR                     workspace folder (default: the current folder)
  --storage DIR                 where task histories are saved (default: none)
  --json                        print one JSON object per message
  -h, --help                    show this help

Keys come from ANTHROPIC_API_KEY / OPENAI_API_KEY.`;

/** Parses argv (without node and script); throws an Error with a clear message on bad input. */
export function parseCliArgs(argv: readonly string[], env: NodeJS.ProcessEnv): CliOptions | "help" {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      provider: { type: "string" },
      model: { type: "string" },
      "base-url": { type: "string" },
      "native-tools": { type: "boolean", default: false },
      "openai-api": { type: "string" },
      yolo: { type: "boolean", default: false },
      cwd: { type: "string" },
      storage: { type: "string" },
      json: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) return "help";
  const task = positionals.join(" ").trim();
  if (!task) throw new Error("No task given. Write it as the last argument, in quotes.");

  const provider = values.provider ?? (env.ANTHROPIC_API_KEY || !env.OPENAI_API_KEY ? "anthropic" : "openai");
  if (provider !== "anthropic" && provider !== "openai") {
    throw new Error(`Unknown provider "${provider}": use anthropic or openai.`);
  }
  const openAiApi = values["openai-api"];
  if (openAiApi !== undefined && openAiApi !== "chat" && openAiApi !== "responses") {
    throw new Error(`Unknown OpenAI API "${openAiApi}": use chat or responses.`);
  }
  const apiKey = provider === "anthropic" ? env.ANTHROPIC_API_KEY : env.OPENAI_API_KEY;
  const baseUrl = values["base-url"] ?? (provider === "anthropic" ? env.ANTHROPIC_BASE_URL : env.OPENAI_BASE_URL);
  return {
    task,
    api: { provider, apiKey, baseUrl, modelId: values.model, ...(openAiApi ? { openAiApi } : {}) },
    yolo: values.yolo,
    json: values.json,
    cwd: values.cwd ?? process.cwd(),
    storageDir: values.storage,
    toolCallMode: values["native-tools"] ? "native" : "xml",
  };
}
