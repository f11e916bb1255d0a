import { Badge } from "~/components/ui/badge";
import { formatDateTime } from "~/lib/format";

export interface LogLineData {
  id: string;
  ts: string;
  dataset: string;
  serverName: string;
  level: string;
  resource: string | null;
  message: string;
  metadata: Record<string, unknown>;
}

const LEVEL_VARIANT: Record<string, "secondary" | "destructive" | "outline"> = {
  trace: "outline",
  debug: "outline",
  info: "secondary",
  warn: "outline",
  error: "destructive",
  fatal: "destructive",
};

/** Stash image links a line mentions, so the line can show what it refers to. */
function mediaLinks(cdnBaseUrl: string, text: string): string[] {
  const base = cdnBaseUrl.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return [...new Set(text.match(new RegExp(`${base}/f/[A-Za-z0-9_./-]+\\.(?:png|jpe?g|webp|gif|avif)`, "g")) ?? [])].slice(0, 3);
}

export function LogLine({ entry, cdnBaseUrl, fresh }: { entry: LogLineData; cdnBaseUrl: string; fresh?: boolean }) {
  const metadataText = Object.keys(entry.metadata).length ? JSON.stringify(entry.metadata) : "";
  const media = mediaLinks(cdnBaseUrl, `${entry.message} ${metadataText}`);
  return (
    <li className={fresh ? "space-y-1 bg-primary/5 p-3" : "space-y-1 p-3"} data-testid="log-row">
      <div className="flex flex-wrap items-center gap-2 font-sans text-xs text-muted-foreground">
        <time dateTime={entry.ts}>{formatDateTime(entry.ts)}</time>
        <Badge variant={LEVEL_VARIANT[entry.level] ?? "secondary"}>{entry.level}</Badge>
        <span>
          {entry.serverName} · {entry.dataset}
        </span>
        {entry.resource ? <span data-testid="log-resource">{entry.resource}</span> : null}
      </div>
      <p className="whitespace-pre-wrap break-words" data-testid="log-message">
        {entry.message}
      </p>
      {metadataText ? <p className="break-all text-xs text-muted-foreground">{metadataText}</p> : null}
      {media.length ? (
        <div className="flex gap-2">
          {media.map((url) => (
            <a key={url} href={url} target="_blank" rel="noreferrer">
              <img src={`${url}?w=200&format=webp`} alt="Media this entry refers to" className="h-16 rounded border object-cover" loading="lazy" />
            </a>
          ))}
        </div>
      ) : null}
    </li>
  );
}
