import { useEffect, useRef } from "react";
import { Badge } from "~/components/ui/badge";
import { FILE_TYPE_GROUPS, findFileType, groupAllowedTypes } from "~/lib/file-types";
import { cn } from "~/lib/utils";

const TYPE_INPUT = 'input[name="allowedFileTypes"]';

/** Each group checkbox shows whether all, some (mixed) or none of its types are selected. */
function syncGroups(root: HTMLElement) {
  for (const group of root.querySelectorAll<HTMLElement>("[data-file-type-group]")) {
    const boxes = [...group.querySelectorAll<HTMLInputElement>(TYPE_INPUT)];
    const checked = boxes.filter((b) => b.checked).length;
    const toggle = group.querySelector<HTMLInputElement>("input[data-group-toggle]");
    if (!toggle) continue;
    toggle.checked = checked === boxes.length;
    toggle.indeterminate = checked > 0 && checked < boxes.length;
  }
}

/**
 * The allowed-types toggles by catalogue group: one checkbox per group selects or clears all its
 * types, one per type. The type checkboxes are uncontrolled native inputs, so they post without
 * JavaScript and a form reset restores the defaults (the group boxes follow on reset).
 */
export function FileTypePicker({ idPrefix, selected, describedBy }: { idPrefix: string; selected: readonly string[]; describedBy?: string }) {
  const root = useRef<HTMLFieldSetElement>(null);
  const chosen = new Set(selected.map((t) => findFileType(t)?.name ?? t));

  useEffect(() => {
    const node = root.current;
    if (!node) return;
    syncGroups(node);
    const form = node.form;
    const onReset = () => setTimeout(() => syncGroups(node), 0);
    form?.addEventListener("reset", onReset);
    return () => form?.removeEventListener("reset", onReset);
  }, []);

  return (
    <fieldset ref={root} className="grid gap-3" aria-describedby={describedBy} onChange={() => root.current && syncGroups(root.current)}>
      <legend className="mb-2 text-sm font-medium">Allowed File Types</legend>
      {FILE_TYPE_GROUPS.map((group) => {
        const toggleId = `${idPrefix}-types-${group.id}`;
        const all = group.types.every((t) => chosen.has(t.name));
        return (
          <div key={group.id} data-file-type-group={group.id} role="group" aria-labelledby={toggleId + "-label"} className="grid gap-2 rounded-md border p-3">
            <div className="flex items-center gap-2">
              <input
                id={toggleId}
                type="checkbox"
                data-group-toggle
                data-field="allowedFileTypes"
                defaultChecked={all}
                aria-describedby={toggleId + "-hint"}
                className="h-4 w-4 shrink-0 accent-primary"
                onChange={(event) => {
                  const container = event.currentTarget.closest<HTMLElement>("[data-file-type-group]");
                  container?.querySelectorAll<HTMLInputElement>(TYPE_INPUT).forEach((box) => (box.checked = event.currentTarget.checked));
                }}
              />
              <label id={toggleId + "-label"} htmlFor={toggleId} className="cursor-pointer text-sm font-medium">
                {group.label}
              </label>
              <span id={toggleId + "-hint"} className="sr-only">(selects or clears every {group.label.toLowerCase()} type)</span>
            </div>
            <div className="flex flex-wrap gap-2">
              {group.types.map((type) => (
                <label key={type.name} className="cursor-pointer" title={type.label}>
                  <input
                    type="checkbox"
                    name="allowedFileTypes"
                    value={type.name}
                    defaultChecked={chosen.has(type.name)}
                    aria-label={`${type.name} (${type.label})`}
                    className="peer sr-only"
                  />
                  <span
                    aria-hidden
                    className={cn(
                      "inline-flex h-8 items-center rounded-full border px-3 text-sm font-medium uppercase transition-colors",
                      "text-muted-foreground peer-checked:border-primary peer-checked:bg-primary peer-checked:text-primary-foreground",
                      "peer-focus-visible:ring-2 peer-focus-visible:ring-ring peer-focus-visible:ring-offset-2 peer-focus-visible:ring-offset-background",
                    )}
                  >
                    {type.name}
                  </span>
                </label>
              ))}
            </div>
          </div>
        );
      })}
    </fieldset>
  );
}

/** A server's allowed types as badges under their group's name (server page, server cards). */
export function AllowedTypesByGroup({ allowed, compact = false }: { allowed: readonly string[]; compact?: boolean }) {
  const groups = groupAllowedTypes(allowed);
  if (groups.length === 0) return <span className="text-muted-foreground">None</span>;
  return (
    <div className="grid gap-1.5" data-testid="allowed-types">
      {groups.map((group) => (
        <div key={group.label} className="flex flex-wrap items-center gap-1">
          <span className={cn("mr-1 text-xs font-medium text-muted-foreground", compact ? "" : "min-w-24")}>{group.label}</span>
          {group.types.map((t) => (
            <Badge key={t} variant="outline" className="uppercase">
              {t}
            </Badge>
          ))}
        </div>
      ))}
    </div>
  );
}
