/**
 * The libraries that turn a web page into Markdown (a DOM, Readability, Turndown: about 0.8 MB
 * bundled), in a module of their own so the bundles load them only when web_fetch reads HTML:
 * esbuild-options.mjs builds this file as dist/lazy/web-page-libraries.js and keeps the dynamic
 * import of it a real one.
 */
export { parseHTML } from "linkedom";
export { Readability } from "@mozilla/readability";
export { default as TurndownService } from "turndown";
