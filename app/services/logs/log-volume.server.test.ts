import { describe, expect, it } from "vitest";
import { volumeRefusal } from "~/services/logs/log-volume.server";
import { ERROR_STATUS } from "~/http/api-response.server";

describe("volumeRefusal: past the plan's monthly log volume", () => {
  it("is a 429 saying how much was sent and what the plan takes, thousands separated", () => {
    const error = volumeRefusal("free", 100_000);
    expect(ERROR_STATUS[error.code]).toBe(429);
    expect(error.message).toBe("This team has sent 100,000 log entries this month; the Street plan takes 100,000. Upgrade or wait for the 1st.");
    expect(volumeRefusal("business", 1).message).toBe("This team has sent 1 log entry this month; the Boss plan takes 50,000,000. Upgrade or wait for the 1st.");
  });
});
