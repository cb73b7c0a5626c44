package server

import (
	"bytes"
	"context"
	"log/slog"
	"testing"
	"time"
)

// TestRequestLineIsWhatSlogWrites: the access log's own JSON is byte for
// byte the line slog.NewJSONHandler writes, escapes and time zones included.
func TestRequestLineIsWhatSlogWrites(t *testing.T) {
	at := time.Date(2026, 11, 25, 15, 4, 5, 123_456_789, time.UTC)
	plain := requestLine{end: at, method: "GET", path: "/about", status: 200, bytes: 12262,
		duration: 1234567 * time.Nanosecond, remote: "192.0.2.7:4711"}
	for _, tc := range []struct {
		name string
		edit func(*requestLine)
	}{
		{"plain", func(*requestLine) {}},
		{"whole second", func(l *requestLine) { l.end = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }},
		{"just under a millisecond", func(l *requestLine) { l.end = at.Add(999_999 - 123_456_789%1_000_000) }},
		{"time zone", func(l *requestLine) { l.end = at.In(time.FixedZone("", 5*3600+1800)) }},
		{"IPv6 remote", func(l *requestLine) { l.remote = "[2001:db8::1]:443" }},
		{"characters HTML escapes", func(l *requestLine) { l.path = "/a<b>&c'd" }},
		{"quote and backslash", func(l *requestLine) { l.path = `/a"b\c` }},
		{"control characters", func(l *requestLine) { l.path = "/a\nb\tc\x01\x7f" }},
		{"non-ASCII", func(l *requestLine) { l.path = "/café/\u2028" }},
		{"invalid UTF-8", func(l *requestLine) { l.path = "/\xff\xfe" }},
		{"odd method", func(l *requestLine) { l.method = `GE"T` }},
		{"no status yet, empty strings", func(l *requestLine) { l.status, l.method, l.path, l.remote = 0, "", "", "" }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			line := plain
			tc.edit(&line)
			var got, want bytes.Buffer
			line.writeJSON(&got)
			line.log(context.Background(), slog.NewJSONHandler(&want, nil))
			if got.String() != want.String() {
				t.Errorf("line\n%s want\n%s", got.String(), want.String())
			}
		})
	}
}
