import { PERMISSION_LABELS, TEAM_PERMISSIONS, type TeamPermission } from "~/lib/team-roles";
import { cn } from "~/lib/utils";

/** One checkbox per team permission, posted as `permissions`; native inputs, so they work without JavaScript. */
export function PermissionChoices({
  idPrefix,
  defaults,
  disabled,
  className,
}: {
  idPrefix: string;
  defaults: readonly TeamPermission[];
  disabled?: boolean;
  className?: string;
}) {
  return (
    <fieldset className={cn("grid gap-2 sm:grid-cols-2 lg:grid-cols-4", className)} disabled={disabled}>
      <legend className="sr-only">Permissions</legend>
      {TEAM_PERMISSIONS.map((permission) => (
        <label key={permission} htmlFor={`${idPrefix}-${permission}`} className="flex items-center gap-2 text-sm">
          <input
            id={`${idPrefix}-${permission}`}
            type="checkbox"
            name="permissions"
            value={permission}
            defaultChecked={defaults.includes(permission)}
            className="size-4"
          />
          {PERMISSION_LABELS[permission]}
        </label>
      ))}
    </fieldset>
  );
}
