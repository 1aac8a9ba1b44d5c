/**
 * Every provider through the shipped CLI bundle, configured the way its people configure it (the
 * provider's own environment variables), against the scripted model server: a task that writes a
 * file with a tool call and completes. Each run checks the request went out on that provider's wire,
 * signed its way, and that no secret reached the output or the model. Also `tandem models`, which
 * prints what the server lists, and the refusals a newcomer meets (no project, VS Code only).
 */
import { mkdtemp, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { METADATA_ACCESS_TOKEN } from "../support/gce-metadata-routes";
import type { RecordedRequest, ScriptTurn } from "../support/script";
import { startCliHarness, type CliHarness } from "./cli-harness";

let cli: CliHarness;
beforeAll(async () => (cli = await startCliHarness()));
afterAll(() => cli?.close());

const WRITE: ScriptTurn = { text: "<write_to_file>\n<path>hello.txt</path>\n<content>hello from the provider\n</content>\n</write_to_file>" };
const DONE: ScriptTurn = { text: "<attempt_completion>\n<result>Wrote hello.txt.</result>\n</attempt_completion>" };

interface ProviderCase {
  readonly provider: string;
  readonly env: (serverUrl: string, home: string) => Record<string, string>;
  /** The secret the run must never print nor send as text. */
  readonly secret?: string;
  readonly protocol: RecordedRequest["protocol"];
  readonly check: (request: RecordedRequest) => void;
  readonly args?: readonly string[];
}

const CASES: readonly ProviderCase[] = [
  {
    provider: "gemini",
    env: (url) => ({ GEMINI_API_KEY: "gemini-secret-key-123", GOOGLE_GEMINI_BASE_URL: url }),
    secret: "gemini-secret-key-123",
    protocol: "gemini",
    check: (request) => expect(request.headers["x-goog-api-key"]).toBe("gemini-secret-key-123"),
  },
  {
    provider: "bedrock",
    env: (url) => ({ AWS_BEARER_TOKEN_BEDROCK: "bedrock-api-key-456", ANTHROPIC_BEDROCK_BASE_URL: url, AWS_REGION: "eu-central-1" }),
    secret: "bedrock-api-key-456",
    protocol: "bedrock",
    check: (request) => {
      expect(request.headers.authorization).toBe("Bearer bedrock-api-key-456");
      expect(request.path).toBe(`/model/${encodeURIComponent("global.anthropic.claude-sonnet-5-5")}/invoke-with-response-stream`);
    },
  },
  {
    provider: "bedrock",
    // The AWS chain's first link: the environment's keys sign the request (SigV4), for the region given.
    env: (url) => ({ AWS_ACCESS_KEY_ID: "AKIAEXAMPLEKEY", AWS_SECRET_ACCESS_KEY: "aws-secret-access-key-789", ANTHROPIC_BEDROCK_BASE_URL: url, AWS_EC2_METADATA_DISABLED: "true" }),
    args: ["--aws-region", "ap-northeast-1"],
    secret: "aws-secret-access-key-789",
    protocol: "bedrock",
    check: (request) => expect(request.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIAEXAMPLEKEY\/\d{8}\/ap-northeast-1\/bedrock\/aws4_request/),
  },
  {
    provider: "vertex",
    // Application Default Credentials from the metadata server (the scripted server plays it).
    env: (url, home) => ({ GOOGLE_CLOUD_PROJECT: "cli-project", VERTEX_BASE_URL: `${url}/v1`, GCE_METADATA_HOST: new URL(url).host, METADATA_SERVER_DETECTION: "assume-present", CLOUDSDK_CONFIG: home }),
    protocol: "vertex-anthropic",
    check: (request) => {
      expect(request.headers.authorization).toBe(`Bearer ${METADATA_ACCESS_TOKEN}`);
      expect(request.path).toMatch(/^\/v1\/projects\/cli-project\/locations\/global\/publishers\/anthropic\/models\/claude-sonnet-5-5:streamRawPredict$/);
    },
  },
  {
    provider: "openrouter",
    env: (url) => ({ OPENROUTER_API_KEY: "sk-or-secret-321", OPENROUTER_BASE_URL: `${url}/v1` }),
    secret: "sk-or-secret-321",
    protocol: "openai",
    check: (request) => {
      expect(request.headers.authorization).toBe("Bearer sk-or-secret-321");
      expect(request.body.model).toBe("anthropic/claude-sonnet-5-5");
    },
  },
  {
    provider: "ollama",
    // OLLAMA_HOST names the server, as Ollama's own CLI reads it; the API is under /v1.
    env: (url) => ({ OLLAMA_HOST: url }),
    args: ["--model", "qwen3-coder:30b"],
    protocol: "openai",
    check: (request) => expect([request.path, request.body.model]).toEqual(["/v1/chat/completions", "qwen3-coder:30b"]),
  },
  {
    provider: "lmstudio",
    env: (url) => ({ LM_STUDIO_BASE_URL: url }),
    args: ["--model", "qwen/qwen3-coder-30b"],
    protocol: "openai",
    check: (request) => expect([request.path, request.body.model]).toEqual(["/v1/chat/completions", "qwen/qwen3-coder-30b"]),
  },
];

describe("each provider through the CLI bundle", { timeout: 60_000 }, () => {
  it.each(CASES.map((c) => [`${c.provider}${c.args ? ` ${c.args.join(" ")}` : ""}`, c] as const))("%s: writes the file and completes", async (_name, c) => {
    const ws = await cli.workspace();
    const home = await mkdtemp(join(cli.dir, "home-"));
    const before = (await cli.requests()).length;
    await cli.script([WRITE, DONE]);
    // No Anthropic variables: only the provider's own reach the run.
    const env = { PATH: process.env.PATH ?? "", HOME: home, ...c.env(cli.serverUrl, home) };
    const run = await cli.run(["--provider", c.provider, ...(c.args ?? []), "--cwd", ws, "--yolo", "--no-checkpoints", "--sandbox", "off", "Write hello.txt"], { env, replaceEnv: true });
    await cli.dropScript();
    expect(run.code, run.stderr).toBe(0);
    expect(await readFile(join(ws, "hello.txt"), "utf8")).toBe("hello from the provider\n");
    const requests = (await cli.requests()).slice(before).filter((r) => r.turnIndex >= 0);
    expect(requests).toHaveLength(2);
    for (const request of requests) {
      expect(request.protocol).toBe(c.protocol);
      c.check(request);
      if (c.secret) expect(JSON.stringify(request.body)).not.toContain(c.secret);
    }
    if (c.secret) expect(run.stdout + run.stderr).not.toContain(c.secret);
  });
});

describe("tandem models", { timeout: 30_000 }, () => {
  it("prints the models Ollama lists, with their context windows, and reads them again with --refresh", async () => {
    cli.setListedModels([
      { id: "qwen3-coder:30b", contextLength: 262_144, tools: true },
      { id: "llama3.2:3b", contextLength: 131_072 },
    ]);
    const env = { PATH: process.env.PATH ?? "", HOME: await mkdtemp(join(cli.dir, "home-")), OLLAMA_HOST: cli.serverUrl };
    const first = await cli.run(["models", "--provider", "ollama"], { env, replaceEnv: true });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout.split("\n").filter(Boolean)).toEqual(["qwen3-coder:30b  262K context", "llama3.2:3b  131K context"]);
    cli.setListedModels([{ id: "mistral:7b", contextLength: 32_768 }]);
    // Within the hour, the kept list; --refresh asks the server.
    expect((await cli.run(["models", "--provider", "ollama"], { env, replaceEnv: true })).stdout).toContain("qwen3-coder:30b");
    const refreshed = await cli.run(["models", "--provider", "ollama", "--refresh", "--json"], { env, replaceEnv: true });
    expect(refreshed.stdout.split("\n").filter(Boolean).map((line) => JSON.parse(line).id)).toEqual(["mistral:7b"]);
  });

  it("says what to do when Ollama is not running", async () => {
    const env = { PATH: process.env.PATH ?? "", HOME: await mkdtemp(join(cli.dir, "home-")), OLLAMA_HOST: "http://127.0.0.1:2" };
    const run = await cli.run(["models", "--provider", "ollama"], { env, replaceEnv: true });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("Ollama is not running at http://127.0.0.1:2 (connection refused)");
  });

  it("lists the catalogue for a provider Tandem knows", async () => {
    const run = await cli.run(["models", "--provider", "bedrock"], { env: { AWS_REGION: "us-east-1" } });
    expect(run.code, run.stderr).toBe(0);
    // By the id Bedrock takes: the global inference profile.
    expect(run.stdout).toMatch(/^global\.anthropic\.claude-sonnet-5-5 {2}1,000K context {2}\$2\/\$10 per M in\/out$/m);
  });
});

describe("what a newcomer is told", () => {
  it("refuses Vertex without a project, naming where to set it, before any request", async () => {
    const run = await cli.run(["--provider", "vertex", "--cwd", await cli.workspace(), "hi"], { env: { PATH: process.env.PATH ?? "", HOME: cli.dir }, replaceEnv: true });
    expect(run.code).toBe(64);
    expect(run.stderr).toContain("Google Vertex AI needs the Google Cloud project (in the CLI: --vertex-project or GOOGLE_CLOUD_PROJECT");
  });

  it("refuses VS Code's language models, which only VS Code has", async () => {
    const run = await cli.run(["--provider", "vscode-lm", "hi"]);
    expect(run.code).toBe(64);
    expect(run.stderr).toContain("is only available inside VS Code");
  });

  it("refuses a flag of another provider", async () => {
    const run = await cli.run(["--provider", "gemini", "--aws-region", "us-east-1", "hi"]);
    expect(run.code).toBe(64);
    expect(run.stderr).toContain("--aws-region does not go with --provider gemini (it takes --base-url)");
  });
});
