import { parseArgs } from "node:util";
import { createAppContext } from "../app/services/app-context.server.ts";
import { ConfigError, loadConfig } from "../app/services/platform/env.server.ts";
import { createLogger } from "../app/services/platform/logger.server.ts";
import { isDomainError } from "../app/services/platform/domain-error.server.ts";
import { DatabaseInUseError } from "../db/index.ts";
import { UsageError, type Command } from "./command.ts";
import { commands } from "./commands/index.ts";

function usage(command?: Command): string {
  if (command) {
    const lines = Object.entries(command.options).map(
      ([name, spec]) => `  --${name}${spec.type === "string" ? " <value>" : ""}${spec.required ? "" : " (optional)"}  ${spec.description}`,
    );
    return [`Usage: npm run cli -- ${command.name} [options] [--json]`, "", command.summary, "", ...lines].join("\n");
  }
  return [
    "Usage: npm run cli -- <command> [options] [--json]",
    "",
    "Commands:",
    ...commands.map((c) => `  ${c.name.padEnd(18)} ${c.summary}`),
    "",
    "Run `npm run cli -- <command> --help` for a command's options.",
  ].join("\n");
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  const command = commands.find((c) => c.name === name);
  if (!command) {
    console.error(name && name !== "--help" ? `Unknown command: ${name}\n\n${usage()}` : usage());
    return name === "--help" ? 0 : 2;
  }
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: rest,
      options: {
        ...Object.fromEntries(Object.entries(command.options).map(([k, v]) => [k, { type: v.type }])),
        json: { type: "boolean" },
        help: { type: "boolean" },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${usage(command)}`);
    return 2;
  }
  if (values.help) {
    console.log(usage(command));
    return 0;
  }
  const missing = Object.entries(command.options).filter(([k, spec]) => spec.required && (values[k] === undefined || values[k] === ""));
  if (missing.length) {
    console.error(`Missing ${missing.map(([k]) => `--${k}`).join(", ")}\n\n${usage(command)}`);
    return 2;
  }

  const config = loadConfig();
  const ctx = await createAppContext(config, { logger: createLogger("warn") });
  try {
    const output = await command.run(ctx, values);
    console.log(values.json ? JSON.stringify(output.json, null, 2) : output.text);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`${error.message}\n\n${usage(command)}`);
      return 2;
    }
    if (isDomainError(error)) {
      console.error(error.message);
      return 1;
    }
    throw error;
  } finally {
    await ctx.close();
  }
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  if (error instanceof ConfigError || error instanceof DatabaseInUseError) {
    console.error(error.message);
    process.exitCode = 1;
  } else {
    console.error(error instanceof Error ? error.stack : error);
    process.exitCode = 1;
  }
}
