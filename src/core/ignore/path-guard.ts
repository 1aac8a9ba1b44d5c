/** Which paths tools may touch: the ignore file (.tandemignore/.clineignore) and secret files. */
export interface PathGuard {
  /** True when tools must not read, write or list this path (the real guard also judges where its links lead). */
  isIgnored(absolutePath: string): boolean;
  /** Which ignore file's rule refuses the path, for the refusal's words; undefined when no file's does (a secret-looking name). */
  ignoredBy?(absolutePath: string): string | undefined;
}
