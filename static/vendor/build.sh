#!/usr/bin/env bash
# Rebuild the vendored front-end files from the npm registry (see VENDOR.md).
# Needs Node.js and npm; the app itself never runs this: the built files are committed.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
npm init -y >/dev/null
npm install --silent --no-audit --no-fund htmx.org@4.0.1 @picocss/pico@2.1.1 sass@1.108.2
cp node_modules/htmx.org/dist/htmx.min.js "$here/htmx-4.0.1.min.js"
cp node_modules/htmx.org/LICENSE "$here/htmx-LICENSE.txt"
cp node_modules/@picocss/pico/LICENSE.md "$here/pico-LICENSE.md"
cp "$here/pico.scss" .
npx sass --no-source-map --style=compressed --quiet-deps --silence-deprecation=if-function \
    pico.scss "$here/pico-2.1.1.min.css"
