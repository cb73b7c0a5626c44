package server

import (
	"context"
	"io"
	"log/slog"
	"strconv"
	"sync"
	"time"
)

// requestLine is what the access log says of one request.
type requestLine struct {
	end      time.Time
	method   string
	path     string
	status   int
	bytes    int
	duration time.Duration
	remote   string
}

// log hands the line to h, the handler of Deps.Logger.
func (l requestLine) log(ctx context.Context, h slog.Handler) {
	record := slog.NewRecord(l.end, slog.LevelInfo, "request", 0)
	record.AddAttrs(
		slog.String("method", l.method),
		slog.String("path", l.path),
		slog.Int("status", l.status),
		slog.Int("bytes", l.bytes),
		slog.Duration("duration", l.duration),
		slog.String("remote", l.remote),
	)
	_ = h.Handle(ctx, record)
}

var lineBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 256); return &b }}

// writeJSON writes the line to w exactly as slog.NewJSONHandler(w, nil)
// would (Deps.AccessLog), at a fraction of its cost: a request's log line is
// a good part of the work of serving a file. A line whose strings need
// escaping in JSON goes through that handler.
func (l requestLine) writeJSON(w io.Writer) {
	if !plainJSON(l.method) || !plainJSON(l.path) || !plainJSON(l.remote) {
		l.log(context.Background(), slog.NewJSONHandler(w, nil))
		return
	}
	bp := lineBuffers.Get().(*[]byte)
	b := append((*bp)[:0], `{"time":"`...)
	b = l.end.AppendFormat(b, time.RFC3339Nano)
	b = append(b, `","level":"INFO","msg":"request","method":"`...)
	b = append(b, l.method...)
	b = append(b, `","path":"`...)
	b = append(b, l.path...)
	b = append(b, `","status":`...)
	b = strconv.AppendInt(b, int64(l.status), 10)
	b = append(b, `,"bytes":`...)
	b = strconv.AppendInt(b, int64(l.bytes), 10)
	b = append(b, `,"duration":`...)
	b = strconv.AppendInt(b, int64(l.duration), 10)
	b = append(b, `,"remote":"`...)
	b = append(b, l.remote...)
	b = append(b, "\"}\n"...)
	_, _ = w.Write(b)
	*bp = b
	lineBuffers.Put(bp)
}

// plainJSON reports whether s is the same inside a JSON string: printable
// ASCII without a quote or backslash.
func plainJSON(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}
