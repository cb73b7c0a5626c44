package server

import (
	"context"
	"encoding/json"
	"net/http"
	"time"
)

// ConsolePath is where the staff console lives: one prerendered shell page
// (web/app/pages/admin.astro) whose client-rendered React app reads the
// rest of the path itself.
const ConsolePath = "/admin"

// AnonKeySource gives the anon key the console creates its Supabase client
// with (auth.Service is one).
type AnonKeySource interface {
	AnonKey(ctx context.Context) (string, error)
}

// consoleShell answers GET /admin and every path under it with the
// console's shell page.
//
// Unlike the public pages (decision 0007), the console's documents hold a
// signed-in person's data: they set Cross-Origin-Opener-Policy, so that no
// window that opened them can reach into them, and ask not to be indexed.
func consoleShell(site http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cross-Origin-Opener-Policy", "same-origin")
		w.Header().Set("X-Robots-Tag", "noindex, nofollow")
		shell := r.Clone(r.Context())
		shell.URL.Path, shell.URL.RawPath = ConsolePath, ""
		site.ServeHTTP(w, shell)
	})
}

// consoleConfig is what the console needs at run time that the build
// cannot know.
type consoleConfig struct {
	AnonKey string `json:"anonKey"`
}

// handleConsoleConfig answers GET /admin/config.json: the anon key of this
// store (the one "studio keys print-anon" prints; it changes with "studio
// keys rotate", so it is fetched, not built in). 503 when there is no sign-in
// service or its keys cannot be read.
func handleConsoleConfig(keys AnonKeySource) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		w.Header().Set("X-Robots-Tag", "noindex, nofollow")
		if keys == nil {
			http.Error(w, "staff sign-in is not available", http.StatusServiceUnavailable)
			return
		}
		ctx, cancel := context.WithTimeout(r.Context(), 15*time.Second)
		defer cancel()
		key, err := keys.AnonKey(ctx)
		if err != nil {
			http.Error(w, "the store cannot be reached", http.StatusServiceUnavailable)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(consoleConfig{AnonKey: key})
	}
}
