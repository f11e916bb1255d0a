import { FileText, Film, ImageOff, Music } from "lucide-react";
import { useEffect, useMemo, useRef, useState } from "react";
import { thumbHashToDataURL } from "thumbhash";
import { previewUrl, thumbnailUrl } from "~/lib/file-actions";
import { mediaKind } from "~/lib/media-kind";
import { cn } from "~/lib/utils";

interface MediaThumbProps {
  id: string;
  mimeType: string;
  alt: string;
  className?: string;
  /** ThumbHash (base64) drawn, blurred, until the thumbnail has loaded. */
  thumbhash?: string | null;
  /** Plays the video's 3 s animated preview instead of its poster (the card is hovered or focused). */
  previewing?: boolean;
}

/** The placeholder image of a ThumbHash, or undefined for none or a malformed one. */
function placeholderUrl(thumbhash: string | null | undefined): string | undefined {
  if (!thumbhash) return undefined;
  try {
    return thumbHashToDataURL(Uint8Array.from(atob(thumbhash), (c) => c.charCodeAt(0)));
  } catch {
    return undefined;
  }
}

/** A card's preview: the 320 px thumbnail (poster for video), or an icon when there is none. */
export function MediaThumb({ id, mimeType, alt, className, thumbhash, previewing = false }: MediaThumbProps) {
  const kind = mediaKind(mimeType);
  const [failed, setFailed] = useState(false);
  const [loaded, setLoaded] = useState(false);
  // A video stored before previews existed has none: fall back to its poster.
  const [previewFailed, setPreviewFailed] = useState(false);
  const showPreview = previewing && kind === "video" && !previewFailed;
  const placeholder = useMemo(() => placeholderUrl(thumbhash), [thumbhash]);
  const img = useRef<HTMLImageElement>(null);
  // An image that failed before hydration never fires onError for React; look at it once.
  useEffect(() => {
    const el = img.current;
    if (el && el.complete && el.naturalWidth === 0) setFailed(true);
    else if (el?.complete) setLoaded(true);
  }, []);

  // Images and videos show their thumbnail or poster, audio its waveform; documents an icon.
  const wantsImage = kind !== "document";
  if (!wantsImage || failed) {
    const Icon = kind === "image" ? ImageOff : kind === "video" ? Film : kind === "audio" ? Music : FileText;
    return (
      <div className={cn("flex items-center justify-center bg-muted text-muted-foreground", className)} role="img" aria-label={alt}>
        <Icon className="h-10 w-10" aria-hidden />
      </div>
    );
  }
  return (
    <div
      className={cn("relative overflow-hidden bg-muted bg-cover bg-center", className)}
      style={placeholder && !loaded ? { backgroundImage: `url(${placeholder})` } : undefined}
      data-placeholder={placeholder && !loaded ? "" : undefined}
    >
      <img
        ref={img}
        src={showPreview ? previewUrl(id) : thumbnailUrl(id)}
        alt={alt}
        loading="lazy"
        decoding="async"
        className={kind === "audio" ? "h-full w-full object-contain p-2" : "h-full w-full object-cover"}
        onError={() => (showPreview ? setPreviewFailed(true) : setFailed(true))}
        onLoad={() => setLoaded(true)}
      />
      {kind === "video" ? (
        <span className="absolute bottom-1 right-1 rounded bg-black/70 p-1 text-white">
          <Film className="h-3.5 w-3.5" aria-hidden />
        </span>
      ) : null}
    </div>
  );
}
