import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { freePort } from "./server.ts";

export interface LocalClamd {
  url: string;
  /** SIGKILLs clamd, as a crash or an OOM kill would. */
  kill(): Promise<void>;
  close(): Promise<void>;
}

export function hasClamd(): boolean {
  try {
    execFileSync("clamd", ["--version"], { stdio: "ignore" });
    execFileSync("sigtool", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port });
    let reply = "";
    socket.setTimeout(1000, () => socket.destroy());
    socket.on("error", () => resolve(false));
    socket.on("data", (chunk) => (reply += chunk.toString()));
    socket.on("close", () => resolve(reply.startsWith("PONG")));
    socket.on("connect", () => socket.end("zPING\0"));
  });
}

/**
 * A real clamd on loopback whose only signatures are the MD5s of `infected` (made with sigtool, as
 * there is no signature download offline), so those exact bytes are reported as malware.
 */
export async function startClamd(infected: { name: string; bytes: Buffer }[]): Promise<LocalClamd> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stash-clamd-"));
  const dbDir = path.join(dir, "db");
  fs.mkdirSync(dbDir);
  const signatures = infected.map(({ name, bytes }) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, bytes);
    return execFileSync("sigtool", ["--md5", file], { encoding: "utf8" }).trim();
  });
  fs.writeFileSync(path.join(dbDir, "stash-test.hdb"), `${signatures.join("\n")}\n`);
  const port = await freePort();
  const conf = path.join(dir, "clamd.conf");
  fs.writeFileSync(
    conf,
    [`TCPSocket ${port}`, "TCPAddr 127.0.0.1", `DatabaseDirectory ${dbDir}`, "Foreground yes", `LogFile ${path.join(dir, "clamd.log")}`, `PidFile ${path.join(dir, "clamd.pid")}`].join("\n"),
  );
  const child: ChildProcess = spawn("clamd", ["-c", conf], { stdio: "ignore" });
  const until = Date.now() + 60_000;
  while (!(await ping(port))) {
    if (child.exitCode !== null) throw new Error(`clamd exited with ${child.exitCode}: ${fs.readFileSync(path.join(dir, "clamd.log"), "utf8")}`);
    if (Date.now() > until) throw new Error("clamd did not answer PING in 60 s");
    await new Promise((r) => setTimeout(r, 100));
  }
  const stop = async (signal: NodeJS.Signals) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill(signal);
    await exited;
  };
  return {
    url: `tcp://127.0.0.1:${port}`,
    kill: () => stop("SIGKILL"),
    async close() {
      await stop("SIGTERM");
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
