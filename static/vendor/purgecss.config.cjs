// PurgeCSS for the Pico builds (build.sh): the rules and custom properties of Pico that no
// page can match are left out. What a page can show is read from the templates, the app's
// Python (markup it writes) and its scripts; the app's own stylesheets go through with Pico
// (build.sh), so the custom properties they read (var(--pico-…)) count as used.
const path = require("path");
const root = path.resolve(__dirname, process.env.APP_ROOT || "../..");
const templates = (...names) => names.map((name) => path.join(root, "templates", name));
const everywhere = [
  path.join(root, "static/js/*.js"),
  path.join(root, "scorekeeper/qr.py"),  // the only Python that writes markup
];
const options = {
  variables: true,
  fontFace: true,
  keyframes: true,
  // Set by htmx at run time, and the browser's own states: never in the sources as words.
  safelist: {standard: [/^htmx-/, /-moz-/]},
  // What PurgeCSS keeps though no page can match it, left out before it runs (build.sh): it
  // keeps :host() always, and takes an attribute's name and value, or an element's name, as
  // words found anywhere ("false", "mark"). No page has a shadow root; aria-invalid is only
  // ever "true", on text fields, selects and the file field; no <address>, <mark>, <progress>.
  unused: [/:host\(/, /\[aria-invalid=false\]/, /^\[type=(checkbox|radio)\][^,]*\[aria-invalid=/,
    /^(address|mark|progress)$/],
  // The themes' value of a custom property that every rule reading it sets anew (buttons and
  // fields their own --pico-box-shadow): left out of the :root rules.
  unusedInThemes: ["--pico-box-shadow"],
};
module.exports = {
  // Every page: Pico as the templates use it.
  "pico-2.1.1.min.css": {...options, content: [...templates("**/*.html", "**/*.js"), ...everywhere]},
  // The spectator page, which only reads (no form but the language menu's button): what it
  // and the blocks it shows use. It links no page with this head (base.html).
  "pico-2.1.1.read.min.css": {
    ...options,
    content: [
      ...templates("base.html", "error.html", "_language.html", "spectate.html", "_live.html",
        "_live_gone.html", "_standings.html", "_chart_section.html", "_chart.html",
        "_sheet.html", "_marks.html", "_progress.html"),
      ...everywhere,
    ],
  },
};
