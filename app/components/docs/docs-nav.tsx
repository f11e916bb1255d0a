import { DOCS_NAV } from "~/lib/content/docs-nav";

function NavList() {
  return (
    <>
      {DOCS_NAV.map((group) => (
        <div key={group.group} className="mb-5">
          <p className="mb-1.5 px-2 font-mono text-[11px] font-semibold uppercase tracking-[0.16em] text-muted-foreground">{group.group}</p>
          <ul className="space-y-0.5">
            {group.items.map((item) => (
              <li key={item.id}>
                <a
                  href={`#${item.id}`}
                  className="block rounded-md px-2 py-1.5 text-sm text-muted-foreground transition-colors hover:bg-accent hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring aria-[current=location]:bg-primary/10 aria-[current=location]:font-medium aria-[current=location]:text-primary"
                >
                  {item.label}
                </a>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </>
  );
}

/** Plain anchor links do the scrolling; the page's inline script marks the section being read (aria-current). */
export function DocsNav() {
  return (
    <>
      <nav aria-label="Documentation" data-section-nav="" className="sticky top-20 hidden max-h-[calc(100vh-6rem)] overflow-y-auto pb-8 pr-2 lg:block">
        <NavList />
      </nav>
      <details className="mb-8 rounded-lg border bg-card lg:hidden">
        <summary className="cursor-pointer px-4 py-3 text-sm font-medium focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring">On this page</summary>
        <nav aria-label="Documentation (mobile)" data-section-nav="" className="border-t px-2 pt-3">
          <NavList />
        </nav>
      </details>
    </>
  );
}
