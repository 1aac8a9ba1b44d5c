/**
 * The addresses of this machine and of the network it sits in: loopback, unspecified, link-local
 * (cloud metadata endpoints among them), private and carrier-grade NAT ranges, in IPv4 and IPv6,
 * including IPv6's mapped forms of IPv4 addresses. What a model asks to reach there is the
 * person's own services, so web_fetch asks first and the sandbox's open network keeps them out.
 * One list for both; the names that always mean this machine beside it.
 */
import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";

/** Names that mean this machine whatever the resolver says (RFC 6761). Addresses are judged by the ranges. */
export const LOCAL_HOST_NAMES = ["localhost", "*.localhost"] as const;

/** CIDR ranges of this machine and its network. */
export const LOCAL_ADDRESS_RANGES = [
  "0.0.0.0/8",
  "127.0.0.0/8",
  "10.0.0.0/8",
  "100.64.0.0/10",
  "169.254.0.0/16",
  "172.16.0.0/12",
  "192.168.0.0/16",
  "::/128",
  "::1/128",
  "fe80::/10",
  "fc00::/7",
] as const;

const ranges = new BlockList();
for (const range of LOCAL_ADDRESS_RANGES) {
  const [address = "", prefix = ""] = range.split("/");
  ranges.addSubnet(address, Number(prefix), isIP(address) === 6 ? "ipv6" : "ipv4");
}

/** A URL's hostname without the brackets of an IPv6 literal (`[::1]` is `::1`). */
export function bareHost(hostname: string): string {
  return hostname.replace(/^\[(.*)\]$/, "$1");
}

/** True for an IP address (v4, v6, with or without brackets) of this machine or its network; false for a name. */
export function isLocalAddress(address: string): boolean {
  const ip = bareHost(address);
  const family = isIP(ip);
  // BlockList matches an IPv4-mapped IPv6 address (::ffff:7f00:1) against the IPv4 ranges too.
  return family === 0 ? false : ranges.check(ip, family === 4 ? "ipv4" : "ipv6");
}

/**
 * The local address `hostname` is or resolves to, if any (the first found); undefined for a
 * public one. A name that does not resolve is not local: the fetch then fails on its own.
 */
export async function localAddressOf(hostname: string): Promise<string | undefined> {
  const host = bareHost(hostname);
  if (isIP(host)) return isLocalAddress(host) ? host : undefined;
  const name = host.toLowerCase().replace(/\.$/, "");
  if (name === "localhost" || name.endsWith(".localhost")) return "127.0.0.1";
  const found = await lookup(name, { all: true, verbatim: true }).catch(() => []);
  return found.find((entry) => isLocalAddress(entry.address))?.address;
}

/** Whether `url`'s host is on the person's list: its name or address, with its port or without, or a `*.domain` it is under. */
export function hostListed(url: URL, hosts: readonly string[]): boolean {
  const bare = bareHost(url.hostname).toLowerCase();
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  const forms = new Set([bare, url.hostname.toLowerCase(), `${url.hostname.toLowerCase()}:${port}`]);
  return hosts.some((entry) => {
    const pattern = entry.trim().toLowerCase();
    return forms.has(pattern) || (pattern.startsWith("*.") && bare.endsWith(pattern.slice(1)));
  });
}
