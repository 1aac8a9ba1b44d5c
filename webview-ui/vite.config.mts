import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL(".", import.meta.url));

// The extension loads fixed file names through asWebviewUri, so output names carry no hash.
export default defineConfig({
  root,
  plugins: [react()],
  base: "./",
  build: {
    outDir: "dist",
    emptyOutDir: true,
    sourcemap: true,
    // One local bundle read from disk by the webview, not fetched over a network.
    chunkSizeWarningLimit: 1024,
    // No dynamic imports, so no preload helper (it would only widen what the CSP must allow).
    modulePreload: { polyfill: false },
    rollupOptions: {
      output: {
        entryFileNames: "assets/index.js",
        chunkFileNames: "assets/[name].js",
        assetFileNames: "assets/[name][extname]",
      },
    },
  },
});
