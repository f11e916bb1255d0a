import { Settings, Upload } from "lucide-react";
import { Link } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "~/components/ui/card";
import { formatBytes, formatDate } from "~/lib/format";
import { AllowedTypesByGroup } from "~/components/servers/file-type-picker";

export interface ServerCardData {
  id: string;
  name: string;
  description: string | null;
  status: string;
  max_file_size_mb: number;
  allowed_file_types: string[];
  created_at: Date | string;
  fileCount: number;
  usedBytes: number;
}

export function StatusBadge({ status }: { status: string }) {
  const variant = status === "active" ? "success" : status === "maintenance" ? "info" : "secondary";
  return <Badge variant={variant}>{status}</Badge>;
}

export function ServerCard({ server }: { server: ServerCardData }) {
  const active = server.status === "active";
  return (
    <Card className="flex flex-col" data-testid="server-card">
      <CardHeader>
        <div className="flex items-start justify-between gap-2">
          <CardTitle className="min-w-0 break-words text-lg">{server.name}</CardTitle>
          <StatusBadge status={server.status} />
        </div>
        <CardDescription className="line-clamp-2">{server.description || "No description"}</CardDescription>
      </CardHeader>
      <CardContent className="grid flex-1 grid-cols-2 gap-3 text-sm">
        <div>
          <div className="text-muted-foreground">Files</div>
          <div className="font-medium tabular-nums">{server.fileCount}</div>
        </div>
        <div>
          <div className="text-muted-foreground">Storage</div>
          <div className="font-medium tabular-nums">{formatBytes(server.usedBytes)}</div>
        </div>
        <div>
          <div className="text-muted-foreground">Max file size</div>
          <div className="font-medium">{server.max_file_size_mb} MB</div>
        </div>
        <div>
          <div className="text-muted-foreground">Created</div>
          <div className="font-medium">{formatDate(server.created_at)}</div>
        </div>
        <div className="col-span-2">
          <AllowedTypesByGroup allowed={server.allowed_file_types} compact />
        </div>
      </CardContent>
      <CardFooter className="gap-2">
        <Button asChild variant="outline" size="sm" className="flex-1">
          <Link to={`/servers/${server.id}`} aria-label={`Manage ${server.name}`}>
            <Settings aria-hidden /> Manage
          </Link>
        </Button>
        {active ? (
          <Button asChild size="sm" className="flex-1">
            <Link to={`/upload?server=${server.id}`} aria-label={`Upload to ${server.name}`}>
              <Upload aria-hidden /> Upload
            </Link>
          </Button>
        ) : (
          <Button size="sm" className="flex-1" disabled title="Uploads need an active server">
            <Upload aria-hidden /> Upload
          </Button>
        )}
      </CardFooter>
    </Card>
  );
}
