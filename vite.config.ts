import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { fileURLToPath } from "node:url";

export default defineConfig(({ command, isSsrBuild }) => ({
  plugins: [tailwindcss(), reactRouter()],
  resolve: {
    alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) },
  },
  build: {
    assetsInlineLimit: 0,
    // The server build's entry is the app's whole server side (React Router's node-custom-server
    // layout), so the host loads one bundle and each module once (docs/decisions/069).
    ...(isSsrBuild ? { rollupOptions: { input: "./server/app.ts" } } : {}),
  },
  // Bundled into the server build so only the icons and charts we use are loaded: importing the
  // packages whole cost the server ~35 MB of resident memory (docs/decisions/035).
  ssr: { noExternal: command === "build" ? ["lucide-react", "recharts"] : [] },
  server: { hmr: process.env.NODE_ENV !== "test" },
}));
