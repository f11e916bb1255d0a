import { ChevronLeft, ChevronRight, Download, ExternalLink, FileText, Info } from "lucide-react";
import { Link } from "react-router";
import { Button } from "~/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogTitle } from "~/components/ui/dialog";
import { mediaUrl, onViewClick, startDownload } from "~/lib/file-actions";
import { formatBytes, formatDate } from "~/lib/format";
import { categoryLabel } from "~/lib/categories";
import { mediaKind } from "~/lib/media-kind";
import type { MediaCardFile } from "~/components/media/media-card";

interface MediaLightboxProps {
  files: MediaCardFile[];
  index: number | null;
  onIndexChange(index: number | null): void;
}

/** Full-size preview; Esc closes (Radix), the arrow keys and buttons move through the loaded files. */
export function MediaLightbox({ files, index, onIndexChange }: MediaLightboxProps) {
  const file = index === null ? undefined : files[index];
  const move = (step: number) => {
    if (index === null || files.length === 0) return;
    onIndexChange((index + step + files.length) % files.length);
  };
  return (
    <Dialog open={Boolean(file)} onOpenChange={(open) => (open ? null : onIndexChange(null))}>
      <DialogContent
        className="max-w-4xl"
        onKeyDown={(event) => {
          if (event.key === "ArrowRight") move(1);
          else if (event.key === "ArrowLeft") move(-1);
          else return;
          event.preventDefault();
        }}
      >
        {file ? (
          <>
            <DialogTitle className="truncate pr-8">{file.originalFilename}</DialogTitle>
            <DialogDescription>
              {categoryLabel(file.category)} · {formatBytes(file.sizeBytes, 1)} · {formatDate(file.createdAt)}
              {file.playerName ? ` · ${file.playerName}` : ""}
            </DialogDescription>
            <div className="flex min-h-48 items-center justify-center rounded-md bg-black/40">
              <Preview id={file.id} mimeType={file.mimeType} name={file.originalFilename} />
            </div>
            <div className="flex flex-wrap items-center justify-between gap-2">
              <div className="flex gap-2">
                <Button variant="outline" size="icon" onClick={() => move(-1)} aria-label="Previous file" disabled={files.length < 2}>
                  <ChevronLeft aria-hidden />
                </Button>
                <Button variant="outline" size="icon" onClick={() => move(1)} aria-label="Next file" disabled={files.length < 2}>
                  <ChevronRight aria-hidden />
                </Button>
                <span className="self-center text-sm text-muted-foreground">
                  {index! + 1} / {files.length}
                </span>
              </div>
              <div className="flex gap-2">
                <Button asChild variant="outline" size="sm">
                  <Link to={`/gallery/${file.id}`}>
                    <Info aria-hidden />
                    Details
                  </Link>
                </Button>
                <Button asChild variant="outline" size="sm">
                  <a href={mediaUrl(file.id)} target="_blank" rel="noopener noreferrer" onClick={onViewClick(file.id)}>
                    <ExternalLink aria-hidden />
                    View
                  </a>
                </Button>
                <Button size="sm" onClick={() => startDownload(file.id, file.originalFilename)}>
                  <Download aria-hidden />
                  Download
                </Button>
              </div>
            </div>
          </>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}

function Preview({ id, mimeType, name }: { id: string; mimeType: string; name: string }) {
  const kind = mediaKind(mimeType);
  const src = mediaUrl(id);
  if (kind === "image") return <img key={id} src={src} alt={name} className="max-h-[60vh] w-auto object-contain" />;
  if (kind === "video") return <video key={id} src={src} controls className="max-h-[60vh] w-full" aria-label={name} />;
  if (kind === "audio") return <audio key={id} src={src} controls className="w-full p-6" aria-label={name} />;
  return (
    <div className="flex flex-col items-center gap-2 p-10 text-muted-foreground">
      <FileText className="h-12 w-12" aria-hidden />
      <span>No preview for this file type</span>
    </div>
  );
}
