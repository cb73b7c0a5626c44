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
// requestAnimationFrame callback fires after that frame), the boot script
// runs as a module, and the preloads join the head a few at a time, each batch
// in its own task: a preload link costs the main thread 1-2 ms to insert on a
// mid-range phone, so all at once would block input for tens of milliseconds.
const PRELOADS_PER_TASK = 4;
const loader = `requestAnimationFrame(function(){setTimeout(function(){var d=document,b=d.getElementById("${BOOT_ID}"),s=d.createElement("script"),h=[].map.call(d.getElementById("${PRELOADS_ID}").content.children,function(l){return l.getAttribute("href")});s.type="module";s.textContent=b.textContent;b.after(s);(function n(){h.splice(0,${PRELOADS_PER_TASK}).forEach(function(u){var l=d.createElement("link");l.rel="modulepreload";l.href=u;d.head.appendChild(l)});h.length&&setTimeout(n)})()})})`;

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
