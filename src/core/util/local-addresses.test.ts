import { describe, expect, it } from "vitest";
import { isLocalAddress } from "./local-addresses";

describe("isLocalAddress", () => {
  it("knows this machine's and its network's addresses, in every spelling a URL leaves", () => {
    for (const address of ["127.0.0.1", "127.0.0.2", "0.0.0.0", "10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254", "100.64.0.1", "::1", "[::1]", "::", "[::]", "0:0:0:0:0:0:0:0", "::ffff:127.0.0.1", "[::ffff:7f00:1]", "::ffff:a00:1", "fe80::1", "fd00::1"]) {
      expect(isLocalAddress(address), address).toBe(true);
    }
  });

  it("leaves public addresses and names alone", () => {
    for (const address of ["8.8.8.8", "93.184.216.34", "172.32.0.1", "2606:4700::1111", "::ffff:8.8.8.8", "example.com", "localhost"]) {
      expect(isLocalAddress(address), address).toBe(false);
    }
  });
});
