/**
 * The libraries that read PDF and Word files (about 2 MB bundled), in a module of their own so the
 * bundles load them only when a document is read: esbuild-options.mjs builds this file as
 * dist/lazy/document-libraries.js and keeps the dynamic import of it a real one.
 */
export { getDocumentProxy } from "unpdf";
export { default as mammoth } from "mammoth";
