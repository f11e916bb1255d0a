import { Download, Eye, Link2, Share2 } from "lucide-react";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { useState } from "react";
import { Link } from "react-router";
import { Card } from "~/components/ui/card";
import { Checkbox } from "~/components/ui/checkbox";
import { copyText, mediaUrl, onViewClick, startDownload } from "~/lib/file-actions";
import { formatBytes, formatDate } from "~/lib/format";
import { categoryLabel } from "~/lib/categories";
import { MediaThumb } from "~/components/media/media-thumb";

export interface MediaCardFile {
  id: string;
  originalFilename: string;
  category: string;
  mimeType: string;
  sizeBytes: number;
  playerName: string | null;
  serverName?: string;
  thumbhash?: string | null;
  createdAt: string;
  isPublic: boolean;
  /** Public CDN URL, or the owner-only portal URL of a private file. */
  shareUrl: string;
  /** "Expires in 2 days" when retention deletes the file within 3 days. */
  expiryLabel?: string | null;
}

interface MediaCardProps {
  file: MediaCardFile;
  selected: boolean;
  onSelectedChange(selected: boolean): void;
  onPreview(): void;
}

export function MediaCard({ file, selected, onSelectedChange, onPreview }: MediaCardProps) {
  const [hovered, setHovered] = useState(false);
  return (
    <Card className={selected ? "overflow-hidden ring-2 ring-primary" : "overflow-hidden"} data-testid="media-card">
      <div className="relative">
        <button
          type="button"
          className="block w-full focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
          onClick={onPreview}
          onPointerEnter={() => setHovered(true)}
          onPointerLeave={() => setHovered(false)}
          onFocus={() => setHovered(true)}
          onBlur={() => setHovered(false)}
          aria-label={`Preview ${file.originalFilename}`}
        >
          <MediaThumb id={file.id} mimeType={file.mimeType} alt={file.originalFilename} thumbhash={file.thumbhash} previewing={hovered} className="aspect-video w-full" />
        </button>
        <div className="absolute left-2 top-2 rounded bg-background/80 p-1">
          <Checkbox
            checked={selected}
            onCheckedChange={(value) => onSelectedChange(value === true)}
            aria-label={`Select ${file.originalFilename}`}
          />
        </div>
      </div>
      <div className="space-y-2 p-3">
        <div className="flex items-start justify-between gap-2">
          <Link to={`/gallery/${file.id}`} className="min-w-0 truncate font-medium hover:underline" title={`Details of ${file.originalFilename}`}>
            {file.originalFilename}
          </Link>
          <Badge variant="secondary" className="shrink-0">
            {categoryLabel(file.category)}
          </Badge>
        </div>
        <div className="flex flex-wrap gap-x-3 gap-y-1 text-xs text-muted-foreground">
          <span>{formatBytes(file.sizeBytes, 1)}</span>
          {file.playerName ? <span className="truncate">Player: {file.playerName}</span> : null}
          <span>{formatDate(file.createdAt)}</span>
          {file.isPublic ? null : <span>Private</span>}
          {file.expiryLabel ? <span className="font-medium text-destructive" data-testid="expiring-soon">{file.expiryLabel}</span> : null}
        </div>
        <div className="flex gap-2">
          <Button asChild size="sm" variant="outline" className="flex-1">
            <a href={mediaUrl(file.id)} target="_blank" rel="noopener noreferrer" onClick={onViewClick(file.id)}>
              <Eye aria-hidden />
              View
            </a>
          </Button>
          <Button size="sm" variant="outline" className="flex-1" onClick={() => startDownload(file.id, file.originalFilename)}>
            <Download aria-hidden />
            Download
          </Button>
          <Button size="sm" variant="ghost" onClick={() => copyText(file.shareUrl)} aria-label={`Copy URL of ${file.originalFilename}`} title="Copy the file's URL">
            <Link2 aria-hidden />
          </Button>
          {file.isPublic ? (
            <Button size="sm" variant="ghost" onClick={() => copyText(`${window.location.origin}/v/${file.id}`)} aria-label={`Copy share page of ${file.originalFilename}`} title="Copy the share page, which embeds in Discord">
              <Share2 aria-hidden />
            </Button>
          ) : null}
        </div>
      </div>
    </Card>
  );
}
