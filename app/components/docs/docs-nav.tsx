import { useEffect, useState } from "react";
import { DOCS_NAV } from "~/lib/content/docs-nav";
import { cn } from "~/lib/utils";

const ALL_IDS = DOCS_NAV.flatMap((group) => group.items.map((item) => item.id));

/** Highlights the section being read; plain anchor links do the scrolling, so it works without JavaScript. */
function useActiveSection() {
  const [active, setActive] = useState<string | null>(null);
  useEffect(() => {
    const observer = new IntersectionObserver(
      (entries) => {
        const visible = entries.filter((e) => e.isIntersecting).sort((a, b) => a.boundingClientRect.top - b.boundingClientRect.top);
        if (visible[0]) setActive(visible[0].target.id);
      },
      { rootMargin: "-80px 0px -65% 0px" },
    );
    for (const id of ALL_IDS) {
      const el = document.getElementById(id);
      if (el) observer.observe(el);
    }
    return () => observer.disconnect();
  }, []);
  return active;
}

function NavList({ active }: { active: string | null }) {
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
                  aria-current={active === item.id ? "location" : undefined}
                  className={cn(
                    "block rounded-md px-2 py-1.5 text-sm transition-colors hover:bg-accent hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring",
                    active === item.id ? "bg-primary/10 font-medium text-primary" : "text-muted-foreground",
                  )}
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

export function DocsNav() {
  const active = useActiveSection();
  return (
    <>
      <nav aria-label="Documentation" className="sticky top-20 hidden max-h-[calc(100vh-6rem)] overflow-y-auto pb-8 pr-2 lg:block">
        <NavList active={active} />
      </nav>
      <details className="mb-8 rounded-lg border bg-card lg:hidden">
        <summary className="cursor-pointer px-4 py-3 text-sm font-medium focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring">On this page</summary>
        <nav aria-label="Documentation (mobile)" className="border-t px-2 pt-3">
          <NavList active={active} />
        </nav>
      </details>
    </>
  );
}
