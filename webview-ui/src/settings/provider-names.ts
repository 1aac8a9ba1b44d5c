import { PROVIDERS, type ProviderId } from "../../../src/shared/providers";

/** What the panel calls each provider. */
export const PROVIDER_NAMES = Object.fromEntries(Object.entries(PROVIDERS).map(([id, p]) => [id, p.name])) as Record<ProviderId, string>;

export { PROVIDER_IDS as PROVIDERS } from "../../../src/shared/providers";
