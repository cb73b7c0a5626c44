// Package analytics counts what the public site does for the studio (pages
// shown, visits, their sources and campaigns, conversions) with no cookie,
// no script and no identifier kept: docs/analytics.md says what is counted
// and kept, docs/decisions/0026-analytics-without-cookie-or-script.md why it
// is counted this way.
//
// A page counts as shown when the browser fetches SeenPath, which only a
// rendered page does (the background of a box its inline style lays out, web/scripts/critical-css.mjs): a
// prefetched page that is never shown fetches nothing. Nothing on the
// request path waits for the store: a Counter buffers what it is told and
// writes it in one transaction at most every second (flush.go), and only
// there are visitors hashed, with the day's salt, which the store keeps.
package analytics
