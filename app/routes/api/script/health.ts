import { DATABASE_RETRY_AFTER_S } from "~/services/platform/domain-error.server";
import { checkHealth } from "~/services/maintenance/health.server";
import type { Route } from "./+types/health";

export async function loader({ context }: Route.LoaderArgs) {
  const report = await checkHealth(context);
  return Response.json(report, {
    status: report.status === "ok" ? 200 : 503,
    headers: { "Cache-Control": "no-store", ...(report.db.ok ? {} : { "Retry-After": String(DATABASE_RETRY_AFTER_S) }) },
  });
}
