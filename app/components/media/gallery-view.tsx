import { Archive, Eye, EyeOff, FolderInput, ImageIcon, LayoutGrid, List, Search, Trash2, Upload } from "lucide-react";
import { useEffect, useMemo, useRef, useState } from "react";
import { Form, Link, useFetcher, useNavigation, useSubmit } from "react-router";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "~/components/ui/alert-dialog";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Skeleton } from "~/components/ui/skeleton";
import { ALL_CATEGORIES, categorySlug, fileCountText, type CategoryOption } from "~/lib/categories";
import { MediaCard, type MediaCardFile } from "~/components/media/media-card";
import { MediaLightbox } from "~/components/media/media-lightbox";
import { MediaList } from "~/components/media/media-list";
import { MoveToCategoryDialog } from "~/components/media/move-to-category-dialog";
import type { ActionResult } from "~/lib/action-result";
import { useTeamPermission } from "~/components/teams/use-team-permission";

interface GalleryPageData {
  files: MediaCardFile[];
  nextCursor: string | null;
}

export interface GalleryViewProps extends GalleryPageData {
  q: string;
  category: string;
  /** The named categories and the account's own, with file counts. */
  categories: CategoryOption[];
  /** Categories as stored, offered when moving files. */
  storedCategories: string[];
  servers: { id: string; name: string }[];
  serverId: string;
  sort: string;
  player: string;
  from: string;
  to: string;
  cursor: string | null;
  hasAnyFiles: boolean;
}

export const GALLERY_SORT_LABELS: Record<string, string> = { newest: "Newest first", oldest: "Oldest first", largest: "Largest first", name: "Name (A–Z)" };
type GalleryLayout = "grid" | "list";
const LAYOUT_KEY = "stash.gallery.layout";

/** Grid or list, remembered in this browser; the server always renders the grid. */
function useGalleryLayout(): [GalleryLayout, (layout: GalleryLayout) => void] {
  const [layout, setLayout] = useState<GalleryLayout>("grid");
  useEffect(() => {
    if (window.localStorage.getItem(LAYOUT_KEY) === "list") setLayout("list");
  }, []);
  return [
    layout,
    (next) => {
      window.localStorage.setItem(LAYOUT_KEY, next);
      setLayout(next);
    },
  ];
}

const SEARCH_DEBOUNCE_MS = 300;

export function GalleryView(props: GalleryViewProps) {
  const navigation = useNavigation();
  const loading = navigation.state === "loading" && navigation.location?.pathname === "/gallery";
  return (
    <section className="space-y-6">
      <header className="space-y-1">
        <h1 className="text-2xl font-bold tracking-tight">Media Gallery</h1>
        <p className="text-muted-foreground">Browse, preview and manage every file your servers have uploaded.</p>
      </header>
      <GalleryFilters {...props} />
      {loading ? (
        <GallerySkeleton />
      ) : (
        // A new search or filter starts a fresh list (and fresh selection).
        <GalleryResults key={[props.q, props.category, props.serverId, props.sort, props.player, props.from, props.to, props.cursor ?? ""].join("\u0000")} {...props} />
      )}
    </section>
  );
}

const SELECT_CLASS =
  "flex h-10 w-full rounded-md border border-input bg-background px-3 py-2 text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring";

function GalleryFilters({ q, category, categories, servers, serverId, sort, player, from, to }: GalleryViewProps) {
  const submit = useSubmit();
  const form = useRef<HTMLFormElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const submitSoon = () => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => form.current && submit(form.current, { replace: true }), SEARCH_DEBOUNCE_MS);
  };
  return (
    <Form ref={form} method="get" role="search" className="flex flex-col gap-3 md:flex-row md:flex-wrap md:items-end">
      <div className="flex-1 space-y-1.5">
        <Label htmlFor="gallery-search">Search</Label>
        <div className="relative">
          <Search className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
          <Input
            id="gallery-search"
            name="q"
            type="search"
            defaultValue={q}
            placeholder="Search by filename or player name"
            className="pl-9"
            onChange={submitSoon}
          />
        </div>
      </div>
      <div className="space-y-1.5 md:w-56">
        <Label htmlFor="gallery-category">Category</Label>
        <select
          id="gallery-category"
          name="category"
          defaultValue={category}
          onChange={(event) => submit(event.currentTarget.form, { replace: true })}
          className={SELECT_CLASS}
        >
          <option value={ALL_CATEGORIES}>All Categories</option>
          {categories.map((option) => (
            <option key={option.value} value={option.value}>
              {`${option.label} (${fileCountText(option)})`}
            </option>
          ))}
        </select>
      </div>
      {servers.length > 1 ? (
        <div className="space-y-1.5 md:w-48">
          <Label htmlFor="gallery-server">Server</Label>
          <select id="gallery-server" name="server" defaultValue={serverId} onChange={(event) => submit(event.currentTarget.form, { replace: true })} className={SELECT_CLASS}>
            <option value="">All Servers</option>
            {servers.map((server) => (
              <option key={server.id} value={server.id}>
                {server.name}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      <div className="space-y-1.5 md:w-44">
        <Label htmlFor="gallery-sort">Sort</Label>
        <select id="gallery-sort" name="sort" defaultValue={sort} onChange={(event) => submit(event.currentTarget.form, { replace: true })} className={SELECT_CLASS}>
          {Object.entries(GALLERY_SORT_LABELS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </div>
      <Button type="submit" variant="secondary">
        Search
      </Button>
      <details className="group md:w-full md:basis-full" open={Boolean(player || from || to)}>
        <summary className="cursor-pointer text-sm text-muted-foreground hover:text-foreground">More filters: player and date</summary>
        <div className="mt-3 grid gap-3 sm:grid-cols-3">
          <div className="space-y-1.5">
            <Label htmlFor="gallery-player">Player name or identifier</Label>
            <Input id="gallery-player" name="player" defaultValue={player} placeholder="e.g. license:abc123" onChange={submitSoon} />
          </div>
          <div className="space-y-1.5">
            <Label htmlFor="gallery-from">Uploaded from</Label>
            <Input id="gallery-from" name="from" type="date" defaultValue={from} onChange={(event) => submit(event.currentTarget.form, { replace: true })} />
          </div>
          <div className="space-y-1.5">
            <Label htmlFor="gallery-to">Uploaded until</Label>
            <Input id="gallery-to" name="to" type="date" defaultValue={to} onChange={(event) => submit(event.currentTarget.form, { replace: true })} />
          </div>
        </div>
      </details>
    </Form>
  );
}

function GallerySkeleton() {
  return (
    <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3 2xl:grid-cols-4" aria-busy="true" aria-label="Loading media files">
      {Array.from({ length: 8 }, (_, i) => (
        <div key={i} className="space-y-3 rounded-lg border p-3">
          <Skeleton className="aspect-video w-full" />
          <Skeleton className="h-4 w-3/4" />
          <Skeleton className="h-3 w-1/2" />
          <Skeleton className="h-9 w-full" />
        </div>
      ))}
    </div>
  );
}

type BulkResult = ActionResult & { changed: string[]; deleted: string[] };
type BulkChange = { isPublic?: boolean; category?: string };

function GalleryResults({ files, nextCursor, q, category, serverId, sort, player, from, to, hasAnyFiles, storedCategories }: GalleryViewProps) {
  const pager = useFetcher<GalleryPageData>();
  const remover = useFetcher<BulkResult>();
  const canEdit = useTeamPermission("delete_media");
  const [layout, setLayout] = useGalleryLayout();
  const [pending, setPending] = useState<BulkChange>({});
  const [edits, setEdits] = useState<Map<string, BulkChange>>(() => new Map());
  const [moving, setMoving] = useState(false);
  const [pages, setPages] = useState<GalleryPageData[]>([]);
  const [seenPage, setSeenPage] = useState<GalleryPageData | undefined>(undefined);
  const [removed, setRemoved] = useState<Set<string>>(() => new Set());
  const [seenRemoval, setSeenRemoval] = useState<typeof remover.data>(undefined);
  const [selected, setSelected] = useState<Set<string>>(() => new Set());
  const [preview, setPreview] = useState<number | null>(null);
  const [confirming, setConfirming] = useState(false);

  // Fold each fetched page and each finished deletion into the list as it arrives.
  if (pager.data && pager.data !== seenPage) {
    setSeenPage(pager.data);
    setPages((prev) => [...prev, pager.data!]);
  }
  if (remover.data && remover.data !== seenRemoval) {
    setSeenRemoval(remover.data);
    setRemoved((prev) => new Set([...prev, ...remover.data!.deleted]));
    if (remover.data.ok && remover.data.changed.length && !remover.data.deleted.length) {
      const changed = remover.data.changed;
      setEdits((prev) => new Map([...prev, ...changed.map((id): [string, BulkChange] => [id, { ...prev.get(id), ...pending }])]));
    }
    if (remover.data.ok) setSelected(new Set());
  }

  const visible = useMemo(() => {
    const seen = new Set<string>();
    return [files, ...pages.map((p) => p.files)]
      .flat()
      .filter((file) => {
        if (seen.has(file.id) || removed.has(file.id)) return false;
        seen.add(file.id);
        return true;
      })
      .map((file) => (edits.has(file.id) ? { ...file, ...edits.get(file.id) } : file));
  }, [files, pages, removed, edits]);
  const cursor = pages.length ? pages[pages.length - 1]!.nextCursor : nextCursor;
  const loadingMore = pager.state !== "idle";

  const sentinel = useRef<HTMLDivElement>(null);
  const loadMore = useRef<() => void>(() => {});
  loadMore.current = () => {
    if (!cursor || loadingMore) return;
    const params = new URLSearchParams({ q, category, server: serverId, sort, player, from, to, cursor });
    pager.load(`/gallery?${params}`);
  };
  useEffect(() => {
    const el = sentinel.current;
    if (!el || typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && loadMore.current(), {
      rootMargin: "600px",
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  if (!hasAnyFiles) {
    return (
      <EmptyState title="No media files yet" message="Upload your first media file to get started">
        <Button asChild>
          <Link to="/upload">
            <Upload aria-hidden />
            Upload Media
          </Link>
        </Button>
      </EmptyState>
    );
  }
  if (visible.length === 0) return <EmptyState title="No files found" message="No files match your current filters" />;

  const toggle = (id: string, on: boolean) =>
    setSelected((prev) => {
      const next = new Set(prev);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const deleting = remover.state !== "idle";
  const bulk = (intent: string, change: BulkChange, fields: Record<string, string> = {}) => {
    const body = new FormData();
    body.set("intent", intent);
    for (const [name, value] of Object.entries(fields)) body.set(name, value);
    for (const id of selected) body.append("id", id);
    setPending(change);
    remover.submit(body, { method: "post", action: "/gallery" });
  };
  const zipHref = `/api/portal/files.zip?${new URLSearchParams([...selected].map((id) => ["id", id]))}`;

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-2 text-sm" aria-live="polite">
        <span className="text-muted-foreground">
          {selected.size > 0 ? `${selected.size} selected` : `${visible.length}${cursor ? "+" : ""} ${visible.length === 1 && !cursor ? "file" : "files"}`}
        </span>
        <Button variant="ghost" size="sm" onClick={() => setSelected(new Set(visible.map((f) => f.id)))}>
          Select all
        </Button>
        {selected.size > 0 ? (
          <>
            <Button variant="ghost" size="sm" onClick={() => setSelected(new Set())}>
              Clear selection
            </Button>
            {canEdit ? (
              <>
                <Button variant="outline" size="sm" onClick={() => bulk("visibility", { isPublic: true }, { visibility: "public" })} disabled={deleting}>
                  <Eye aria-hidden />
                  Make public
                </Button>
                <Button variant="outline" size="sm" onClick={() => bulk("visibility", { isPublic: false }, { visibility: "private" })} disabled={deleting}>
                  <EyeOff aria-hidden />
                  Make private
                </Button>
                <Button variant="outline" size="sm" onClick={() => setMoving(true)} disabled={deleting}>
                  <FolderInput aria-hidden />
                  Move to category
                </Button>
              </>
            ) : null}
            <Button asChild variant="outline" size="sm">
              <a href={zipHref} download>
                <Archive aria-hidden />
                Download zip
              </a>
            </Button>
            {canEdit ? (
              <Button variant="destructive" size="sm" onClick={() => setConfirming(true)} disabled={deleting}>
                <Trash2 aria-hidden />
                {deleting ? "Working…" : `Delete selected (${selected.size})`}
              </Button>
            ) : null}
          </>
        ) : null}
        <div className="ml-auto flex gap-1" role="group" aria-label="Layout">
          <Button variant={layout === "grid" ? "secondary" : "ghost"} size="icon" aria-pressed={layout === "grid"} aria-label="Grid view" onClick={() => setLayout("grid")}>
            <LayoutGrid aria-hidden />
          </Button>
          <Button variant={layout === "list" ? "secondary" : "ghost"} size="icon" aria-pressed={layout === "list"} aria-label="List view" onClick={() => setLayout("list")}>
            <List aria-hidden />
          </Button>
        </div>
      </div>

      {layout === "list" ? (
        <MediaList files={visible} selected={selected} onSelectedChange={toggle} onPreview={setPreview} />
      ) : (
        <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3 2xl:grid-cols-4">
          {visible.map((file, index) => (
            <li key={file.id}>
              <MediaCard
                file={file}
                selected={selected.has(file.id)}
                onSelectedChange={(on) => toggle(file.id, on)}
                onPreview={() => setPreview(index)}
              />
            </li>
          ))}
        </ul>
      )}

      <div ref={sentinel} className="flex justify-center py-4">
        {cursor ? (
          <Button asChild variant="outline" aria-busy={loadingMore}>
            <Link
              to={`/gallery?${new URLSearchParams({ q, category, server: serverId, sort, player, from, to, cursor })}`}
              onClick={(event) => {
                event.preventDefault();
                loadMore.current();
              }}
            >
              {loadingMore ? "Loading…" : "Load more"}
            </Link>
          </Button>
        ) : (
          <p className="text-sm text-muted-foreground">That's everything.</p>
        )}
      </div>

      <MediaLightbox files={visible} index={preview} onIndexChange={setPreview} />

      <MoveToCategoryDialog
        open={moving}
        onOpenChange={setMoving}
        count={selected.size}
        categories={storedCategories}
        onMove={(target) => bulk("category", { category: categorySlug(target) }, { category: target })}
      />

      <AlertDialog open={confirming} onOpenChange={setConfirming}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Delete {selected.size === 1 ? "this file" : `${selected.size} files`}?</AlertDialogTitle>
            <AlertDialogDescription>
              This permanently deletes the selected files and their links stop working. This action cannot be undone.
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel>Cancel</AlertDialogCancel>
            <AlertDialogAction
              className="bg-destructive text-destructive-foreground hover:bg-destructive/90"
              onClick={() => bulk("delete", {})}
            >
              Delete
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </div>
  );
}

function EmptyState({ title, message, children }: { title: string; message: string; children?: React.ReactNode }) {
  return (
    <div className="flex flex-col items-center gap-3 rounded-lg border border-dashed p-10 text-center">
      <ImageIcon className="h-10 w-10 text-muted-foreground" aria-hidden />
      <h2 className="text-lg font-semibold">{title}</h2>
      <p className="text-muted-foreground">{message}</p>
      {children}
    </div>
  );
}
