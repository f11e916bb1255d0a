import { sanitizeInput } from "~/lib/sanitize";
import { CheckCircle2, Copy, FileUp, Server, Upload, X } from "lucide-react";
import { useRef, useState } from "react";
import { Link } from "react-router";
import { showToast } from "~/lib/toast";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Checkbox } from "~/components/ui/checkbox";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Progress } from "~/components/ui/progress";
import { formatBytes } from "~/lib/format";
import { copyText } from "~/lib/file-actions";
import { DEFAULT_CATEGORY, type CategoryOption } from "~/lib/categories";
import { uploadFile, UploadError, type UploadedFile, type UploadHandle } from "~/lib/upload-client";
import { MISSING_UPLOAD_INFO, NO_SERVERS_MESSAGE, UPLOAD_ACCEPT, UPLOAD_FAILED_FALLBACK, UPLOAD_FAILED_TITLE } from "~/lib/upload-messages";
import { cn } from "~/lib/utils";

interface UploadServer {
  id: string;
  name: string;
  active: boolean;
  maxFileSizeMb: number;
  defaultPublic: boolean;
}

export interface UploadViewProps {
  servers: UploadServer[];
  preselectedServerId: string | null;
  /** The named categories and the account's own, under the names scripts send. */
  categories: CategoryOption[];
}

type ItemStatus = "queued" | "uploading" | "paused" | "done" | "error" | "cancelled";

interface UploadItem {
  key: string;
  file: File;
  status: ItemStatus;
  progress: number;
  error?: string;
  result?: UploadedFile;
}

const selectClass =
  "flex h-10 w-full rounded-md border border-input bg-background px-3 py-2 text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:opacity-50";

export function UploadView({ servers, preselectedServerId, categories }: UploadViewProps) {
  if (servers.length === 0) {
    return (
      <section className="space-y-6">
        <UploadHeader />
        <Card>
          <CardContent className="flex flex-col items-center gap-3 p-10 text-center">
            <Server className="h-10 w-10 text-muted-foreground" aria-hidden />
            <p>{NO_SERVERS_MESSAGE}</p>
            <Button asChild>
              <Link to="/servers">Create a server</Link>
            </Button>
          </CardContent>
        </Card>
      </section>
    );
  }
  return (
    <section className="space-y-6">
      <UploadHeader />
      <UploadForm servers={servers} preselectedServerId={preselectedServerId} categories={categories} />
    </section>
  );
}

function UploadHeader() {
  return (
    <header className="space-y-1">
      <h1 className="text-2xl font-bold tracking-tight">Upload Media</h1>
      <p className="text-muted-foreground">Upload screenshots, videos, audio and documents to one of your servers.</p>
    </header>
  );
}

let nextKey = 0;

function UploadForm({ servers, preselectedServerId, categories }: UploadViewProps) {
  const [items, setItems] = useState<UploadItem[]>([]);
  const [serverId, setServerId] = useState(preselectedServerId ?? "");
  const [category, setCategory] = useState(DEFAULT_CATEGORY);
  const [playerName, setPlayerName] = useState("");
  const [playerIdentifier, setPlayerIdentifier] = useState("");
  const [isPublic, setIsPublic] = useState(() => servers.find((s) => s.id === preselectedServerId)?.defaultPublic ?? true);
  const [uploading, setUploading] = useState(false);
  const [dragging, setDragging] = useState(false);
  const [missing, setMissing] = useState(false);
  const handles = useRef(new Map<string, UploadHandle>());
  const input = useRef<HTMLInputElement>(null);

  const server = servers.find((s) => s.id === serverId);
  const pending = items.filter((i) => i.status === "queued" || i.status === "error" || i.status === "cancelled");
  const ready = pending.length > 0 && Boolean(server);

  const update = (key: string, patch: Partial<UploadItem>) => setItems((prev) => prev.map((i) => (i.key === key ? { ...i, ...patch } : i)));
  const addFiles = (list: FileList | null) => {
    if (!list?.length) return;
    setMissing(false);
    setItems((prev) => [
      ...prev.filter((i) => i.status !== "done"),
      ...Array.from(list, (file) => ({ key: `f${nextKey++}`, file, status: "queued" as const, progress: 0 })),
    ]);
  };

  async function start(event: React.FormEvent) {
    event.preventDefault();
    if (!ready || !server) {
      setMissing(true);
      showToast({ type: "error", title: "Missing information", description: "Please select a file and server." });
      return;
    }
    setUploading(true);
    for (const item of pending) {
      update(item.key, { status: "uploading", progress: 0, error: undefined });
      const handle = uploadFile(
        item.file,
        { serverId: server.id, category, playerName, playerIdentifier, isPublic },
        (progress) => update(item.key, { progress }),
        UPLOAD_FAILED_FALLBACK,
      );
      handles.current.set(item.key, handle);
      try {
        const result = await handle.done;
        update(item.key, { status: "done", progress: 100, result });
      } catch (error) {
        const cancelled = error instanceof UploadError && error.cancelled;
        const message = error instanceof Error ? error.message : UPLOAD_FAILED_FALLBACK;
        update(item.key, { status: cancelled ? "cancelled" : "error", error: cancelled ? "Cancelled" : message });
        if (!cancelled) showToast({ type: "error", title: UPLOAD_FAILED_TITLE, description: `${item.file.name}: ${message}` });
      } finally {
        handles.current.delete(item.key);
      }
    }
    setUploading(false);
    if (input.current) input.current.value = "";
  }

  const done = items.filter((i) => i.status === "done" && i.result);

  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
      <Card>
        <CardHeader>
          <CardTitle className="text-lg">Upload files</CardTitle>
          <CardDescription>
            Game servers upload with their API keys; this page uploads to the selected server with the same checks and limits.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <form onSubmit={start} className="space-y-5" noValidate>
            <div
              className={cn(
                "relative flex flex-col items-center gap-2 rounded-lg border-2 border-dashed p-8 text-center transition-colors focus-within:ring-2 focus-within:ring-ring",
                dragging ? "border-primary bg-primary/5" : "border-border",
              )}
              onDragOver={(event) => {
                event.preventDefault();
                setDragging(true);
              }}
              onDragLeave={() => setDragging(false)}
              onDrop={(event) => {
                event.preventDefault();
                setDragging(false);
                if (!uploading) addFiles(event.dataTransfer.files);
              }}
            >
              <FileUp className="h-10 w-10 text-muted-foreground" aria-hidden />
              <p className="font-medium">Drag and drop files here</p>
              <p className="text-sm text-muted-foreground">Images, video, audio, PDF or text; several at once</p>
              <Label htmlFor="upload-files" className="cursor-pointer text-primary underline underline-offset-4">
                or choose files
              </Label>
              <input
                ref={input}
                id="upload-files"
                type="file"
                multiple
                accept={UPLOAD_ACCEPT}
                className="sr-only"
                disabled={uploading}
                onChange={(event) => addFiles(event.currentTarget.files)}
              />
            </div>

            {items.length > 0 ? (
              <ul className="space-y-3" aria-label="Selected files">
                {items.map((item) => (
                  <UploadRow
                    key={item.key}
                    item={item}
                    resumable={Boolean(handles.current.get(item.key)?.pause)}
                    onPause={() => {
                      handles.current.get(item.key)?.pause?.();
                      update(item.key, { status: "paused" });
                    }}
                    onResume={() => {
                      handles.current.get(item.key)?.resume?.();
                      update(item.key, { status: "uploading" });
                    }}
                    onCancel={() => handles.current.get(item.key)?.cancel()}
                    onRemove={() => setItems((prev) => prev.filter((i) => i.key !== item.key))}
                  />
                ))}
              </ul>
            ) : null}

            <div className="grid gap-4 sm:grid-cols-2">
              <div className="space-y-1.5">
                <Label htmlFor="upload-server">Server</Label>
                <select
                  id="upload-server"
                  className={selectClass}
                  value={serverId}
                  disabled={uploading}
                  onChange={(event) => {
                    setServerId(event.target.value);
                    setMissing(false);
                    const chosen = servers.find((s) => s.id === event.target.value);
                    if (chosen) setIsPublic(chosen.defaultPublic);
                  }}
                >
                  <option value="">Select a server</option>
                  {servers.map((s) => (
                    <option key={s.id} value={s.id} disabled={!s.active}>
                      {s.name}
                      {s.active ? "" : " (inactive)"}
                    </option>
                  ))}
                </select>
                {server ? <p className="text-xs text-muted-foreground">Up to {server.maxFileSizeMb} MB per file</p> : null}
              </div>
              <div className="space-y-1.5">
                <Label htmlFor="upload-category">Category</Label>
                <select
                  id="upload-category"
                  className={selectClass}
                  value={category}
                  disabled={uploading}
                  aria-describedby="upload-category-hint"
                  onChange={(e) => setCategory(e.target.value)}
                >
                  {categories.map((c) => (
                    <option key={c.value} value={c.value}>
                      {c.label}
                    </option>
                  ))}
                </select>
                <p id="upload-category-hint" className="text-xs text-muted-foreground">
                  Stored as <code className="font-mono">{category}</code>, the name scripts send
                </p>
              </div>
              <div className="space-y-1.5">
                <Label htmlFor="upload-player-name">Player name (optional)</Label>
                <Input id="upload-player-name" value={playerName} maxLength={100} disabled={uploading} onChange={(e) => setPlayerName(sanitizeInput(e.target.value, { trim: false }))} />
              </div>
              <div className="space-y-1.5">
                <Label htmlFor="upload-player-id">Player ID (optional)</Label>
                <Input
                  id="upload-player-id"
                  name="playerIdentifier"
                  value={playerIdentifier}
                  maxLength={100}
                  placeholder="e.g. license:abc123"
                  disabled={uploading}
                  onChange={(e) => setPlayerIdentifier(e.target.value)}
                />
              </div>
            </div>

            <div className="flex items-center gap-2">
              <Checkbox id="upload-public" checked={isPublic} disabled={uploading} onCheckedChange={(v) => setIsPublic(v === true)} />
              <Label htmlFor="upload-public">Make file publicly accessible</Label>
            </div>

            {missing ? (
              <p role="alert" className="text-sm text-destructive">
                {MISSING_UPLOAD_INFO}
              </p>
            ) : null}

            <Button type="submit" className="w-full sm:w-auto" disabled={!ready || uploading}>
              <Upload aria-hidden />
              {uploading ? "Uploading…" : pending.length > 1 ? `Upload ${pending.length} Files` : "Upload File"}
            </Button>
          </form>
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle className="text-lg">Uploaded</CardTitle>
          <CardDescription>Links to the files uploaded in this session.</CardDescription>
        </CardHeader>
        <CardContent>
          {done.length === 0 ? (
            <p className="text-sm text-muted-foreground">Nothing uploaded yet.</p>
          ) : (
            <ul className="space-y-4" aria-label="Uploaded files">
              {done.map(({ key, result }) => (
                <li key={key} className="space-y-1.5 rounded-md border p-3 text-sm" data-testid="upload-result">
                  <p className="flex items-center gap-2 font-medium">
                    <CheckCircle2 className="h-4 w-4 shrink-0 text-green-500" aria-hidden />
                    <span className="truncate">{result!.original_filename}</span>
                  </p>
                  <p className="text-muted-foreground">
                    {formatBytes(result!.file_size)} · {result!.mime_type} · {result!.is_public ? "Public" : "Private"}
                  </p>
                  <div className="flex gap-2">
                    <Input readOnly value={result!.public_url} aria-label={`Public URL of ${result!.original_filename}`} className="h-9 font-mono text-xs" />
                    <Button type="button" size="sm" variant="outline" onClick={() => copyText(result!.public_url)} aria-label="Copy public URL">
                      <Copy aria-hidden />
                    </Button>
                  </div>
                </li>
              ))}
            </ul>
          )}
        </CardContent>
      </Card>
    </div>
  );
}

interface UploadRowProps {
  item: UploadItem;
  /** A large file on the resumable path, which can pause. */
  resumable: boolean;
  onPause(): void;
  onResume(): void;
  onCancel(): void;
  onRemove(): void;
}

function UploadRow({ item, resumable, onPause, onResume, onCancel, onRemove }: UploadRowProps) {
  const label =
    item.status === "uploading"
      ? `${item.progress}%`
      : item.status === "paused"
        ? `Paused at ${item.progress}%`
        : item.status === "done"
        ? "Uploaded"
        : item.status === "queued"
          ? "Ready"
          : (item.error ?? "Failed");
  return (
    <li className="space-y-1.5 rounded-md border p-3" data-testid="upload-item">
      <div className="flex items-center justify-between gap-2 text-sm">
        <span className="min-w-0 truncate font-medium">{item.file.name}</span>
        <span className="shrink-0 text-muted-foreground">{formatBytes(item.file.size)}</span>
      </div>
      <div className="flex items-center gap-2">
        <Progress value={item.progress} aria-label={`Upload progress of ${item.file.name}`} className="flex-1" />
        <span className={cn("w-24 shrink-0 truncate text-right text-xs", item.status === "error" ? "text-destructive" : "text-muted-foreground")} title={label}>
          {label}
        </span>
        {item.status === "uploading" && resumable ? (
          <Button type="button" size="sm" variant="ghost" onClick={onPause} aria-label={`Pause ${item.file.name}`}>
            Pause
          </Button>
        ) : null}
        {item.status === "paused" ? (
          <Button type="button" size="sm" variant="ghost" onClick={onResume} aria-label={`Resume ${item.file.name}`}>
            Resume
          </Button>
        ) : null}
        {item.status === "uploading" || item.status === "paused" ? (
          <Button type="button" size="sm" variant="ghost" onClick={onCancel}>
            Cancel
          </Button>
        ) : item.status !== "done" ? (
          <Button type="button" size="icon" variant="ghost" className="h-8 w-8" onClick={onRemove} aria-label={`Remove ${item.file.name}`}>
            <X aria-hidden />
          </Button>
        ) : null}
      </div>
      {item.status === "error" && item.error ? (
        <p role="alert" className="text-xs text-destructive">
          {item.error}
        </p>
      ) : null}
    </li>
  );
}
