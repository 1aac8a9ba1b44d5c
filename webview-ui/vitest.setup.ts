/**
 * jsdom setup for the webview tests: the matchers, and the few browser APIs that
 * @vscode-elements and react-virtuoso call but jsdom does not implement.
 */
import "@testing-library/jest-dom/vitest";
import { cleanup } from "@testing-library/react";
import { afterEach } from "vitest";

// jsdom's ElementInternals has no form-association methods; the elements call them on every update.
const internals = ElementInternals.prototype as unknown as Record<string, unknown>;
const formStubs: Record<string, unknown> = {
  setFormValue: () => undefined,
  setValidity: () => undefined,
  checkValidity: () => true,
  reportValidity: () => true,
};
for (const [name, stub] of Object.entries(formStubs)) if (typeof internals[name] !== "function") internals[name] = stub;
for (const [name, value] of Object.entries({ form: null, validationMessage: "", willValidate: false, validity: {} })) {
  if (!(name in internals)) Object.defineProperty(internals, name, { get: () => value, configurable: true });
}

// vscode-single-select reads its options' labels through innerText, which jsdom lacks.
if (!("innerText" in HTMLElement.prototype)) {
  Object.defineProperty(HTMLElement.prototype, "innerText", {
    get(this: HTMLElement) {
      return this.textContent ?? "";
    },
    set(this: HTMLElement, text: string) {
      this.textContent = text;
    },
    configurable: true,
  });
}

// jsdom lays nothing out, so nothing would ever be observed to resize.
class InertResizeObserver {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
}
globalThis.ResizeObserver ??= InertResizeObserver;

// Lit announces its development build once per module; expected in tests.
(globalThis as { litIssuedWarnings?: Set<string> }).litIssuedWarnings = new Set(["dev-mode"]);

afterEach(() => cleanup());
