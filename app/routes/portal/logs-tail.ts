import { data } from "react-router";
import { requireTeam } from "~/http/guards.server";
import { isDomainError } from "~/services/platform/domain-error.server";
import { logFiltersOf, tailLogs, type LogFilters } from "~/services/logs/log-search.server";
import type { Route } from "./+types/logs-tail";

/** Checked twice a second: a new entry shows within a second of being received. */
const POLL_MS = 500;
/** A comment now and then keeps proxies from closing a quiet stream. */
const HEARTBEAT_MS = 15_000;

/**
 * GET /logs/tail?…filters: the Logs page's live tail as server-sent events, one `entry` event per new
 * matching entry. Polling the table (rather than listening in-process) makes it work whichever
 * instance received the entry.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { team } = await requireTeam(request, context, "view_logs");
  let filters: LogFilters;
  try {
    filters = logFiltersOf(new URL(request.url).searchParams);
  } catch (error) {
    if (!isDomainError(error, "invalid_request")) throw error;
    throw data(error.message, { status: 400 });
  }
  let { lastId } = await tailLogs(context.db, { teamId: team.id }, filters, undefined);
  const encoder = new TextEncoder();
  let timer: NodeJS.Timeout | undefined;
  let lastWrite = Date.now();
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (text: string) => {
        controller.enqueue(encoder.encode(text));
        lastWrite = Date.now();
      };
      send(": tail open\n\n");
      const stop = () => {
        clearTimeout(timer);
        try {
          controller.close();
        } catch {
          // Already closed by the client going away.
        }
      };
      request.signal.addEventListener("abort", stop, { once: true });
      const poll = async () => {
        if (request.signal.aborted) return;
        try {
          const result = await tailLogs(context.db, { teamId: team.id }, filters, lastId);
          lastId = result.lastId;
          for (const entry of result.entries) send(`event: entry\nid: ${entry.id}\ndata: ${JSON.stringify({ ...entry, ts: entry.ts.toISOString() })}\n\n`);
          if (Date.now() - lastWrite > HEARTBEAT_MS) send(": keep-alive\n\n");
        } catch (error) {
          context.logger.warn({ err: error }, "live tail poll failed");
        }
        if (!request.signal.aborted) timer = setTimeout(poll, POLL_MS);
      };
      timer = setTimeout(poll, POLL_MS);
    },
    cancel() {
      clearTimeout(timer);
    },
  });
  return new Response(stream, {
    headers: { "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-store", Connection: "keep-alive", "X-Accel-Buffering": "no" },
  });
}
