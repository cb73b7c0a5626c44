package server

import (
	"io"
	"log/slog"
	"net/http"
	"net/netip"
	"time"

	"studio/internal/api"
	"studio/internal/metrics"
	"studio/internal/site"
)

type middleware func(http.Handler) http.Handler

// chain wraps h so that the first middleware listed is the outermost.
func chain(h http.Handler, m ...middleware) http.Handler {
	for i := len(m) - 1; i >= 0; i-- {
		h = m[i](h)
	}
	return h
}

// hsts is the Strict-Transport-Security of responses over HTTPS: two years,
// this host only (subdomains may be other services).
var hsts = []string{"max-age=63072000"}

// securityHeaders sets the security headers every response carries. Pages
// replace the Content-Security-Policy with one that also admits the hashes of
// their inline scripts and styles. Over HTTPS, Strict-Transport-Security is added: on a
// TLS connection, or when a trusted proxy says the client used HTTPS (see
// overHTTPS).
//
// Cross-Origin-Opener-Policy is not among them: the public pages are the
// same for every visitor, so a cross-origin opener has nothing to learn from
// them, and the header makes Chrome start each landing in a browsing context
// group (and, on Android, a process) of its own: Lighthouse measured it at
// 100-300 ms of blocking time on every page (decision 0007). A document that
// holds a signed-in person's data sets it itself.
func securityHeaders(trustedProxies []netip.Prefix) middleware {
	headers := http.Header{}
	headers.Set("Content-Security-Policy", site.Policy(site.InlineHashes{}))
	headers.Set("X-Content-Type-Options", "nosniff")
	headers.Set("X-Frame-Options", "DENY") // frame-ancestors for browsers without CSP 2
	headers.Set("Referrer-Policy", "strict-origin-when-cross-origin")
	headers.Set("Permissions-Policy", "accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), payment=(), usb=(), browsing-topics=()")
	for k, v := range headers {
		headers[k] = v[:1:1] // shared by all responses: no spare capacity to append into
	}
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			h := w.Header()
			for k, v := range headers {
				h[k] = v
			}
			if overHTTPS(r, trustedProxies) {
				// Only over HTTPS: a browser ignores it over HTTP, and a site
				// served over HTTP alone must not promise HTTPS.
				h["Strict-Transport-Security"] = hsts
			}
			next.ServeHTTP(w, r)
		})
	}
}

// statusRecorder remembers the status and size of a response for the log.
type statusRecorder struct {
	http.ResponseWriter
	status int
	bytes  int
}

func (s *statusRecorder) WriteHeader(code int) {
	if s.status == 0 {
		s.status = code
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusRecorder) Write(b []byte) (int, error) {
	if s.status == 0 {
		s.status = http.StatusOK
	}
	n, err := s.ResponseWriter.Write(b)
	s.bytes += n
	return n, err
}

// ReadFrom lets a file reach the connection (sendfile(2)) through the
// recorder.
func (s *statusRecorder) ReadFrom(r io.Reader) (int64, error) {
	if s.status == 0 {
		s.status = http.StatusOK
	}
	n, err := api.ReadFrom(s.ResponseWriter, r)
	s.bytes += int(n)
	return n, err
}

func (s *statusRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// observe writes one line per request to accessLog, or when it is nil to
// logger, and counts the request in m. It hands the record to the logger's
// handler itself: Logger.LogAttrs would also look up the caller's source
// position, which the line does not show.
func observe(logger *slog.Logger, accessLog io.Writer, m *metrics.Metrics) middleware {
	h := logger.Handler()
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			start := time.Now()
			rec := &statusRecorder{ResponseWriter: w}
			next.ServeHTTP(rec, r)
			if rec.status == 0 {
				rec.status = http.StatusOK
			}
			end := time.Now()
			m.Request(r.URL.Path, rec.status, end.Sub(start))
			line := requestLine{end: end, method: r.Method, path: r.URL.Path, status: rec.status,
				bytes: rec.bytes, duration: end.Sub(start), remote: r.RemoteAddr}
			switch {
			case accessLog != nil:
				line.writeJSON(accessLog)
			case h.Enabled(r.Context(), slog.LevelInfo):
				line.log(r.Context(), h)
			}
		})
	}
}

// recoverPanics turns a panic in a handler into a logged 500 instead of a
// dropped connection.
func recoverPanics(logger *slog.Logger) middleware {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			defer func() {
				if v := recover(); v != nil {
					if v == http.ErrAbortHandler {
						panic(v)
					}
					logger.Error("panic", "method", r.Method, "path", r.URL.Path, "panic", v)
					http.Error(w, "internal server error", http.StatusInternalServerError)
				}
			}()
			next.ServeHTTP(w, r)
		})
	}
}
