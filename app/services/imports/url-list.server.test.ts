import { describe, expect, it } from "vitest";
import { parseHostList, parseUrlList } from "~/services/imports/url-list.server";
import { refusal } from "../../../tests/helpers/refusals";

const A = "https://cdn.discordapp.com/attachments/1012345678901234567/1187654321098765432/IMG_2041.png";
const defaults = { allowPrivateNetworks: false };

describe("parseUrlList", () => {
  it("takes one URL per line, skips blanks and comments, and keys Discord links by attachment", () => {
    const list = parseUrlList(`# exported from phone_photos\n${A}?ex=65f1a2b3&is=65f05133&hm=ab\n\n${A}?ex=66000000&is=65ff0000&hm=cd\nhttps://r2.fivemanage.com/abc/photo.webp`, defaults);
    expect(list.repeated).toBe(1);
    expect(list.items).toEqual([
      { ref: `${A}?ex=65f1a2b3&is=65f05133&hm=ab`, filename: "IMG_2041.png", channelId: "1012345678901234567", attachmentId: "1187654321098765432" },
      { ref: "https://r2.fivemanage.com/abc/photo.webp", filename: "photo.webp" },
    ]);
  });

  it("accepts an array and a host the owner names", () => {
    const list = parseUrlList(["https://i.my-old-host.example/u/a.png"], { ...defaults, hosts: ["i.my-old-host.example"] });
    expect(list.items).toEqual([{ ref: "https://i.my-old-host.example/u/a.png", filename: "a.png" }]);
  });

  it.each([
    ["a host nobody named", "https://evil.example/a.png", /evil\.example is not a host of this import/],
    ["a loopback address", "http://127.0.0.1:8080/a.png", /127\.0\.0\.1 is a loopback address/],
    ["a private address", "http://10.1.2.3/a.png", /10\.1\.2\.3 is a private address/],
    ["the cloud metadata service", "http://169.254.169.254/latest/meta-data/", /169\.254\.169\.254 is a linkLocal address/],
    ["an IPv6 loopback", "http://[::1]/a.png", /::1 is a loopback address/],
    ["another scheme", "file:///etc/passwd", /only http and https/],
    ["a URL with credentials", "https://user:pw@cdn.discordapp.com/attachments/1/2/a.png", /user name or password/],
    ["text that is not a URL", "not-a-url", /not a URL/],
  ])("refuses the whole list for %s, naming the line", (_name, bad, reason) => {
    const error = refusal(() => parseUrlList(`${A}\n${bad}`, defaults));
    expect(error.code).toBe("url_not_allowed");
    expect(error.message).toMatch(/^1 URL was refused, so nothing was imported: line 2: /);
    expect(error.message).toMatch(reason);
    expect(error.details).toMatchObject({ refused_count: 1, refused: [{ line: 2, url: bad }] });
  });

  it("lets a self-hosted Stash reach a private host it names when the operator allows private networks", () => {
    const list = parseUrlList("http://10.1.2.3/a.png", { allowPrivateNetworks: true, hosts: ["10.1.2.3"] });
    expect(list.items).toHaveLength(1);
  });

  it("refuses an empty list", () => {
    expect(refusal(() => parseUrlList("# nothing\n\n", defaults)).message).toBe("The list has no URLs");
  });
});

describe("parseHostList", () => {
  it("takes names separated by spaces or commas, once each, and refuses anything else", () => {
    expect(parseHostList("i.example.com, I.Example.com files.example.org.")).toEqual(["i.example.com", "files.example.org"]);
    expect(refusal(() => parseHostList("https://i.example.com/")).message).toMatch(/is not a host name/);
    expect(refusal(() => parseHostList(["localhost"])).message).toMatch(/is not a host name/);
  });
});
