// The web table's bundle: app.js (the page's own code, one file, no import of its own)
// and chunks/sdk-<hash>.js (the Discord Embedded App SDK, fetched inside Discord only).
// Two builds rather than esbuild's code splitting: splitting puts the helpers both
// share in a third file that app.js imports before it can run — one more round trip
// before the page even starts signing in (tools/bench_web_draw.py measures it).
import { build } from "esbuild";
import { rmSync } from "node:fs";
import { basename } from "node:path";

const out = process.argv[2] ?? "../bot/web/static";
const common = { bundle: true, minify: true, format: "esm", target: "es2020", logLevel: "info" };

rmSync(`${out}/chunks`, { recursive: true, force: true });
const sdk = await build({
  ...common,
  entryPoints: { sdk: "src/sdk.ts" },
  outdir: `${out}/chunks`,
  entryNames: "[name]-[hash]", // named by its content: the server lets it be kept
  metafile: true,
});
const [sdkFile] = Object.keys(sdk.metafile.outputs).filter((f) => f.endsWith(".js"));
await build({
  ...common,
  entryPoints: { app: "src/main.ts" },
  outdir: out,
  define: { SDK_URL: JSON.stringify(`./chunks/${basename(sdkFile)}`) },
  external: ["./chunks/*"],
});
