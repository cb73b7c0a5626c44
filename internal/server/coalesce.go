package server

import (
	"context"
	"net"
	"net/http"
	"sync"
	"time"
)

// net/http writes a response through a 4 KiB buffer: the header and the
// first part of the body go out in one write(2), the rest of the body in a
// second. On a small page, most of the cost of a request is those system
// calls. A coalescingConn holds what the server writes while a handler runs,
// and lets it go when the server next reads from the connection (for the next
// request, as soon as a response is complete) or closes it: a whole response
// leaves in one system call.
//
// The one consequence for handlers: a response that is flushed part-way
// (http.ResponseController.Flush, for streaming) reaches the client only when
// it is complete or passes coalesceLimit. No handler of the studio streams.
// A request to upgrade the connection (the websocket of /realtime/v1) turns
// coalescing off for the rest of the connection: its frames must leave as
// they are written. See docs/decisions/0005-coalesced-response-writes.md.

// coalesceLimit bounds what a connection holds back; a bigger write goes out
// at once, together with what was held, in one writev(2).
const coalesceLimit = 32 << 10

// closeFlushTimeout bounds the last write of a connection being closed.
var closeFlushTimeout = time.Second

var pendingBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 16<<10); return &b }}

// coalescingListener wraps every accepted connection in a coalescingConn.
type coalescingListener struct{ net.Listener }

func (l coalescingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &coalescingConn{Conn: c}, nil
}

type coalescingConn struct {
	net.Conn
	mu      sync.Mutex // net/http reads from a second goroutine while a handler runs
	pending *[]byte    // from pendingBuffers while something is held, else nil
	// inHandler is set while a handler runs. net/http then keeps a read
	// pending (to notice a client that goes away); that read must not send a
	// response that is half written.
	inHandler bool
	// direct is set once the connection is being upgraded: every write
	// goes out at once.
	direct bool
}

type connKey struct{}

// withConn is the server's ConnContext: it makes the connection known to
// holdWhileHandling.
func withConn(ctx context.Context, c net.Conn) context.Context {
	if cc, ok := c.(*coalescingConn); ok {
		return context.WithValue(ctx, connKey{}, cc)
	}
	return ctx
}

// holdWhileHandling marks the connection busy while h runs. A request that
// expects "100 Continue" is left alone: its client waits for that interim
// response before it sends the body the handler reads. A request to upgrade
// the connection stops the coalescing of it: after the upgrade, the handler
// writes frames while it waits to read, and a frame held until the next
// read would never leave.
func holdWhileHandling(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, ok := r.Context().Value(connKey{}).(*coalescingConn)
		if ok && r.Header.Get("Upgrade") != "" {
			if err := c.writeDirectly(); err != nil {
				return // the connection failed; net/http closes it
			}
		}
		if !ok || r.Header.Get("Expect") != "" || r.Header.Get("Upgrade") != "" {
			h.ServeHTTP(w, r)
			return
		}
		c.setInHandler(true)
		defer c.setInHandler(false)
		h.ServeHTTP(w, r)
	})
}

func (c *coalescingConn) setInHandler(v bool) {
	c.mu.Lock()
	c.inHandler = v
	c.mu.Unlock()
}

// writeDirectly sends what is held and turns coalescing off for good.
func (c *coalescingConn) writeDirectly() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.direct = true
	if c.pending == nil {
		return nil
	}
	_, err := c.Conn.Write(*c.pending)
	c.release()
	return err
}

func (c *coalescingConn) Write(p []byte) (int, error) {
	c.mu.Lock()
	if c.direct {
		c.mu.Unlock()
		return c.Conn.Write(p) // concurrent writes are the upgraded protocol's to order
	}
	defer c.mu.Unlock()
	held := 0
	if c.pending != nil {
		held = len(*c.pending)
	}
	if held+len(p) <= coalesceLimit {
		if c.pending == nil {
			c.pending = pendingBuffers.Get().(*[]byte)
		}
		*c.pending = append(*c.pending, p...)
		return len(p), nil
	}
	if held == 0 {
		return c.Conn.Write(p)
	}
	bufs := net.Buffers{*c.pending, p}
	n, err := bufs.WriteTo(c.Conn)
	c.release()
	return int(max(n-int64(held), 0)), err
}

// flush writes what is held; unless force, not while a handler runs.
func (c *coalescingConn) flush(force bool) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.pending == nil || (c.inHandler && !force) {
		return nil
	}
	_, err := c.Conn.Write(*c.pending)
	c.release()
	return err
}

func (c *coalescingConn) release() {
	*c.pending = (*c.pending)[:0]
	pendingBuffers.Put(c.pending)
	c.pending = nil
}

func (c *coalescingConn) Read(p []byte) (int, error) {
	if err := c.flush(false); err != nil {
		return 0, err
	}
	return c.Conn.Read(p)
}

// Close sends what is held (net/http closes a connection after its last
// response when it does not keep it alive) and closes the connection. A
// client that does not read gets closeFlushTimeout for that; and when another
// goroutine is blocked writing to such a client (Server.Shutdown closes idle
// connections from its own goroutine), the close ends that write at once.
func (c *coalescingConn) Close() error {
	var flushErr error
	if c.mu.TryLock() {
		if c.pending != nil {
			_ = c.Conn.SetWriteDeadline(time.Now().Add(closeFlushTimeout))
			_, flushErr = c.Conn.Write(*c.pending)
			c.release()
		}
		c.mu.Unlock()
	}
	if err := c.Conn.Close(); err != nil {
		return err
	}
	return flushErr
}

// CloseWrite is what net/http calls to end a connection gracefully after a
// response with "Connection: close".
func (c *coalescingConn) CloseWrite() error {
	if err := c.flush(true); err != nil {
		return err
	}
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}
