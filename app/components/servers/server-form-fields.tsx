import type * as React from "react";
import { useState } from "react";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Textarea } from "~/components/ui/textarea";
import { DEFAULT_FILE_TYPES } from "~/lib/file-types";
import { DEFAULT_MAX_FILE_SIZE_MB, parseServerForm, SERVER_NAME_MAX } from "~/lib/server-form";
import { showToast } from "~/lib/toast";
import { FileTypePicker } from "~/components/servers/file-type-picker";

export interface ServerFormDefaults {
  name: string;
  description: string | null;
  endpointUrl: string | null;
  maxFileSizeMb: number;
  allowedFileTypes: string[];
}

export const EMPTY_SERVER_FORM: ServerFormDefaults = {
  name: "",
  description: "",
  endpointUrl: "",
  maxFileSizeMb: DEFAULT_MAX_FILE_SIZE_MB,
  allowedFileTypes: [...DEFAULT_FILE_TYPES],
};

function FieldError({ id, message }: { id: string; message?: string }) {
  if (!message) return null;
  return (
    <p id={id} className="text-sm text-destructive" role="alert">
      {message}
    </p>
  );
}

/**
 * The create and edit forms' fields. Uncontrolled, so a form reset restores the defaults
 * and the fields post without JavaScript.
 */
export function ServerFormFields({
  idPrefix,
  defaults,
  errors = {},
  maxSizeInput,
}: {
  idPrefix: string;
  defaults: ServerFormDefaults;
  errors?: Record<string, string>;
  maxSizeInput: number;
}) {
  const id = (name: string) => `${idPrefix}-${name}`;
  const describedBy = (name: string) => (errors[name] ? id(`${name}-error`) : undefined);
  return (
    <div className="grid gap-4">
      <div className="grid gap-2">
        <Label htmlFor={id("name")}>Server Name</Label>
        <Input
          id={id("name")}
          name="name"
          required
          maxLength={SERVER_NAME_MAX}
          defaultValue={defaults.name}
          placeholder="Los Santos Roleplay"
          aria-invalid={errors.name ? true : undefined}
          aria-describedby={describedBy("name")}
        />
        <FieldError id={id("name-error")} message={errors.name} />
      </div>
      <div className="grid gap-2">
        <Label htmlFor={id("description")}>Description</Label>
        <Textarea
          id={id("description")}
          name="description"
          rows={2}
          defaultValue={defaults.description ?? ""}
          placeholder="What this server is about"
          aria-invalid={errors.description ? true : undefined}
          aria-describedby={describedBy("description")}
        />
        <FieldError id={id("description-error")} message={errors.description} />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="grid gap-2">
          <Label htmlFor={id("endpointUrl")}>Endpoint URL</Label>
          <Input
            id={id("endpointUrl")}
            name="endpointUrl"
            type="url"
            defaultValue={defaults.endpointUrl ?? ""}
            placeholder="https://your-server.example.com"
            aria-invalid={errors.endpointUrl ? true : undefined}
            aria-describedby={describedBy("endpointUrl")}
          />
          <FieldError id={id("endpointUrl-error")} message={errors.endpointUrl} />
        </div>
        <div className="grid gap-2">
          <Label htmlFor={id("maxFileSizeMb")}>Max File Size (MB)</Label>
          <Input
            id={id("maxFileSizeMb")}
            name="maxFileSizeMb"
            type="number"
            min={1}
            max={maxSizeInput}
            step={1}
            defaultValue={defaults.maxFileSizeMb}
            aria-invalid={errors.maxFileSizeMb ? true : undefined}
            aria-describedby={describedBy("maxFileSizeMb")}
          />
          <FieldError id={id("maxFileSizeMb-error")} message={errors.maxFileSizeMb} />
        </div>
      </div>
      <div className="grid gap-2">
        <FileTypePicker idPrefix={idPrefix} selected={defaults.allowedFileTypes} describedBy={describedBy("allowedFileTypes")} />
        <FieldError id={id("allowedFileTypes-error")} message={errors.allowedFileTypes} />
      </div>
    </div>
  );
}

/**
 * The browser-side check of a server form before it is sent: the first problem as a toast (with
 * `toastTitle` where the spec gives none of its own), every problem under its field, the first wrong
 * field focused in view, and an edited field's message dropped as soon as it changes.
 */
export function useServerFormCheck(toastTitle: string) {
  const [clientErrors, setClientErrors] = useState<Record<string, string>>({});
  return {
    clientErrors,
    resetClientErrors: () => setClientErrors({}),
    onChange: clearErrorOnChange(setClientErrors),
    onSubmit: (event: React.FormEvent<HTMLFormElement>) => {
      const parsed = parseServerForm(new FormData(event.currentTarget), toastTitle);
      if (parsed.ok) return setClientErrors({});
      event.preventDefault();
      setClientErrors(parsed.errors);
      // The first wrong field comes to the middle of the screen with the caret in it, so the toast
      // (bottom-right) never sits on it, its message, or under the pointer that clicked submit.
      const field = event.currentTarget.querySelector<HTMLElement>(`[name="${parsed.first.field}"], [data-field="${parsed.first.field}"]`);
      field?.scrollIntoView({ block: "center", behavior: "instant" });
      field?.focus({ preventScroll: true });
      showToast({ type: "error", title: parsed.first.toastTitle, description: parsed.first.message });
    },
  };
}

/** A form onChange that drops the edited field's browser-side error, so fixed fields stop showing it. */
function clearErrorOnChange(setErrors: React.Dispatch<React.SetStateAction<Record<string, string>>>) {
  return (event: React.FormEvent<HTMLFormElement>) => {
    // A group toggle has no name of its own; it edits the allowedFileTypes field.
    const target = event.target as HTMLInputElement;
    const name = target.name || target.dataset.field || "";
    setErrors((errors) => {
      if (!(name in errors)) return errors;
      const { [name]: _dropped, ...rest } = errors;
      return rest;
    });
  };
}
