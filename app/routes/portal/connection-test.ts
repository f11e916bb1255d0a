import { data } from "react-router";
import { requireUser } from "~/http/guards.server";
import { CONNECTION_CHECKS, type ConnectionCheck } from "~/lib/connection-checks";
import { runConnectionCheck } from "~/services/maintenance/connection-checks.server";
import type { Route } from "./+types/connection-test";

/** POST check=<name>: one dashboard connection check, answered as JSON. */
export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request, context);
  const check = String((await request.formData()).get("check") ?? "");
  if (!(CONNECTION_CHECKS as readonly string[]).includes(check)) {
    return data({ ok: false, message: "Unknown check", details: {} }, { status: 400 });
  }
  try {
    return await runConnectionCheck(context.db, user, check as ConnectionCheck);
  } catch (error) {
    context.logger.error({ err: error, check }, "connection check failed");
    return data({ ok: false, message: error instanceof Error ? error.message : "Check failed", details: {} }, { status: 500 });
  }
}
