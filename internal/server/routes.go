package server

import (
	"net/http"
	"net/url"

	"studio/internal/analytics"
	"studio/internal/auth"
	"studio/internal/realtime"
	"studio/internal/rest"
	"studio/internal/storage"
)

// addRoutes registers every route of the studio in one place.
func addRoutes(mux *http.ServeMux, d Deps) {
	mux.HandleFunc("GET /healthz", handleHealthz)                // liveness: the process answers
	mux.Handle("GET /readyz", &readiness{checks: d.ReadyChecks}) // readiness: it can serve (readyz.go)

	// The backend functions (functions.go; each in the file of its noun:
	// contact.go, signup.go), behind CORS for --allowed-origins.
	f := newFunctions(d)
	mux.Handle("POST /functions/v1/submit-contact", f.withCORS(http.HandlerFunc(f.handleContactSubmit)))
	mux.Handle("POST /functions/v1/join-waitlist", f.withCORS(http.HandlerFunc(f.handleWaitlistJoin)))
	mux.Handle("POST /functions/v1/subscribe-newsletter", f.withCORS(http.HandlerFunc(f.handleNewsletterSubscribe)))
	mux.Handle("OPTIONS /functions/v1/{name}", http.HandlerFunc(f.handleFunctionPreflight))
	mux.Handle("/functions/v1/{name}", f.withCORS(http.HandlerFunc(f.handleFunctionOther))) // 405 or 404

	// Staff sign-in (package auth), GoTrue's contract; its public keys also
	// at the site's root, where JWT libraries look for them.
	if d.Auth != nil {
		mux.Handle(auth.Prefix+"/", d.Auth)
		mux.HandleFunc("GET /.well-known/jwks.json", d.Auth.HandleJWKS)
	}

	// The console's data (package rest), PostgREST's contract.
	if d.Rest != nil {
		mux.Handle(rest.Prefix+"/", d.Rest)
	}
	// Files (package storage), Supabase Storage's contract; its routes are
	// listed in its addRoutes, as auth's are in its own.
	if d.Storage != nil {
		mux.Handle(storage.Prefix+"/", d.Storage)
		// A public file's whole answer leaves in one write, as a page's does
		// (a big one's body by sendfile(2), after its header).
		d.Storage.MountPublic(mux, inOneWrite)
		mux.Handle("GET "+DownloadsPath, inOneWrite(countedDownloads(d)))
		mux.HandleFunc("GET /downloads/{name}", redirectToDownloads)
	}
	// Its live updates (package realtime), realtime-js's websocket.
	if d.Realtime != nil {
		mux.Handle(realtime.Prefix+"/", d.Realtime)
	}
	// The staff console (console.go): its shell for /admin and every path
	// under it (the React app routes), and the anon key it needs.
	var anonKeys AnonKeySource
	if d.Auth != nil {
		anonKeys = d.Auth
	}
	mux.Handle("GET "+ConsolePath, inOneWrite(consoleShell(d.Site)))
	mux.Handle("GET "+ConsolePath+"/{path...}", inOneWrite(consoleShell(d.Site)))
	mux.HandleFunc("GET "+ConsolePath+"/config.json", handleConsoleConfig(anonKeys, d.Logger))

	// A page shown fetches SeenPath (package analytics); its own request
	// may tell where its visitor came from.
	mux.HandleFunc("GET "+analytics.SeenPath, handleSeen(d))
	// The site's links to its scheduling page and demo, counted as goals.
	mux.HandleFunc("GET "+analytics.OutboundPath+"{name}", func(w http.ResponseWriter, r *http.Request) {
		analytics.FollowOutbound(d.Analytics, w, r, r.PathValue("name"), clientIP(r, d.Functions.TrustedProxies))
	})
	mux.Handle("/", inOneWrite(servedPages(d))) // everything else: pages, assets, 404s
}

// handleHealthz answers GET /healthz: the process is up and serving.
func handleHealthz(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write([]byte("ok\n"))
}

// DownloadsPath is where the public bucket of the templates the resource
// pages offer is served (cmd/studio fills it at start).
const DownloadsPath = storage.PublicPrefix + "downloads/"

// redirectToDownloads sends a template's old address, /downloads/{name},
// to its file in storage/v1, as an attachment.
func redirectToDownloads(w http.ResponseWriter, r *http.Request) {
	http.Redirect(w, r, DownloadsPath+url.PathEscape(r.PathValue("name"))+"?download", http.StatusMovedPermanently)
}
