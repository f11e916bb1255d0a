import { data } from "react-router";
import { requireTeam } from "~/http/guards.server";
import { csvCell } from "~/lib/csv";
import { isDomainError } from "~/services/platform/domain-error.server";
import { logFiltersOf, searchLogs, type LogCursor, type LogFilters } from "~/services/logs/log-search.server";
import type { Route } from "./+types/logs-export";

/** An export holds at most this many entries, newest first. */
export const LOG_EXPORT_LIMIT = 10_000;
const PAGE = 1000;

/** GET /logs/export?format=ndjson|csv&…filters: the current search, up to 10,000 entries, streamed page by page. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { team } = await requireTeam(request, context, "view_logs");
  const query = new URL(request.url).searchParams;
  const format = query.get("format") === "csv" ? "csv" : "ndjson";
  let filters: LogFilters;
  try {
    filters = logFiltersOf(query);
  } catch (error) {
    if (!isDomainError(error, "invalid_request")) throw error;
    throw data(error.message, { status: 400 });
  }
  const encoder = new TextEncoder();
  let before: LogCursor | undefined;
  let sent = 0;
  let started = false;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started && format === "csv") controller.enqueue(encoder.encode("timestamp,server,dataset,level,resource,message,metadata\n"));
      started = true;
      const { entries } = await searchLogs(context.db, { teamId: team.id }, filters, { before, limit: Math.min(PAGE, LOG_EXPORT_LIMIT - sent) });
      const lines = entries.map((e) =>
        format === "csv"
          ? [e.ts.toISOString(), e.serverName, e.dataset, e.level, e.resource, e.message, Object.keys(e.metadata).length ? e.metadata : ""].map(csvCell).join(",")
          : JSON.stringify({ timestamp: e.ts.toISOString(), server: e.serverName, dataset: e.dataset, level: e.level, resource: e.resource, message: e.message, metadata: e.metadata }),
      );
      if (lines.length) controller.enqueue(encoder.encode(`${lines.join("\n")}\n`));
      sent += entries.length;
      const last = entries.at(-1);
      if (!last || entries.length < PAGE || sent >= LOG_EXPORT_LIMIT) controller.close();
      else before = { ts: last.ts, id: last.id };
    },
  });
  const stamp = new Date().toISOString().slice(0, 10);
  return new Response(stream, {
    headers: {
      "Content-Type": format === "csv" ? "text/csv; charset=utf-8" : "application/x-ndjson; charset=utf-8",
      "Content-Disposition": `attachment; filename="stash-logs-${stamp}.${format === "csv" ? "csv" : "ndjson"}"`,
      "Cache-Control": "private, no-store",
    },
  });
}
