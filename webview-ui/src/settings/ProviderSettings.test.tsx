import { fireEvent, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { makeSettings, makeState } from "../test-support/fixtures";
import { renderPanel } from "../test-support/render-panel";
import type { WebviewSettings } from "../../../src/shared/protocol";

function openSettings(settings: WebviewSettings) {
  const panel = renderPanel(makeState({ settings }));
  panel.send({ type: "showView", view: "settings" });
  return panel;
}

describe("each provider's own settings", () => {
  it("shows Bedrock's region, profile, key and base URL, and sends a region as typed", () => {
    const panel = openSettings(makeSettings({ api: { provider: "bedrock", modelId: "global.anthropic.claude-sonnet-5-5" }, hasApiKey: { bedrock: false } }));
    for (const label of ["AWS region", "AWS profile", "Base URL"]) expect(screen.getByLabelText(label)).toBeInTheDocument();
    expect(screen.getByText("No key is stored for AWS Bedrock.")).toBeInTheDocument();
    const region = screen.getByLabelText("AWS region");
    fireEvent.input(region, { target: { value: " eu-central-1 " } });
    fireEvent(region, new Event("change"));
    expect(panel.posted()).toEqual([{ type: "updateApiSettings", settings: { awsRegion: "eu-central-1" } }]);
  });

  it("marks Vertex's project as required while it is empty, and asks for no key", () => {
    openSettings(makeSettings({ api: { provider: "vertex", modelId: "claude-sonnet-5-5" }, missingFields: ["vertexProjectId"] }));
    expect(screen.getByLabelText("Google Cloud project (required)")).toBeInTheDocument();
    expect(screen.getByText(/Google Vertex AI needs this before a task can start/)).toBeInTheDocument();
    expect(screen.queryByLabelText("API key")).toBeNull();
  });

  it("shows Ollama's default server as the base URL's placeholder, and no key", () => {
    openSettings(makeSettings({ api: { provider: "ollama" }, model: { id: "", isDefault: true }, modelList: { reading: false } }));
    expect((screen.getByLabelText("Base URL") as HTMLInputElement).placeholder).toBe("http://127.0.0.1:11434");
    expect(screen.queryByLabelText("API key")).toBeNull();
    expect(screen.getByText("Choose a model: this provider has no default.")).toBeInTheDocument();
  });
});

describe("a model list read from the server", () => {
  const listed = makeSettings({
    api: { provider: "openrouter", modelId: "anthropic/claude-sonnet-5-5" },
    hasApiKey: { openrouter: true },
    models: [
      { provider: "openrouter", id: "anthropic/claude-sonnet-5-5", name: "Anthropic: Claude Sonnet 5.5", contextWindow: 1_000_000, maxOutputTokens: 128_000, inputPrice: 2, outputPrice: 10, cacheWritePrice: 2.5, cacheReadPrice: 0.1 },
      { provider: "openrouter", id: "qwen/qwen-coder", contextWindow: 262_144, maxOutputTokens: 65_536, inputPrice: 0.2, outputPrice: 0.8, cacheWritePrice: 0, cacheReadPrice: 0 },
    ],
    model: { id: "anthropic/claude-sonnet-5-5", isDefault: false, catalogueId: "anthropic/claude-sonnet-5-5" },
    modelList: { reading: false, fetchedAt: Date.parse("2026-12-04T10:00:00Z") },
  });

  it("lists the server's models by name, says how many and when, and Refresh asks the host again", async () => {
    const panel = openSettings(listed);
    expect(screen.getByText(/^2 models from the OpenRouter server, read at /)).toBeInTheDocument();
    expect(document.body.textContent).toContain("Anthropic: Claude Sonnet 5.5 (anthropic/claude-sonnet-5-5)");
    await userEvent.click(await screen.findByRole("button", { name: "Refresh models" }));
    expect(panel.posted()).toEqual([{ type: "refreshModels" }]);
  });

  it("says why the list could not be read, and that one is being read", () => {
    const panel = openSettings({ ...listed, models: [], modelList: { reading: false, error: "Ollama is not running at http://127.0.0.1:11434 (connection refused): start it with `ollama serve`." } });
    expect(screen.getByRole("alert")).toHaveTextContent("Ollama is not running at http://127.0.0.1:11434");
    panel.send({ type: "settingsChanged", settings: { ...listed, modelList: { reading: true } } });
    expect(screen.getByText("Reading the models from the OpenRouter server…")).toBeInTheDocument();
  });
});

describe("Test connection", () => {
  it("asks the host, waits, and reads out the outcome", async () => {
    const panel = openSettings(makeSettings());
    const button = await screen.findByRole("button", { name: "Test connection" });
    await userEvent.click(button);
    expect(panel.posted()).toEqual([{ type: "testConnection" }]);
    await waitFor(() => expect(screen.getByRole("status", { name: "" })).toHaveTextContent("Sending one short request…"));
    panel.send({ type: "connectionTested", provider: "anthropic", ok: false, text: "AWS Bedrock: no AWS credentials found: set AWS_PROFILE." });
    await waitFor(() => expect(screen.getByText("AWS Bedrock: no AWS credentials found: set AWS_PROFILE.")).toHaveAttribute("role", "status"));
    expect(screen.getByRole("button", { name: "Test connection" })).toBeInTheDocument();
  });

  it("keeps the outcome while the provider stays, and drops it once another is chosen", async () => {
    const settings = makeSettings({ api: { provider: "gemini" } });
    const panel = openSettings(settings);
    panel.send({ type: "connectionTested", provider: "gemini", ok: true, text: "Connected: gemini-4-neon answered." });
    await waitFor(() => expect(screen.getByRole("status", { name: "" })).toHaveTextContent("Connected: gemini-4-neon answered."));
    panel.send({ type: "settingsChanged", settings: { ...settings, api: { ...settings.api, baseUrl: "http://127.0.0.1:9" } } });
    expect(screen.getByRole("status", { name: "" })).toHaveTextContent("Connected: gemini-4-neon answered.");
    panel.send({ type: "settingsChanged", settings: { ...settings, api: { provider: "vertex" } } });
    await waitFor(() => expect(screen.getByRole("status", { name: "" })).toHaveTextContent(/^$/));
    expect(document.body.textContent).not.toContain("gemini-4-neon answered");
  });
});
