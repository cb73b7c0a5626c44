package server

import "net/http"

// addRoutes registers every route of the studio in one place.
func addRoutes(mux *http.ServeMux, d Deps) {
	mux.HandleFunc("GET /healthz", handleHealthz)
	mux.Handle("/", d.Site) // everything else: pages, assets, 404s
}

// handleHealthz answers GET /healthz: the process is up and serving.
func handleHealthz(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write([]byte("ok\n"))
}
