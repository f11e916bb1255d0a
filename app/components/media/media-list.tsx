import { Link } from "react-router";
import { Checkbox } from "~/components/ui/checkbox";
import { categoryLabel } from "~/lib/categories";
import { formatBytes, formatDate } from "~/lib/format";
import { MediaThumb } from "~/components/media/media-thumb";
import type { MediaCardFile } from "~/components/media/media-card";

/** The dense layout: one row per file, for owners scrolling through thousands. */
export function MediaList({
  files,
  selected,
  onSelectedChange,
  onPreview,
}: {
  files: MediaCardFile[];
  selected: Set<string>;
  onSelectedChange(id: string, on: boolean): void;
  onPreview(index: number): void;
}) {
  return (
    <div className="overflow-x-auto rounded-md border">
      <table className="w-full text-sm" aria-label="Files">
        <thead className="bg-muted/50 text-left text-xs text-muted-foreground">
          <tr>
            <th scope="col" className="w-10 p-2">
              <span className="sr-only">Select</span>
            </th>
            <th scope="col" className="w-14 p-2">
              <span className="sr-only">Preview</span>
            </th>
            <th scope="col" className="p-2">Name</th>
            <th scope="col" className="hidden p-2 md:table-cell">Category</th>
            <th scope="col" className="hidden p-2 lg:table-cell">Server</th>
            <th scope="col" className="p-2 text-right">Size</th>
            <th scope="col" className="hidden p-2 sm:table-cell">Uploaded</th>
          </tr>
        </thead>
        <tbody className="divide-y">
          {files.map((file, index) => (
            <tr key={file.id} data-testid="media-row" className={selected.has(file.id) ? "bg-primary/5" : undefined}>
              <td className="p-2">
                <Checkbox checked={selected.has(file.id)} onCheckedChange={(v) => onSelectedChange(file.id, v === true)} aria-label={`Select ${file.originalFilename}`} />
              </td>
              <td className="p-2">
                <button type="button" onClick={() => onPreview(index)} aria-label={`Preview ${file.originalFilename}`} className="block rounded focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring">
                  <MediaThumb id={file.id} mimeType={file.mimeType} alt={file.originalFilename} thumbhash={file.thumbhash} className="size-10 rounded object-cover" />
                </button>
              </td>
              <td className="max-w-0 p-2">
                <Link to={`/gallery/${file.id}`} className="block truncate font-medium hover:underline" title={file.originalFilename}>
                  {file.originalFilename}
                </Link>
                <span className="text-xs text-muted-foreground">
                  {[file.playerName, file.isPublic ? null : "Private", file.expiryLabel].filter(Boolean).join(" · ")}
                </span>
              </td>
              <td className="hidden p-2 md:table-cell">{categoryLabel(file.category)}</td>
              <td className="hidden p-2 lg:table-cell">{file.serverName}</td>
              <td className="whitespace-nowrap p-2 text-right tabular-nums">{formatBytes(file.sizeBytes, 1)}</td>
              <td className="hidden whitespace-nowrap p-2 sm:table-cell">{formatDate(file.createdAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
