/** `npm run build`'s last step: the embedded database's initdb template (db/pglite-settings.ts). */
import path from "node:path";
import { writePgliteTemplate } from "./pglite-settings.ts";

const dir = await writePgliteTemplate();
process.stdout.write(`PGlite initdb template: ${path.relative(process.cwd(), dir)}\n`);
