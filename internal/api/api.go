// Package api holds what the studio's HTTP APIs (/auth/v1, /rest/v1 and
// /functions/v1) share, so that each is said once: the bound on a request
// body, the bound on a request's wait for the store, the JSON answer and
// the Retry-After header; and the If-None-Match comparison that the site
// and /storage/v1 answer 304 by.
package api

import (
	"encoding/json"
	"io"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"studio/internal/fault"
)

// MaxBodyBytes bounds a request body; every body the APIs take (a contact
// message at its limits, a sign-in, a PATCH of a few fields) is far smaller.
const MaxBodyBytes = 64 << 10

// StoreTimeout bounds a request's wait for the store: a database that does
// not answer (a dropped connection, a network partition) becomes an answer
// the caller can act on instead of a spinner.
const StoreTimeout = 15 * time.Second

// StoreRetryAfter is the Retry-After of a 503 answered because the store is
// unavailable (fault.Unavailable) when its error tells no wait of its own
// (StoreRetryAfterOf): short, as most such failures (a restart, a
// failover, a busy database) pass within seconds.
const StoreRetryAfter = 2 * time.Second

// StoreRetryAfterOf is the Retry-After of a 503 for err, a failure of kind
// fault.Unavailable: the wait err tells (the store's circuit breaker sets
// it, decision 0016), else StoreRetryAfter.
func StoreRetryAfterOf(err error) time.Duration {
	if wait, ok := fault.RetryAfter(err); ok {
		return wait
	}
	return StoreRetryAfter
}

// WriteJSON answers status with v as JSON, never cached.
func WriteJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// SetRetryAfter sets Retry-After to wait in whole seconds, rounded up so
// that a caller who waits that long is not refused again, and returns them
// (for a message that names them).
func SetRetryAfter(w http.ResponseWriter, wait time.Duration) int {
	seconds := int(math.Ceil(wait.Seconds()))
	w.Header().Set("Retry-After", strconv.Itoa(seconds))
	return seconds
}

// ETagMatches applies the weak comparison of If-None-Match (RFC 9110
// §13.1.2): whether header names etag (a quoted strong validator), or is *.
func ETagMatches(header, etag string) bool {
	for rest := header; rest != ""; {
		var candidate string
		candidate, rest, _ = strings.Cut(rest, ",")
		candidate = strings.TrimSpace(candidate)
		if candidate == "*" || strings.TrimPrefix(candidate, "W/") == etag {
			return true
		}
	}
	return false
}

// ReadFrom copies r to w through w's own ReadFrom when it has one: a
// response's, whose connection hands an *os.File to sendfile(2). io.Copy
// would first try r's WriteTo, which an *os.File has and which loses that.
func ReadFrom(w io.Writer, r io.Reader) (int64, error) {
	if rf, ok := w.(io.ReaderFrom); ok {
		return rf.ReadFrom(r)
	}
	return io.Copy(w, r)
}
