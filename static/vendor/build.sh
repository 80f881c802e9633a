#!/usr/bin/env bash
# Rebuild the vendored front-end files from the npm registry (see VENDOR.md).
# Needs Node.js and npm; the app itself never runs this: the built files are committed.
# Run it again after a template starts using an element or attribute Pico styles that no
# page used before (PurgeCSS leaves out the rules no page could match).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
npm init -y >/dev/null
npm install --silent --no-audit --no-fund htmx.org@4.0.1 @picocss/pico@2.1.1 sass@1.108.2 \
    purgecss@8.0.0 postcss@8.5.33
cp node_modules/htmx.org/dist/htmx.min.js "$here/htmx-4.0.1.min.js"
cp node_modules/htmx.org/LICENSE "$here/htmx-LICENSE.txt"
cp node_modules/@picocss/pico/LICENSE.md "$here/pico-LICENSE.md"
cp "$here/pico.scss" .
npx sass --no-source-map --style=compressed --quiet-deps --silence-deprecation=if-function \
    pico.scss pico.css
APP_ROOT="$here/../.." node -e '
const {PurgeCSS} = require("purgecss");
const postcss = require("postcss");
const fs = require("fs");
const [configFile, out] = process.argv.slice(1);
const css = process.env.APP_ROOT + "/static/css/";
// The app stylesheets go through with Pico, so the custom properties they read count as
// used; only Pico comes out.
const app = fs.readdirSync(css).map((name) => ({raw: fs.readFileSync(css + name, "utf8")}));
for (const [name, {unused, unusedInThemes, ...options}] of Object.entries(require(configFile))) {
  // First out: what PurgeCSS would keep though no page matches it (purgecss.config.cjs).
  const pico = postcss.parse(fs.readFileSync("pico.css", "utf8"));
  pico.walkRules((rule) => {
    const kept = rule.selectors.filter((selector) => !unused.some((re) => re.test(selector)));
    if (!kept.length) return rule.remove();
    if (kept.length < rule.selectors.length) rule.selectors = kept;
    if (!rule.selector.includes(":root")) return;
    rule.walkDecls((decl) => {
      if (unusedInThemes.includes(decl.prop)) decl.remove();
    });
  });
  new PurgeCSS().purge({...options, css: [{raw: pico.toString()}, ...app]}).then((results) => {
    fs.writeFileSync(`${out}/${name}`, results[0].css);
  });
}
' "$here/purgecss.config.cjs" "$here"
