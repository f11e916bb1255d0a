import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

/** Inside app/, app code is imported as ~/… (docs/decisions/070); relative paths reach only route types, db/, storage/ and package.json. */
const RELATIVE_APP_IMPORT = {
  regex: "^\\.\\.?/(?!\\+types/)(?!(\\.\\./)*(db|storage)/)(?!(\\.\\./)*package\\.json$)",
  message: "Inside app/, import app code as ~/… (docs/decisions/070).",
};

/** The same for unit tests beside app code, which may also use the shared helpers under tests/helpers/. */
const TEST_RELATIVE_APP_IMPORT = {
  regex: "^\\.\\.?/(?!\\+types/)(?!(\\.\\./)*(db|storage|tests/helpers)/)(?!(\\.\\./)*package\\.json$)",
  message: RELATIVE_APP_IMPORT.message,
};

/** Service domains from the bottom up: each may import only those before it. */
const SERVICE_LAYERS = ["platform", "media", "billing", "teams", "accounts", "servers", "api-keys", "files", "retention", "logs", "uploads", "imports", "maintenance", "stats"];

export default tseslint.config(
  { ignores: ["build/", ".react-router/", "node_modules/", "data/", "tests/.artifacts/", "bench/.work/", ".scratch/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "warn",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
      "no-console": ["error", { allow: ["warn", "error"] }],
    },
  },
  {
    files: ["cli/**", "bench/**", "db/migrate-cli.ts", "server.ts"],
    rules: { "no-console": "off" },
  },
  // Boundaries (docs/decisions/070): the host imports no app code; services never reach HTTP, routes or
  // components, and each domain imports only the domains below it; app/lib is browser-safe.
  {
    files: ["server.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        { patterns: [{ group: ["./app/*", "./db/*", "./storage/*"], allowTypeImports: true, message: "The host loads the app through server/app.ts only (docs/decisions/069)." }] },
      ],
    },
  },
  {
    files: ["app/**"],
    rules: { "@typescript-eslint/no-restricted-imports": ["error", { patterns: [RELATIVE_APP_IMPORT] }] },
  },
  {
    files: ["app/lib/**"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        { patterns: [RELATIVE_APP_IMPORT, { group: ["*.server", "*.server.ts", "~/services/*", "~/http/*"], message: "app/lib is shared with the browser: no server modules." }] },
      ],
    },
  },
  ...SERVICE_LAYERS.map((domain, level) => ({
    files: [`app/services/${domain}/**`],
    rules: {
      "no-restricted-globals": ["error", ...["Request", "Response"].map((name) => ({ name, message: "Only app/http knows Request and Response." }))],
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          paths: [{ name: "react-router", allowTypeImports: false, message: "Services take typed input; app/http knows requests." }],
          patterns: [
            RELATIVE_APP_IMPORT,
            { group: ["~/http/*", "~/routes/*", "~/components/*", "~/root"], message: "Services never import HTTP code, routes or components." },
            { group: ["~/services/app-context.server"], allowTypeImports: true, message: "Services receive the app context; only the entry creates it." },
            ...(level < SERVICE_LAYERS.length - 1
              ? [{ group: SERVICE_LAYERS.slice(level + 1).map((above) => `~/services/${above}/*`), message: `${domain} sits below these domains (order: ${SERVICE_LAYERS.join(" < ")}).` }]
              : []),
          ],
        },
      ],
    },
  })),
  // Unit tests sit beside their code (docs/testing.md): app code as ~/… like the code itself, the shared helpers
  // under tests/helpers/, and any layer (a service's test may read the status app/http gives its error).
  {
    files: ["app/**/*.test.{ts,tsx}"],
    rules: { "@typescript-eslint/no-restricted-imports": ["error", { patterns: [TEST_RELATIVE_APP_IMPORT] }] },
  },
);
