/** What Discord answered a webhook post, reduced to what a sender must do next. */
export type DiscordAnswer = { kind: "sent"; waitMs: number } | { kind: "rate_limited"; waitMs: number } | { kind: "retry"; error: string } | { kind: "failed"; error: string };

const DELIVERY_TIMEOUT_MS = 10_000;

/** Seconds (a float, as Discord sends them) to milliseconds; null when absent or not a number. */
function seconds(value: string | number | null | undefined): number | null {
  const n = typeof value === "number" ? value : Number(value);
  return value === null || value === undefined || value === "" || !Number.isFinite(n) ? null : Math.ceil(n * 1000);
}

/**
 * Posts one message to a Discord webhook (`?wait=true`, so Discord confirms it). A 429 is never a
 * failure: its `retry_after` (body, or the Retry-After header) is how long to wait. When the bucket
 * is empty (`X-RateLimit-Remaining: 0`) the next post waits for `X-RateLimit-Reset-After`.
 */
export async function postToDiscord(url: string, body: Record<string, unknown>): Promise<DiscordAnswer> {
  let response: Response;
  try {
    response = await fetch(`${url}?wait=true`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "User-Agent": "Stash (log forwarding)" },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
    });
  } catch (error) {
    return { kind: "retry", error: `Discord did not answer: ${(error as Error).message}` };
  }
  const text = await response.text().catch(() => "");
  if (response.status === 429) {
    let retryAfter: number | null = null;
    try {
      retryAfter = seconds((JSON.parse(text) as { retry_after?: number }).retry_after);
    } catch {
      // Not JSON: the header says it.
    }
    return { kind: "rate_limited", waitMs: retryAfter ?? seconds(response.headers.get("retry-after")) ?? 1000 };
  }
  if (response.ok) {
    const empty = response.headers.get("x-ratelimit-remaining") === "0";
    return { kind: "sent", waitMs: empty ? (seconds(response.headers.get("x-ratelimit-reset-after")) ?? 0) : 0 };
  }
  const error = `Discord answered ${response.status}${text ? `: ${text.slice(0, 200)}` : ""}`;
  return response.status >= 500 ? { kind: "retry", error } : { kind: "failed", error };
}
