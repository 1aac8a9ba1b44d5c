/**
 * Takes known secret values and the common shapes of tokens out of text on its way to the model,
 * each replaced by a marker that names its source (never the value). Cheap on the text that has
 * none, which is nearly all of it: the known values are one regular expression (one pass however
 * many there are), and a shape's own expression runs only where its fixed prefix is present.
 */
import type { KnownSecret } from "./known-secrets";

/** How a removed secret reads; the tools refuse text that carries one (it stands for a value they must not write). */
export const MARKER_START = "[secret removed: ";

export function secretMarker(source: string): string {
  return `${MARKER_START}${source}]`;
}

interface TokenShape {
  /** What the marker calls it. */
  readonly name: string;
  /** Text every match contains, looked for first. */
  readonly prefixes: readonly string[];
  readonly pattern: RegExp;
}

/** Shapes of credentials whatever their source (a committed `.env` in `git log -p`, a key read through a link). */
const TOKEN_SHAPES: readonly TokenShape[] = [
  {
    name: "a private key",
    prefixes: ["PRIVATE KEY-----"],
    // The whole block, or what a partial read shows of it.
    pattern: /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----(?:[\s\S]*?-----END [A-Z0-9 ]*PRIVATE KEY-----|[A-Za-z0-9+/=\s:,-]*)/g,
  },
  { name: "an AWS access key id", prefixes: ["AKIA", "ASIA"], pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g },
  { name: "an Anthropic API key", prefixes: ["sk-ant-"], pattern: /\bsk-ant-[A-Za-z0-9_-]{20,}/g },
  { name: "an OpenAI API key", prefixes: ["sk-"], pattern: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{32,}/g },
  { name: "a GitHub token", prefixes: ["ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"], pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{40,})/g },
  { name: "a GitLab token", prefixes: ["glpat-"], pattern: /\bglpat-[A-Za-z0-9_-]{20,}/g },
  { name: "a Google API key", prefixes: ["AIza"], pattern: /\bAIza[0-9A-Za-z_-]{35}/g },
  { name: "a Slack token", prefixes: ["xox"], pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g },
  { name: "a Stripe key", prefixes: ["k_live_"], pattern: /\b[sr]k_live_[0-9A-Za-z]{20,}/g },
  { name: "an npm token", prefixes: ["npm_"], pattern: /\bnpm_[A-Za-z0-9]{36}\b/g },
  { name: "a Hugging Face token", prefixes: ["hf_"], pattern: /\bhf_[A-Za-z0-9]{30,}/g },
];

export interface Scrubbed {
  readonly text: string;
  /** The sources of what was removed, once each. */
  readonly removed: readonly string[];
}

/** Any shape's prefix: one pass says whether any shape can be present (most text has none). */
const ANY_SHAPE = new RegExp(TOKEN_SHAPES.flatMap((shape) => shape.prefixes.map(escapeRegExp)).join("|"));

export class SecretScrubber {
  private readonly sources = new Map<string, string>();
  /** The known values as one alternation, longest first (a value containing another goes whole): one pass, however many. */
  private readonly knownPattern: RegExp | undefined;

  constructor(known: readonly KnownSecret[]) {
    for (const secret of known) if (!this.sources.has(secret.value)) this.sources.set(secret.value, secret.source);
    const values = [...this.sources.keys()].sort((a, b) => b.length - a.length);
    this.knownPattern = values.length > 0 ? new RegExp(values.map(escapeRegExp).join("|"), "g") : undefined;
  }

  scrub(text: string): Scrubbed {
    const removed = new Set<string>();
    let out = text;
    if (this.knownPattern) {
      out = out.replace(this.knownPattern, (value) => {
        const source = this.sources.get(value) as string;
        removed.add(source);
        return secretMarker(source);
      });
    }
    if (ANY_SHAPE.test(out)) {
      for (const shape of TOKEN_SHAPES) {
        if (!shape.prefixes.some((prefix) => out.includes(prefix))) continue;
        out = out.replace(shape.pattern, () => {
          removed.add(shape.name);
          return secretMarker(shape.name);
        });
      }
    }
    return { text: out, removed: [...removed] };
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
