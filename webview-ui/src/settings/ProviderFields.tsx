import type { ApiSettings, WebviewSettings } from "../../../src/shared/protocol";
import { PROVIDER_FIELDS, PROVIDERS, type ProviderField } from "../../../src/shared/providers";
import { ApiKeyField } from "./ApiKeyField";
import { TextSetting } from "./TextSetting";
import { checkUrl } from "./validation";

/** What each text field says below itself: where the value comes from when it is left empty. */
const HELP: Readonly<Record<Exclude<ProviderField, "apiKey">, string>> = {
  baseUrl: "Leave empty for the provider's own endpoint.",
  awsRegion: "The region Bedrock is called in. Empty: us-east-1.",
  awsProfile: "A profile of ~/.aws/config (SSO ones too). Empty: the default chain (environment, default profile, SSO, instance role).",
  vertexProjectId: "The project the requests are billed to. Signed with Application Default Credentials (gcloud auth application-default login).",
  vertexRegion: "Empty: global. Claude is served in us-east5, europe-west1 and others.",
};

/**
 * The selected provider's own settings, in its registry's order (src/shared/providers.ts): the
 * key (write-only, to secret storage), base URL, region, profile, project.
 */
export function ProviderFields({ settings, onChange }: { settings: WebviewSettings; onChange: (change: Partial<ApiSettings>) => void }) {
  const { api } = settings;
  const spec = PROVIDERS[api.provider];
  return (
    <>
      {spec.fields.map((field) => {
        if (field === "apiKey") return <ApiKeyField key={`${api.provider}-key`} provider={api.provider} hasKey={settings.hasApiKey[api.provider] ?? false} />;
        const { label, placeholder } = PROVIDER_FIELDS[field];
        const missing = settings.missingFields.includes(field);
        return (
          <TextSetting
            key={field}
            label={missing ? `${label} (required)` : label}
            value={api[field] ?? ""}
            placeholder={field === "baseUrl" && spec.defaultBaseUrl ? spec.defaultBaseUrl : placeholder}
            help={missing ? `${spec.name} needs this before a task can start. ${HELP[field]}` : HELP[field]}
            validate={field === "baseUrl" ? checkUrl : undefined}
            onCommit={(value) => onChange({ [field]: value })}
          />
        );
      })}
    </>
  );
}
