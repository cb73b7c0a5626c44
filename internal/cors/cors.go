// Package cors lets pages of other sites call a service (Cross-Origin
// Resource Sharing): only the origins a Policy names, matched exactly. A
// refused preflight is left to the service, which answers it in its own
// error format.
package cors

import (
	"net/http"
	"slices"
	"strconv"
	"time"
)

// Policy is what a service allows other sites to do.
type Policy struct {
	// Origins may call the service (scheme://host[:port], exactly); none:
	// same origin only.
	Origins []string
	// AllowMethods and AllowHeaders answer a preflight: the methods and
	// request headers a caller may use, comma-separated.
	AllowMethods string
	AllowHeaders string
	// ExposeHeaders are the response headers a caller's script may read
	// besides the safelisted ones; "" sends none.
	ExposeHeaders string
	// MaxAge is how long a browser may keep a preflight's answer; zero
	// sends none (the browser's default).
	MaxAge time.Duration
}

// Allows reports whether origin may call the service.
func (p Policy) Allows(origin string) bool {
	return origin != "" && slices.Contains(p.Origins, origin)
}

// Annotate lets the request's origin read the response when the policy
// allows it (Access-Control-Allow-Origin, Vary: Origin and
// Access-Control-Expose-Headers); otherwise it sets nothing. Call it before
// the response is written.
func (p Policy) Annotate(w http.ResponseWriter, r *http.Request) {
	origin := r.Header.Get("Origin")
	if !p.Allows(origin) {
		return
	}
	h := w.Header()
	h.Set("Access-Control-Allow-Origin", origin)
	h.Add("Vary", "Origin")
	if p.ExposeHeaders != "" {
		h.Set("Access-Control-Expose-Headers", p.ExposeHeaders)
	}
}

// Preflight answers a preflight (OPTIONS) from an allowed origin: 204 with
// Annotate's headers and the allowed methods, headers and max age, and
// reports true. For any other origin it writes nothing and reports false:
// the caller refuses it in its own format.
func (p Policy) Preflight(w http.ResponseWriter, r *http.Request) bool {
	if !p.Allows(r.Header.Get("Origin")) {
		return false
	}
	p.Annotate(w, r)
	h := w.Header()
	h.Set("Access-Control-Allow-Methods", p.AllowMethods)
	h.Set("Access-Control-Allow-Headers", p.AllowHeaders)
	if p.MaxAge > 0 {
		h.Set("Access-Control-Max-Age", strconv.Itoa(int(p.MaxAge/time.Second)))
	}
	w.WriteHeader(http.StatusNoContent)
	return true
}
