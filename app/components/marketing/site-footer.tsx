import { Link } from "react-router";
import { FOOTER_LINKS, NAV_LINKS, TAGLINE } from "~/lib/content/marketing";
import { BrandMark } from "~/components/marketing/brand-mark";

export function SiteFooter({ appName }: { appName: string }) {
  return (
    <footer className="border-t border-border/60 bg-sidebar">
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-12 sm:px-6 md:grid-cols-[2fr_1fr_1fr]">
        <div>
          <Link to="/" className="inline-flex items-center gap-2 font-bold">
            <BrandMark className="size-7" />
            <span>{appName}</span>
          </Link>
          <p className="mt-3 max-w-sm text-sm text-muted-foreground">{TAGLINE}.</p>
        </div>
        <nav aria-label="Product">
          <h2 className="mb-3 text-sm font-semibold">Product</h2>
          <ul className="space-y-2 text-sm text-muted-foreground">
            {NAV_LINKS.map((link) => (
              <li key={link.to}>
                <Link to={link.to} className="hover:text-foreground focus-visible:text-foreground">
                  {link.label}
                </Link>
              </li>
            ))}
            <li>
              <Link to="/auth" className="hover:text-foreground focus-visible:text-foreground">
                Sign In
              </Link>
            </li>
          </ul>
        </nav>
        <nav aria-label="Company">
          <h2 className="mb-3 text-sm font-semibold">Company</h2>
          <ul className="space-y-2 text-sm text-muted-foreground">
            {FOOTER_LINKS.map((link) => (
              <li key={link.label}>
                <Link to={link.href} className="hover:text-foreground focus-visible:text-foreground">
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </div>
      <div className="border-t border-border/60">
        <p className="mx-auto max-w-6xl px-4 py-5 text-xs text-muted-foreground sm:px-6">
          © {new Date().getFullYear()} {appName}. Not affiliated with Cfx.re, Rockstar Games or Discord.
        </p>
      </div>
    </footer>
  );
}
