// The parts of the mvdan-sh package (mvdan.cc/sh/v3/syntax compiled by GopherJS) this folder uses.
declare module "mvdan-sh" {
  /** A parsed file as GopherJS wraps it; `__internal_object__` is the Go value underneath. */
  export interface ShWrappedFile {
    readonly __internal_object__: unknown;
  }
  export interface ShParser {
    Parse(source: string, name: string): ShWrappedFile;
  }
  export interface ShSyntax {
    NewParser(...options: unknown[]): ShParser;
  }
  const mvdanSh: { readonly syntax: ShSyntax };
  export default mvdanSh;
}
