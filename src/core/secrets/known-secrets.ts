/**
 * The values Tandem knows are secret, each with where it came from: credential variables of its
 * own environment, its API key, and what the workspace's secret files assign. Only values that
 * look like secrets count (long enough, and under a credential's name or random-looking), so a
 * `.env`'s `NODE_ENV=production` never turns every "production" the model reads into a marker.
 */
import { isCredentialName } from "../sandbox/protected-locations";

export interface KnownSecret {
  readonly value: string;
  /** Where it came from, as the marker names it: "OPENAI_API_KEY in the environment", "DB_PASSWORD in .env". */
  readonly source: string;
}

/** Shorter values are words or numbers, not secrets. */
export const MIN_SECRET_LENGTH = 8;

/** Names that hold credentials in files, more loosely than the environment's rule: `db_pass`, `client_secret`, `_authToken`. */
const CREDENTIAL_WORD = /key|token|secret|pass(?:word|wd)?|pwd|auth|credential|private/i;

/** A password inside a URL: `scheme://user:PASSWORD@host`. */
const URL_PASSWORD = /[a-z][a-z0-9+.-]*:\/\/[^/\s:@]+:([^/\s@]{3,})@/gi;

/** The environment's credential variables. */
export function environmentSecrets(env: NodeJS.ProcessEnv = process.env): KnownSecret[] {
  const found: KnownSecret[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (value && isCredentialName(name) && secretEnough(value)) found.push({ value, source: `${name} in the environment` });
  }
  return found;
}

/** The provider's API key, when one is set. */
export function apiKeySecret(apiKey: string | undefined, provider: string): KnownSecret[] {
  return apiKey && apiKey.length >= MIN_SECRET_LENGTH ? [{ value: apiKey, source: `the ${provider} API key` }] : [];
}

/**
 * What a secret file (`.env`, `.npmrc`, `credentials`, `.netrc`, a JSON key file, a PEM key)
 * gives away: assignments (`NAME=value`, `name = value`, `"name": "value"`) under a credential's
 * name or with a random-looking value, `.netrc`'s passwords, URL passwords, and a key file's
 * base64 lines (so `sed -n 5p id_rsa` is caught, not only the whole block).
 */
export function secretFileValues(text: string, shownName: string): KnownSecret[] {
  const found = new Map<string, string>();
  const add = (value: string, name: string) => {
    if (secretEnough(value) && !found.has(value)) found.set(value, `${name} in ${shownName}`);
  };
  for (const line of text.split(/\r?\n/)) {
    const assignment = ASSIGNMENT.exec(line) ?? FIELD.exec(line);
    if (assignment) {
      const [, name, raw] = assignment as unknown as [string, string, string];
      const value = unquoted(raw);
      if (CREDENTIAL_WORD.test(name) || looksRandom(value)) add(value, name);
    }
    for (const match of line.matchAll(NETRC_PASSWORD)) add(match[1] as string, "a password");
    for (const match of line.matchAll(URL_PASSWORD)) add(match[1] as string, "a URL's password");
    const trimmed = line.trim();
    if (BASE64_LINE.test(trimmed)) add(trimmed, "a key line");
  }
  return [...found].map(([value, source]) => ({ value, source }));
}

/** `NAME=value`, `name = value`, `//host/:_authToken=value` (the name is all before the `=`). */
const ASSIGNMENT = /^\s*(?:export\s+)?["']?([^=\s"'#]+)["']?\s*=\s*(.+?)\s*$/;
/** JSON's and YAML's `"name": "value",`. */
const FIELD = /^[\s{[]*["']?([\w.-]+)["']?\s*:\s*(.+?)\s*,?\s*$/;
const NETRC_PASSWORD = /(?:^|\s)password\s+(\S+)/g;
/** A line of a PEM body: base64 only, long. */
const BASE64_LINE = /^[A-Za-z0-9+/]{40,}={0,2}$/;

function unquoted(raw: string): string {
  const quoted = /^(["'`])(.*)\1$/.exec(raw);
  return quoted ? (quoted[2] as string) : raw.replace(/\s+#.*$/, "");
}

/** Long enough, and not one character repeated (`********`) or a placeholder. */
function secretEnough(value: string): boolean {
  if (value.length < MIN_SECRET_LENGTH || /^(.)\1*$/.test(value)) return false;
  return !/^(?:changeme|password|true|false|null|undefined|<[^>]*>|\$\{[^}]*\}|your[-_ ].*)$/i.test(value);
}

/** Mixed letters and digits with no spaces, 16 or more: what generated keys look like, not words. */
function looksRandom(value: string): boolean {
  if (value.length < 16 || /\s/.test(value)) return false;
  const kinds = [/[a-z]/, /[A-Z]/, /[0-9]/].filter((kind) => kind.test(value)).length;
  return kinds >= 2 && /[0-9]/.test(value);
}
