import { usePanel } from "../state/panel-context";
import { PROVIDER_NAMES } from "../settings/provider-names";
import { useExtensionState } from "../use-extension-state";
import { Icon } from "./Icon";

/**
 * Shown for exactly as long as the host says no task can start for want of a key
 * (settings.needsApiKey), so it goes away the moment one is saved.
 */
export function MissingKeyBanner() {
  const { store } = usePanel();
  const provider = useExtensionState((state) => (state.settings?.needsApiKey ? state.settings.api.provider : undefined));
  const inSettings = useExtensionState((state) => state.view === "settings");
  if (!provider) return null;
  return (
    <div className="notices">
      <div className="notice notice-warning" role="status">
        <Icon name="key" />
        <span className="notice-text">
          No API key is set for {PROVIDER_NAMES[provider]}. Add one in the settings{provider === "openai" ? " (or set a base URL for a local server)" : ""}; a
          task you send waits and starts as soon as it is saved.
        </span>
        {!inSettings && (
          <button type="button" className="link-button" onClick={() => store.setView("settings")}>
            Open settings
          </button>
        )}
      </div>
    </div>
  );
}
