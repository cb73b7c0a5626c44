package server

import (
	"context"
	"log/slog"
	"net/http"

	"studio/internal/api"
	"studio/internal/fault"
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
// keys rotate", so it is fetched, not built in). Its failures are JSON
// {"error"}: 503 when there is no sign-in service, or when the store that
// keeps the keys is unavailable (with Retry-After); any other failure to
// read them is logged and 500.
func handleConsoleConfig(keys AnonKeySource, logger *slog.Logger) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Robots-Tag", "noindex, nofollow")
		if keys == nil {
			writeError(w, http.StatusServiceUnavailable, "Staff sign-in is not available")
			return
		}
		ctx, cancel := context.WithTimeout(r.Context(), api.StoreTimeout)
		defer cancel()
		key, err := keys.AnonKey(ctx)
		switch {
		case err == nil:
			api.WriteJSON(w, http.StatusOK, consoleConfig{AnonKey: key})
		case fault.KindOf(err) == fault.Unavailable:
			logger.Debug("console config: store unavailable", "err", err)
			api.SetRetryAfter(w, api.StoreRetryAfterOf(err))
			writeError(w, http.StatusServiceUnavailable, "The store cannot be reached")
		default:
			logger.Error("console config: read the signing keys", "err", err)
			writeError(w, http.StatusInternalServerError, "Unexpected failure, please try again")
		}
	}
}
