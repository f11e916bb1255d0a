import { z } from "zod";
import { createUser, findUserByEmail } from "../../app/services/accounts/users.server.ts";
import { stringArg, UsageError, type Command } from "../command.ts";
import { personalTeams } from "../../app/services/teams/teams.server.ts";

const ROLES = ["user", "moderator", "admin"] as const;
const roleSchema = z.enum(ROLES);

function parseRole(value: string | boolean | undefined) {
  if (value === undefined) return "user" as const;
  const parsed = roleSchema.safeParse(value);
  if (!parsed.success) throw new UsageError(`--role must be one of ${ROLES.join(", ")}`);
  return parsed.data;
}

export const userCreate: Command = {
  name: "user:create",
  summary: "Create a user who can sign in with e-mail and password",
  options: {
    email: { type: "string", required: true, description: "e-mail address" },
    password: { type: "string", required: true, description: "password (6-128 characters)" },
    name: { type: "string", description: "display name (default: the part of the e-mail before @)" },
    role: { type: "string", description: "user | moderator | admin (default user)" },
    verified: { type: "boolean", description: "mark the e-mail as confirmed" },
  },
  async run(ctx, args) {
    const email = stringArg(args, "email");
    if (!z.email().safeParse(email).success) throw new UsageError("--email is not a valid e-mail address");
    const password = stringArg(args, "password");
    if (password.length < 6 || password.length > 128) throw new UsageError("--password must be 6 to 128 characters");
    const user = await createUser(ctx.db, {
      email,
      password,
      displayName: typeof args.name === "string" ? args.name : null,
      role: parseRole(args.role),
      verified: args.verified === true,
    });
    const json = { id: user.id, email: user.email, display_name: user.display_name, role: user.role, verified: Boolean(user.email_verified_at) };
    return { json, text: `Created user ${user.email} (${user.role}) with id ${user.id}` };
  },
};

export const userRole: Command = {
  name: "user:role",
  summary: "Change a user's role",
  options: {
    email: { type: "string", required: true, description: "the user's e-mail" },
    role: { type: "string", required: true, description: "user | moderator | admin" },
  },
  async run(ctx, args) {
    const role = parseRole(stringArg(args, "role"));
    const user = await findUserByEmail(ctx.db, stringArg(args, "email"));
    if (!user) throw new UsageError(`No user with e-mail ${args.email}`);
    await ctx.db.updateTable("users").set({ role }).where("id", "=", user.id).execute();
    return { json: { id: user.id, email: user.email, role }, text: `${user.email} is now ${role}` };
  },
};

export const userList: Command = {
  name: "user:list",
  summary: "List users with their role and their own team's plan and storage used",
  options: {},
  async run(ctx) {
    const rows = await ctx.db
      .selectFrom("users")
      .leftJoin(personalTeams(ctx.db).as("p"), "p.owner_user_id", "users.id")
      .leftJoin("subscriptions", "subscriptions.team_id", "p.team_id")
      .leftJoin("account_usage", "account_usage.team_id", "p.team_id")
      .select(["users.id", "users.email", "users.display_name", "users.role", "users.created_at", "subscriptions.tier", "account_usage.used_bytes"])
      .orderBy("users.created_at", "asc")
      .execute();
    const users = rows.map((r) => ({ ...r, tier: r.tier ?? "free", used_bytes: Number(r.used_bytes ?? 0) }));
    const text = users.length
      ? users.map((u) => `${u.id}  ${u.email ?? "(no e-mail)"}  ${u.role}  ${u.tier}  ${u.used_bytes} bytes`).join("\n")
      : "No users yet";
    return { json: users, text };
  },
};
