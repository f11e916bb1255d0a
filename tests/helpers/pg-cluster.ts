import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { freePort } from "./server.ts";

/**
 * A private PostgreSQL cluster (initdb under the temp directory, on a port of its own) that a test may
 * stop and start: never the shared one.
 */

const run = promisify(execFile);

function findInitdb(): string | undefined {
  const root = "/usr/lib/postgresql";
  if (!fs.existsSync(root)) return undefined;
  const versions = fs.readdirSync(root).sort((a, b) => Number(b) - Number(a));
  return versions.map((v) => path.join(root, v, "bin", "initdb")).find((file) => fs.existsSync(file));
}

export const initdb = findInitdb();
const pgCtl = initdb && path.join(path.dirname(initdb), "pg_ctl");
const asRoot = process.getuid?.() === 0;

/** PostgreSQL refuses to run as root: the cluster is the postgres user's. */
function pgRun(command: string, args: string[]) {
  return asRoot ? run("runuser", ["-u", "postgres", "--", command, ...args]) : run(command, args);
}

export class Cluster {
  private constructor(
    readonly dir: string,
    readonly port: number,
  ) {}

  static async create(): Promise<Cluster> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stash-pg-"));
    if (asRoot) {
      const { stdout } = await run("id", ["-u", "postgres"]);
      const uid = Number(stdout.trim());
      fs.chownSync(dir, uid, uid);
    }
    await pgRun(initdb!, ["-D", path.join(dir, "data"), "-A", "trust", "-U", "postgres", "-N"]);
    return new Cluster(dir, await freePort());
  }

  get url() {
    return this.urlOf("postgres");
  }

  urlOf(database: string) {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  /** A new empty database on the cluster; its URL. */
  async createDatabase(name: string): Promise<string> {
    const admin = new pg.Client({ connectionString: this.url });
    await admin.connect();
    try {
      await admin.query(`CREATE DATABASE ${name}`);
    } finally {
      await admin.end();
    }
    return this.urlOf(name);
  }

  start() {
    const options = `-p ${this.port} -k /tmp -c listen_addresses=127.0.0.1 -c fsync=off`;
    return pgRun(pgCtl!, ["-D", path.join(this.dir, "data"), "-o", options, "-l", path.join(this.dir, "log"), "-w", "start"]);
  }

  stop(mode: "immediate" | "fast") {
    return pgRun(pgCtl!, ["-D", path.join(this.dir, "data"), "-m", mode, "-w", "stop"]);
  }

  async remove() {
    await this.stop("fast").catch(() => {});
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
