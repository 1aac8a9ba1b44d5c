/**
 * The @vscode-elements controls the panel uses, imported one by one: the package's index registers
 * every element it has, which would triple the bundle.
 */
export { default as VscodeButton } from "@vscode-elements/react-elements/dist/components/VscodeButton.js";
export { default as VscodeCheckbox } from "@vscode-elements/react-elements/dist/components/VscodeCheckbox.js";
export { default as VscodeCollapsible } from "@vscode-elements/react-elements/dist/components/VscodeCollapsible.js";
export { default as VscodeOption } from "@vscode-elements/react-elements/dist/components/VscodeOption.js";
export { default as VscodeSingleSelect } from "@vscode-elements/react-elements/dist/components/VscodeSingleSelect.js";
export { default as VscodeTextfield } from "@vscode-elements/react-elements/dist/components/VscodeTextfield.js";
export { default as VscodeTextarea } from "@vscode-elements/react-elements/dist/components/VscodeTextarea.js";
