import { cn } from "~/lib/utils";

/** The gold "S" on asphalt, the same mark as the favicon. Decorative next to the product name. */
export function BrandMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" aria-hidden="true" className={cn("size-8", className)}>
      <rect width="32" height="32" rx="7" fill="#17181d" stroke="#f2c14e" strokeOpacity="0.35" />
      <path
        d="M9 11.5c0-2 1.8-3.5 4.5-3.5H23v3.6h-9c-.7 0-1 .3-1 .8s.3.8 1 .9l5.2.7c2.6.4 4 1.8 4 4.1 0 2.5-2 4-5 4H9v-3.6h9.3c.8 0 1.2-.3 1.2-.9 0-.5-.3-.8-1-.9l-5.4-.7C10.4 15.6 9 14 9 11.5Z"
        fill="#f2c14e"
      />
    </svg>
  );
}
