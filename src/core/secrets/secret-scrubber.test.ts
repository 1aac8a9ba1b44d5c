import { describe, expect, it } from "vitest";
import { apiKeySecret, environmentSecrets, secretFileValues } from "./known-secrets";
import { MARKER_START, SecretScrubber, secretMarker } from "./secret-scrubber";

describe("SecretScrubber", () => {
  it("replaces each known value by a marker naming its source, longest first, and says what it removed", () => {
    const scrubber = new SecretScrubber([
      { value: "hunter2hunter2", source: "DB_PASSWORD in .env" },
      { value: "hunter2hunter2-and-more", source: "TOKEN in the environment" },
    ]);
    const { text, removed } = scrubber.scrub("a=hunter2hunter2 b=hunter2hunter2-and-more c=hunter2hunter2");
    expect(text).toBe(`a=${secretMarker("DB_PASSWORD in .env")} b=${secretMarker("TOKEN in the environment")} c=${secretMarker("DB_PASSWORD in .env")}`);
    expect(removed).toEqual(["DB_PASSWORD in .env", "TOKEN in the environment"]);
    expect(text).not.toContain("hunter2");
  });

  it("takes values with regular-expression characters literally", () => {
    const { text } = new SecretScrubber([{ value: "a.b*c+d?(e)[f]$", source: "X" }]).scrub("axbbbc a.b*c+d?(e)[f]$ end");
    expect(text).toBe(`axbbbc ${secretMarker("X")} end`);
  });

  it("leaves text without secrets as it is", () => {
    const text = "const sk = desk-top; // AKIA is a prefix\nghp_short";
    expect(new SecretScrubber([{ value: "not-in-there-1", source: "X" }]).scrub(text)).toEqual({ text, removed: [] });
  });

  it.each([
    ["a private key block", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmU=\n-----END OPENSSH PRIVATE KEY-----", "a private key"],
    ["the start of a key (head -3)", "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7\nMIIEowIBAAKCAQEA8", "a private key"],
    ["an AWS key id", "aws_access_key_id = AKIAIOSFODNN7EXAMPLE", "an AWS access key id"],
    ["an Anthropic key", "key: sk-ant-api03-abcdefghijklmnopqrstuvwxyz012345", "an Anthropic API key"],
    ["an OpenAI key", "OPENAI=sk-proj-abcdefghijklmnopqrstuvwxyz0123456789AB", "an OpenAI API key"],
    ["a GitHub token", "token ghp_abcdefghijklmnopqrstuvwxyz0123456789", "a GitHub token"],
    ["a Google key", "AIzaSyA-abcdefghijklmnopqrstuvwxyz012345", "a Google API key"],
    ["a Slack token", "xoxb-123456789012-abcdefghij", "a Slack token"],
    ["a Stripe key", "sk_live_abcdefghijklmnopqrstuvwx", "a Stripe key"],
  ])("removes %s by its shape", (_what, secret, name) => {
    const { text, removed } = new SecretScrubber([]).scrub(`before ${secret} after`);
    expect(text).toContain(secretMarker(name));
    expect(text).toMatch(/^before /);
    expect(removed).toEqual([name]);
    expect(text).not.toContain(secret.split("\n")[1] ?? secret);
  });

  it("a marker is not itself taken for a secret on a second pass", () => {
    const scrubber = new SecretScrubber([{ value: "s3cretValue99", source: "K in .env" }]);
    const once = scrubber.scrub("s3cretValue99").text;
    expect(scrubber.scrub(once)).toEqual({ text: once, removed: [] });
    expect(once.startsWith(MARKER_START)).toBe(true);
  });
});

describe("the known secrets", () => {
  it("of the environment: credential names in any case, bare too; short values and other names are not", () => {
    const found = environmentSecrets({ API_KEY: "k-123456789", github_token: "gh-123456789", PATH: "/usr/bin:/bin/long", PASSWORD: "short", HOME: "/home/someone" });
    expect(found).toEqual([
      { value: "k-123456789", source: "API_KEY in the environment" },
      { value: "gh-123456789", source: "github_token in the environment" },
    ]);
  });

  it("the API key, named by provider", () => {
    expect(apiKeySecret("sk-whatever-1234", "anthropic")).toEqual([{ value: "sk-whatever-1234", source: "the anthropic API key" }]);
    expect(apiKeySecret(undefined, "anthropic")).toEqual([]);
  });

  it("of a .env: credential names and random-looking values, never words, numbers or placeholders", () => {
    const env = [
      "NODE_ENV=production",
      "PORT=3000",
      "export DB_PASSWORD='correct horse battery'",
      'STRIPE_KEY="abc12345xyz"',
      "SESSION_SIGNING=Zq8vR2mK9pL4xT7wB3nF",
      "DATABASE_URL=postgres://app:pa55word@db:5432/app",
      "API_TOKEN=changeme",
      "# COMMENTED_SECRET=zzzzzzzz",
      "EMPTY=",
    ].join("\n");
    const values = secretFileValues(env, ".env");
    expect(values).toEqual(
      expect.arrayContaining([
        { value: "correct horse battery", source: "DB_PASSWORD in .env" },
        { value: "abc12345xyz", source: "STRIPE_KEY in .env" },
        { value: "Zq8vR2mK9pL4xT7wB3nF", source: "SESSION_SIGNING in .env" },
        { value: "pa55word", source: "a URL's password in .env" },
      ]),
    );
    const all = values.map((v) => v.value);
    expect(all).not.toContain("production");
    expect(all).not.toContain("3000");
    expect(all).not.toContain("changeme");
  });

  it("of other secret files: .npmrc's token, .netrc's password, JSON keys, a PEM's lines", () => {
    expect(secretFileValues("//registry.npmjs.org/:_authToken=npm_tok3n-value", ".npmrc").map((v) => v.value)).toContain("npm_tok3n-value");
    expect(secretFileValues("machine example.com login me password s3cret-pw", ".netrc").map((v) => v.value)).toContain("s3cret-pw");
    expect(secretFileValues('{ "client_secret": "GOCSPX-abcdef123", "type": "service_account" }'.replace(", ", ",\n"), "credentials.json").map((v) => v.value)).toContain("GOCSPX-abcdef123");
    const pemLine = "MIIEowIBAAKCAQEA7q8s9d0f1g2h3j4k5l6z7x8c9v0b1n2m3q4w5e6r7t8y9u0";
    expect(secretFileValues(`-----BEGIN RSA PRIVATE KEY-----\n${pemLine}\n-----END RSA PRIVATE KEY-----`, "server.key")).toContainEqual({ value: pemLine, source: "a key line in server.key" });
  });
});
