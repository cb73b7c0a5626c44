package main

import (
	"bufio"
	"io"
	"sync"
	"time"
)

// logWriter buffers log lines and writes them out at least every interval
// and on Close, so that logging a request costs no system call of its own.
// At most one interval of log lines is lost if the process is killed.
type logWriter struct {
	mu   sync.Mutex
	buf  *bufio.Writer
	stop chan struct{}
	done chan struct{}
}

func newLogWriter(w io.Writer, interval time.Duration) *logWriter {
	l := &logWriter{buf: bufio.NewWriterSize(w, 64<<10), stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(l.done)
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				l.Flush()
			case <-l.stop:
				return
			}
		}
	}()
	return l
}

func (l *logWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

// Flush writes out what is buffered.
func (l *logWriter) Flush() {
	l.mu.Lock()
	defer l.mu.Unlock()
	_ = l.buf.Flush()
}

// Close stops the background flushing and flushes what is left.
func (l *logWriter) Close() error {
	close(l.stop)
	<-l.done
	l.Flush()
	return nil
}
