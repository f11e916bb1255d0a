import { useEffect, useState } from "react";
import type { LogLineData } from "~/components/logs/log-line";

/** Keeps at most this many live entries on the page; older ones are a search away. */
const KEEP = 500;

/**
 * The Logs page's live tail: while `on`, new entries matching `filters` arrive over server-sent
 * events (GET /logs/tail) and are returned newest first; reconnects are EventSource's own.
 */
export function useLiveTail(on: boolean, filters: string): { entries: LogLineData[]; connected: boolean } {
  const [entries, setEntries] = useState<LogLineData[]>([]);
  const [connected, setConnected] = useState(false);
  useEffect(() => {
    setEntries([]);
    if (!on) return;
    const source = new EventSource(`/logs/tail?${filters}`);
    source.onopen = () => setConnected(true);
    source.onerror = () => setConnected(false);
    source.addEventListener("entry", (event) => {
      const entry = JSON.parse((event as MessageEvent<string>).data) as LogLineData;
      setEntries((prev) => [entry, ...prev].slice(0, KEEP));
    });
    return () => {
      source.close();
      setConnected(false);
    };
  }, [on, filters]);
  return { entries, connected };
}
