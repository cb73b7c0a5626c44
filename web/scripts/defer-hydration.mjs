// Starts a prerendered page's JavaScript after its first paint.
//
// React Router puts a <link rel="modulepreload"> in the head for every module
// a page needs (about 25, 125 KiB gzip) and boots from an inline module
// script. On a slow phone those downloads share the line with the stylesheet
// and delay the first paint of a page whose HTML is already complete. Here
// the preload links move into a <template> (inert) and the boot script
// becomes a data block; a small inline script adds both back to the document
// right after the first paint, so the modules still load in parallel, just
// after the visitor sees the page. Links are plain <a href>, so the page works
// before hydration too.
//
// The inline scripts' hashes are taken from the final HTML by the server's
// Content-Security-Policy (internal/site/csp.go); the boot script keeps its
// text, so the hash that admits it is unchanged.

const PRELOAD = /<link rel="modulepreload" href="[^"]+"\/>/g;
const BOOT = /<script type="module" async="">/;
export const BOOT_ID = "rr-boot";
export const PRELOADS_ID = "rr-preloads";

// Runs in the page: after the first frame is painted (a timer set from a
// requestAnimationFrame callback fires after that frame), the preloads go
// into the head and the boot script runs as a module.
const loader = `requestAnimationFrame(function(){setTimeout(function(){var d=document,t=d.getElementById("${PRELOADS_ID}"),b=d.getElementById("${BOOT_ID}"),s=d.createElement("script");d.head.appendChild(t.content);s.type="module";s.textContent=b.textContent;b.after(s)})})`;

/** The page with its JavaScript deferred; a page without a boot script is returned as it is. */
export function deferHydration(html) {
  if (!BOOT.test(html)) return html;
  const preloads = html.match(PRELOAD) ?? [];
  let out = html.replace(PRELOAD, "");
  out = out.replace("</head>", `<template id="${PRELOADS_ID}">${preloads.join("")}</template></head>`);
  out = out.replace(BOOT, `<script type="text/plain" id="${BOOT_ID}">`);
  const bootEnd = out.indexOf("</script>", out.indexOf(`id="${BOOT_ID}"`)) + "</script>".length;
  return out.slice(0, bootEnd) + `<script>${loader}</script>` + out.slice(bootEnd);
}
