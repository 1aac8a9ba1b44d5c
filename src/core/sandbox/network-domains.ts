/** The package registries sandboxed commands reach by default (`tandem.sandbox.network`: `allowList`). */
export const REGISTRY_DOMAINS = [
  // npm (and yarn's mirror of it)
  "registry.npmjs.org",
  "registry.yarnpkg.com",
  // PyPI
  "pypi.org",
  "files.pythonhosted.org",
  // crates.io
  "crates.io",
  "index.crates.io",
  "static.crates.io",
  // the Go module proxy and checksum database
  "proxy.golang.org",
  "sum.golang.org",
  // Maven Central
  "repo.maven.apache.org",
  "repo1.maven.org",
  // RubyGems
  "rubygems.org",
  "index.rubygems.org",
] as const;
