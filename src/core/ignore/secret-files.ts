/**
 * Files that usually hold credentials. Tools treat them as ignored unless the person allows
 * them, so a model never reads a key or token by accident. Names are compared without regard
 * to case, because macOS and Windows file systems do the same.
 */
import * as path from "node:path";

/** Exact file names (lower case). */
const SECRET_NAMES = new Set([
  ".env",
  ".npmrc",
  ".pypirc",
  ".netrc",
  ".git-credentials",
  "credentials",
  "credentials.json",
]);

/** `.env.*` variants that are templates meant to be committed, not secrets. */
const ENV_TEMPLATES = new Set([".env.example", ".env.sample", ".env.template"]);

const SECRET_EXTENSIONS = new Set([".pem", ".key", ".p12", ".pfx", ".keystore"]);

/** Private SSH keys; their `.pub` halves are public and stay readable. */
const SSH_KEY_PREFIXES = ["id_rsa", "id_ed25519", "id_ecdsa"];

/** True when the path's file name is one that usually holds secrets. */
export function looksLikeSecretFile(filePath: string): boolean {
  const name = path.basename(filePath).toLowerCase();
  if (name === "") return false;
  if (SECRET_NAMES.has(name)) return true;
  if (name.startsWith(".env.")) return !ENV_TEMPLATES.has(name);
  if (SECRET_EXTENSIONS.has(path.extname(name))) return true;
  if (SSH_KEY_PREFIXES.some((prefix) => name.startsWith(prefix))) return !name.endsWith(".pub");
  return name.startsWith("secrets.");
}
