import { formError } from "~/http/action-results.server";
import { requireTeam } from "~/http/guards.server";
import { CONNECTION_CHECKS, type ConnectionCheck } from "~/lib/connection-checks";
import { runConnectionCheck } from "~/services/maintenance/connection-checks.server";
import type { Route } from "./+types/connection-test";

/** POST check=<name>: one dashboard connection check, answered as JSON. */
export async function action({ request, context }: Route.ActionArgs) {
  const { user, team } = await requireTeam(request, context);
  const check = String((await request.formData()).get("check") ?? "");
  if (!(CONNECTION_CHECKS as readonly string[]).includes(check)) {
    return formError("Unknown check", 400, { message: "Unknown check", details: {} });
  }
  try {
    return await runConnectionCheck(context.db, { ...user, teamId: team.id, canManageKeys: team.permissions.includes("manage_keys") }, check as ConnectionCheck);
  } catch (error) {
    context.logger.error({ err: error, check }, "connection check failed");
    const message = error instanceof Error ? error.message : "Check failed";
    return formError(message, 500, { message, details: {} });
  }
}
