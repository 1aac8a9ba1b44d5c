/** Which paths tools may touch: the ignore file (.tandemignore/.clineignore) and secret files. */
export interface PathGuard {
  /** True when tools must not read, write or list this path (the real guard also judges where its links lead). */
  isIgnored(absolutePath: string): boolean;
}
