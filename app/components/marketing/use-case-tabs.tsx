import { CodeBlock } from "~/components/docs/code-block";
import type { Bases } from "~/lib/content/api-examples";
import { USE_CASES } from "~/lib/content/use-cases";

const tabClass =
  "inline-flex items-center justify-center whitespace-nowrap rounded-sm px-3 py-2 text-sm font-medium text-muted-foreground ring-offset-background transition-all hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 data-[state=active]:bg-background data-[state=active]:text-foreground data-[state=active]:shadow-sm";

/**
 * The /fivem-cdn use cases as ARIA tabs. Without scripts every panel is shown in turn under its own
 * heading and the tab strip is hidden; with scripts (the `js` class set before first paint) only the
 * selected panel shows and the page's inline script switches them.
 */
export function UseCaseTabs({ bases }: { bases: Bases }) {
  return (
    <div className="mx-auto max-w-4xl">
      <div role="tablist" aria-label="Use cases" className="hidden h-auto w-full grid-cols-2 gap-1 rounded-md bg-muted p-1 sm:grid-cols-4 js:grid">
        {USE_CASES.map((useCase, i) => (
          <button
            key={useCase.id}
            type="button"
            role="tab"
            id={`use-case-tab-${useCase.id}`}
            aria-controls={`use-case-${useCase.id}`}
            aria-selected={i === 0}
            tabIndex={i === 0 ? 0 : -1}
            data-state={i === 0 ? "active" : "inactive"}
            className={tabClass}
          >
            {useCase.label}
          </button>
        ))}
      </div>
      {USE_CASES.map((useCase, i) => {
        const snippet = useCase.snippet(bases);
        return (
          <div
            key={useCase.id}
            role="tabpanel"
            id={`use-case-${useCase.id}`}
            aria-labelledby={`use-case-tab-${useCase.id}`}
            tabIndex={0}
            data-state={i === 0 ? "active" : "inactive"}
            className="mt-6 rounded-md focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 ring-offset-background js:data-[state=inactive]:hidden"
          >
            <h3 className="text-xl font-semibold">{useCase.title}</h3>
            <p className="mt-2 text-muted-foreground">{useCase.body}</p>
            <CodeBlock code={snippet.code} language={snippet.language} label={snippet.filename} />
          </div>
        );
      })}
    </div>
  );
}
