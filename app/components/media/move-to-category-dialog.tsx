import { useState } from "react";
import { Button } from "~/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "~/components/ui/dialog";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { sanitizeInput } from "~/lib/sanitize";

/** Asks where the selected files go; the category is part of their URLs, so the dialog says so. */
export function MoveToCategoryDialog({
  open,
  onOpenChange,
  count,
  categories,
  onMove,
}: {
  open: boolean;
  onOpenChange(open: boolean): void;
  count: number;
  categories: string[];
  onMove(category: string): void;
}) {
  const [value, setValue] = useState("");
  const [error, setError] = useState<string | null>(null);
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <form
          noValidate
          className="space-y-4"
          onSubmit={(event) => {
            event.preventDefault();
            const category = sanitizeInput(value);
            if (!category) return setError("Category is required");
            setError(null);
            onMove(category);
            onOpenChange(false);
          }}
        >
          <DialogHeader>
            <DialogTitle>{`Move ${count === 1 ? "1 file" : `${count} files`} to a category`}</DialogTitle>
            <DialogDescription>The category is part of each file's URL, so links to these files change.</DialogDescription>
          </DialogHeader>
          <div className="space-y-2">
            <Label htmlFor="move-category">Category</Label>
            <Input
              id="move-category"
              list="move-category-options"
              value={value}
              maxLength={40}
              onChange={(event) => setValue(sanitizeInput(event.target.value, { trim: false }))}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? "move-category-error" : undefined}
              autoFocus
            />
            <datalist id="move-category-options">
              {categories.map((c) => (
                <option key={c} value={c} />
              ))}
            </datalist>
            {error ? (
              <p id="move-category-error" role="alert" className="text-sm text-destructive">
                {error}
              </p>
            ) : null}
          </div>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit">Move</Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
