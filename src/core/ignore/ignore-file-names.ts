/** The files that hold the person's ignore rules (gitignore syntax), in the order they are read. */
export const IGNORE_FILE_NAMES = [".tandemignore", ".clineignore"] as const;
