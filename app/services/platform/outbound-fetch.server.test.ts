import { describe, expect, it } from "vitest";
import { blockedAddressReason, originKey } from "~/services/platform/outbound-fetch.server";

describe("blockedAddressReason", () => {
  it.for([
    ["127.0.0.1", "loopback"],
    ["127.255.0.9", "loopback"],
    ["10.1.2.3", "private"],
    ["172.16.0.1", "private"],
    ["192.168.1.1", "private"],
    ["169.254.169.254", "linkLocal"],
    ["100.100.100.200", "carrierGradeNat"],
    ["0.0.0.0", "unspecified"],
    ["224.0.0.1", "multicast"],
    ["255.255.255.255", "broadcast"],
    ["::1", "loopback"],
    ["::", "unspecified"],
    ["fe80::1", "linkLocal"],
    ["fd00:ec2::254", "uniqueLocal"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:10.0.0.1", "private"],
    ["::ffff:169.254.169.254", "linkLocal"],
    ["2002:7f00:1::", "6to4"],
    ["64:ff9b::a00:1", "rfc6052"],
  ])("refuses %s (%s)", ([address, reason]) => {
    expect(blockedAddressReason(address)).toBe(reason);
  });

  it.for(["1.1.1.1", "8.8.8.8", "162.159.128.233", "2606:4700::6810:85e5", "::ffff:1.1.1.1"])("lets the public address %s through", (address) => {
    expect(blockedAddressReason(address)).toBeNull();
  });

  it("refuses what is not an address at all", () => {
    expect(blockedAddressReason("localhost")).toBe("not an IP address");
    expect(blockedAddressReason("")).toBe("not an IP address");
  });
});

describe("originKey", () => {
  it("spells default ports out and lower-cases the host", () => {
    expect(originKey(new URL("https://Discord.com/api"))).toBe("https://discord.com:443");
    expect(originKey(new URL("http://127.0.0.1:8080/x"))).toBe("http://127.0.0.1:8080");
    expect(originKey(new URL("http://example.com"))).toBe("http://example.com:80");
  });
});
