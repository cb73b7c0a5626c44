package main

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"
)

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func TestLogWriterFlushesOnIntervalAndClose(t *testing.T) {
	var out lockedBuffer
	w := newLogWriter(&out, 20*time.Millisecond)
	_, _ = w.Write([]byte("first\n"))
	deadline := time.Now().Add(2 * time.Second)
	for !strings.Contains(out.String(), "first") {
		if time.Now().After(deadline) {
			t.Fatal("a buffered line was not flushed on the interval")
		}
		time.Sleep(5 * time.Millisecond)
	}
	_, _ = w.Write([]byte("last\n"))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); got != "first\nlast\n" {
		t.Errorf("output = %q", got)
	}
}
