/**
 * Google's Gemini models, as the Gemini API and Vertex AI serve them: context window, output limit,
 * prices (USD per million tokens, the Gemini API's paid tier, checked 2026-12-04; they change, so
 * treat them as estimates), how each one thinks and whether it takes a temperature.
 *
 * Gemini caches prompts implicitly: cache reads are billed at the cached-input price and there is
 * no write charge (writes are priced as plain input; they are never reported). Storage of explicit
 * caches is not modelled: Tandem creates none.
 *
 * Sources: the model pages https://ai.google.dev/gemini-api/docs/models/{model}, the pricing page
 * https://ai.google.dev/gemini-api/docs/pricing and the deprecations page
 * https://ai.google.dev/gemini-api/docs/deprecations, unless noted.
 */
import { entry, type CatalogueEntry } from "./catalogue-entry.js";

/** Every current Gemini model: 1,048,576 tokens in, 65,536 out per request. */
const WINDOW = 1_048_576;
const OUTPUT = 65_536;

/**
 * Gemini 4: one 1,048,576-token limit shared by input and output; thinking levels only (a
 * thinkingBudget is a 400) and sampling parameters ignored. Source: "What's new in Gemini 4 Argon"
 * (docs.cloud.google.com/gemini-enterprise-agent-platform/models/guides/gemini-4-argon).
 */
const GEMINI_4 = { window: WINDOW, output: OUTPUT, thinking: "adaptive", temperature: false } as const;
/**
 * Gemini 3.x: thinking levels; Google's guidance is to leave the temperature at its default 1.0
 * (lower values can make the model loop), so none is sent.
 */
const GEMINI_3 = { window: WINDOW, output: OUTPUT, thinking: "adaptive", temperature: false } as const;
/** Gemini 2.5: a thinking budget in tokens, and a temperature. */
const GEMINI_2_5 = { window: WINDOW, output: OUTPUT, thinking: "manual", temperature: true } as const;

/** The Pro models bill a whole request at higher rates once its prompt passes 200K tokens. */
const PRO_LONG_PROMPT = 200_000;

export const GEMINI: Readonly<Record<string, CatalogueEntry>> = {
  // Neon (GA 2026-11-18): Google's upgrade for Gemini 3.1 Pro; one price over the whole window
  // (docs.laozhang.ai/en/announcements/gemini-4-neon-2026-11, github.com/iyulab/TokenMeter v0.17.0).
  "gemini-4-neon": entry({ ...GEMINI_4, prices: [3, 15, 3, 0.15] }),
  // Argon (GA 2026-10-13) and Carbon (GA 2026-11-10): the launch rates ($2/$10) ended on
  // 2026-11-30 (github.com/BerriAI/litellm discussions 46238 and 50970). Carbon's cache-read
  // price is not published apart from Argon's; it is taken to be the same.
  "gemini-4-argon": entry({ ...GEMINI_4, prices: [4, 20, 4, 0.2] }),
  "gemini-4-carbon": entry({ ...GEMINI_4, prices: [4, 20, 4, 0.2] }),
  // Hydrogen (GA 2026-11-12): a short-lifecycle GA release (45 days' notice before retirement).
  "gemini-4-hydrogen": entry({ ...GEMINI_4, prices: [1.5, 7.5, 1.5, 0.075] }),
  // 3.6 to 3.8 Flash: Google's half-price promotion runs through 2026-12-31; from 2027-01-01 it is
  // $1.50 in, $7.50 out, $0.15 cached (github.com/BerriAI/litellm discussion 39357, models.dev).
  "gemini-3.8-flash": entry({ ...GEMINI_3, prices: [0.75, 3.75, 0.75, 0.075] }),
  "gemini-3.6-flash": entry({ ...GEMINI_3, prices: [0.75, 3.75, 0.75, 0.075] }),
  // Thinks only when asked (docs.apiyi.com/en/api-capabilities/gemini-3-5-flash-lite/overview).
  "gemini-3.5-flash-lite": entry({ ...GEMINI_3, prices: [0.3, 2.5, 0.3, 0.03] }),
  "gemini-3.1-flash-lite": entry({ ...GEMINI_3, prices: [0.25, 1.5, 0.25, 0.025], status: "deprecated", retiresOn: "2027-05-07" }),
  "gemini-3.1-pro-preview": entry({
    ...GEMINI_3,
    prices: [2, 12, 2, 0.2],
    status: "legacy",
    longPrompt: { aboveTokens: PRO_LONG_PROMPT, inputPrice: 4, outputPrice: 18, cacheWritePrice: 4, cacheReadPrice: 0.4 },
  }),
  // Deprecated 2026-10-08: requests are answered by 3.8 Flash and 3.6 Flash (changelog), at their
  // rates; the window is the same.
  "gemini-3.7-flash": entry({ ...GEMINI_3, prices: [0.75, 3.75, 0.75, 0.075], status: "deprecated" }),
  "gemini-3.5-flash": entry({ ...GEMINI_3, prices: [0.75, 3.75, 0.75, 0.075], status: "deprecated" }),
  // Not deprecated on the Gemini API (Vertex AI retired it on 2026-10-20).
  "gemini-2.5-flash-lite": entry({ ...GEMINI_2_5, prices: [0.1, 0.4, 0.1, 0.01], status: "legacy" }),
  // Shut down on the Gemini API on 2026-12-01 (dev.to/aideprecations, quoting the deprecations page).
  "gemini-2.5-pro": entry({
    ...GEMINI_2_5,
    prices: [1.25, 10, 1.25, 0.125],
    status: "deprecated",
    retiresOn: "2026-12-01",
    longPrompt: { aboveTokens: PRO_LONG_PROMPT, inputPrice: 2.5, outputPrice: 15, cacheWritePrice: 2.5, cacheReadPrice: 0.25 },
  }),
  "gemini-2.5-flash": entry({ ...GEMINI_2_5, prices: [0.3, 2.5, 0.3, 0.03], status: "deprecated", retiresOn: "2026-12-01" }),
};

export const DEFAULT_GEMINI_MODEL = "gemini-4-neon";

/** Gemini models go to Google's own publisher on Vertex; every other model there is Claude. */
export function isGeminiModel(modelId: string): boolean {
  return /^(?:.*\/)?gemini-/.test(modelId);
}
