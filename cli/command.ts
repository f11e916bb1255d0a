import type { AppContext } from "../app/services/app-context.server.ts";

export interface OptionSpec {
  type: "string" | "boolean";
  required?: boolean;
  description: string;
}

export interface Command {
  name: string;
  summary: string;
  options: Record<string, OptionSpec>;
  run(ctx: AppContext, args: Record<string, string | boolean | undefined>): Promise<CommandOutput>;
}

/** `json` is printed with --json; `text` otherwise. */
export interface CommandOutput {
  json: unknown;
  text: string;
}

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

export function stringArg(args: Record<string, string | boolean | undefined>, name: string): string {
  const value = args[name];
  if (typeof value !== "string" || value.trim() === "") throw new UsageError(`--${name} is required`);
  return value.trim();
}
