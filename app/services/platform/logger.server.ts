import pino from "pino";

export type Logger = pino.Logger;

export function createLogger(level: string): Logger {
  return pino(
    {
      level,
      base: { service: "stash" },
      redact: { paths: ["req.headers.authorization", "req.headers['x-api-key']", "req.headers.cookie"], remove: true },
    },
    stdoutLines(),
  );
}

let stdout: pino.DestinationStream | undefined;

/**
 * Standard output for log lines, written once per event-loop turn (decision record 090): pino's
 * asynchronous destination starts a write for each line it is given while none is in flight, and
 * at one access-log line per `/f/` hit those writes and their completions cost about as much CPU as
 * formatting the lines. The lines of a turn are joined and handed to it together, so a line is out
 * as soon as the turn that logged it ends; at exit, what is pending is handed over and written
 * synchronously. One per process, as standard output is.
 */
function stdoutLines(): pino.DestinationStream {
  if (stdout) return stdout;
  const destination = pino.destination({ dest: 1, sync: false });
  let pending = "";
  const handOver = () => {
    const lines = pending;
    pending = "";
    if (lines) destination.write(lines);
  };
  process.on("exit", () => {
    if (!pending) return;
    handOver();
    // The event loop is gone: nothing would finish an asynchronous write now.
    destination.flushSync();
  });
  stdout = {
    write(line: string) {
      if (!pending) setImmediate(handOver);
      pending += line;
    },
  };
  return stdout;
}

/** Query parameters that carry secrets; logged URLs never include their values. */
const SECRET_PARAMS = /([?&](?:apiKey|api_key|api|token|key)=)[^&]*/gi;

export function redactUrl(url: string): string {
  return url.includes("?") ? url.replace(SECRET_PARAMS, "$1[redacted]") : url;
}
