import { Menu } from "lucide-react";
import { Link, NavLink } from "react-router";
import { buttonVariants } from "~/components/ui/button";
import { NAV_LINKS } from "~/lib/content/marketing";
import { cn } from "~/lib/utils";
import { BrandMark } from "~/components/marketing/brand-mark";

const navLinkClass = ({ isActive }: { isActive: boolean }) =>
  cn(
    "rounded-md px-3 py-2 text-sm font-medium transition-colors hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring",
    isActive ? "text-primary" : "text-muted-foreground",
  );

/** Top navigation. The small-screen menu is a <details>, so it opens without JavaScript; Escape or a click outside closes it. */
export function SiteHeader({ appName, signedIn }: { appName: string; signedIn: boolean }) {
  return (
    <header className="sticky top-0 z-40 border-b border-border/60 bg-background/85 backdrop-blur supports-[backdrop-filter]:bg-background/70">
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-4 focus:top-3 focus:z-50 focus:rounded-md focus:bg-primary focus:px-3 focus:py-2 focus:text-primary-foreground">
        Skip to content
      </a>
      <div className="mx-auto flex h-16 max-w-6xl items-center gap-4 px-4 sm:px-6">
        <Link to="/" className="flex items-center gap-2 rounded-md font-bold tracking-tight focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring">
          <BrandMark />
          <span className="text-lg">{appName}</span>
        </Link>
        <nav aria-label="Main" className="ml-6 hidden items-center gap-1 md:flex">
          {NAV_LINKS.map((link) => (
            <NavLink key={link.to} to={link.to} className={navLinkClass}>
              {link.label}
            </NavLink>
          ))}
        </nav>
        <div className="ml-auto hidden items-center gap-2 md:flex">
          {signedIn ? (
            <Link to="/dashboard" className={buttonVariants({ size: "sm" })}>
              Dashboard
            </Link>
          ) : (
            <>
              <Link to="/auth" className={buttonVariants({ variant: "ghost", size: "sm" })}>
                Sign In
              </Link>
              <Link to="/auth" className={buttonVariants({ size: "sm" })}>
                Get Started
              </Link>
            </>
          )}
        </div>
        <details data-dismissable="" className="group relative ml-auto md:hidden">
          <summary
            className="flex size-10 cursor-pointer list-none items-center justify-center rounded-md border focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring [&::-webkit-details-marker]:hidden"
            aria-label="Open menu"
          >
            <Menu className="size-5" aria-hidden="true" />
          </summary>
          <nav aria-label="Mobile" className="absolute right-0 top-12 flex w-56 flex-col gap-1 rounded-lg border bg-popover p-2 shadow-xl">
            {NAV_LINKS.map((link) => (
              <NavLink key={link.to} to={link.to} className={navLinkClass}>
                {link.label}
              </NavLink>
            ))}
            <Link to={signedIn ? "/dashboard" : "/auth"} className={cn(buttonVariants({ size: "sm" }), "mt-1")}>
              {signedIn ? "Dashboard" : "Sign In / Get Started"}
            </Link>
          </nav>
        </details>
      </div>
    </header>
  );
}
