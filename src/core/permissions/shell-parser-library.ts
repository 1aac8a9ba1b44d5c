/**
 * The shell parser (mvdan-sh: 1.3 MB of GopherJS, a quarter of each big bundle), in a module of
 * its own so a start does not read it: esbuild-options.mjs builds this file as
 * dist/lazy/shell-parser-library.js, and the bundles require that file when sh-nodes.ts is first
 * evaluated (the permissions load on the first command judged).
 */
export { default as mvdanSh } from "mvdan-sh";
export type { ShParser } from "mvdan-sh";
