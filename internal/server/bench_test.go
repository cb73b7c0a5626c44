package server_test

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"studio/internal/server"
	"studio/internal/site"
	"studio/web"
)

// BenchmarkHomePage measures the handler alone (no network) for the home
// page with gzip, as served in production: site, middleware and access log.
func BenchmarkHomePage(b *testing.B) {
	s, err := site.New(web.Site(), site.Options{})
	if err != nil {
		b.Fatal(err)
	}
	h := server.New(server.Deps{Site: s, Logger: slog.New(slog.NewJSONHandler(io.Discard, nil))})
	r := httptest.NewRequest("GET", "/", nil)
	r.Header.Set("Accept-Encoding", "gzip, deflate, br, zstd")
	b.ReportAllocs()
	for b.Loop() {
		w := &discardWriter{h: http.Header{}}
		h.ServeHTTP(w, r)
	}
}

type discardWriter struct{ h http.Header }

func (d *discardWriter) Header() http.Header         { return d.h }
func (d *discardWriter) Write(b []byte) (int, error) { return len(b), nil }
func (d *discardWriter) WriteHeader(int)             {}
