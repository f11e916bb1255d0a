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
 * Standard output for log lines, written once per event-loop turn (decision record 090): the lines a
 * turn logged are joined and written in one synchronous write when the turn ends. pino's asynchronous
 * destination instead starts a thread-pool write for each line while none is in flight, which at one
 * access-log line per `/f/` hit costs about as much CPU as formatting the lines, and a write still in
 * flight when the process exits lands after the lines flushed at exit, or not at all. At exit, what is
 * pending is written. One per process, as standard output is.
 */
function stdoutLines(): pino.DestinationStream {
  if (stdout) return stdout;
  const destination = pino.destination({ dest: 1, sync: true });
  let pending = "";
  const writePending = () => {
    const lines = pending;
    pending = "";
    if (lines) destination.write(lines);
  };
  process.on("exit", writePending);
  stdout = {
    write(line: string) {
      if (!pending) setImmediate(writePending);
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
