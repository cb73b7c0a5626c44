package server

import (
	"context"
	"io"
	"net"
	"net/http"
	"sync"

	"studio/internal/api"
)

// net/http writes a response through a 4 KiB buffer: when the header and
// body are bigger than that, the header and the start of the body leave in
// one write(2) and the rest in a second. On a page of the site, each write
// costs about a quarter of the request (decision 0015). inOneWrite makes
// the responses of one handler leave in one system call: while that handler
// runs, its connection gathers what net/http writes, and sends it when the
// handler returns. It suits a handler that writes its whole response and
// returns (the site's files). A handler that streams, or reads a request
// body (its client may wait for "100 Continue"), must not be wrapped. Every
// other handler's writes go to the socket as net/http makes them.

// wholeLimit bounds what a connection gathers; a bigger write goes out at
// once, together with what was gathered, in one writev(2).
const wholeLimit = 32 << 10

var gatherBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 16<<10); return &b }}

// gatheringListener makes every accepted connection a gatheringConn.
type gatheringListener struct{ net.Listener }

func (l gatheringListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &gatheringConn{Conn: c}, nil
}

// gatheringConn is a connection that can gather its writes. Only the
// goroutine serving the connection writes to it and gathers (net/http runs
// a handler there); so it needs no lock.
type gatheringConn struct {
	net.Conn
	gathering bool
	gathered  *[]byte // from gatherBuffers while something is gathered, else nil
	uncork    func()  // while corked by ReadFrom, else nil
}

type gatheringConnKey struct{}

// withGatheringConn is the server's ConnContext: it lets inOneWrite find
// the connection of a request.
func withGatheringConn(ctx context.Context, c net.Conn) context.Context {
	if gc, ok := c.(*gatheringConn); ok {
		return context.WithValue(ctx, gatheringConnKey{}, gc)
	}
	return ctx
}

// inOneWrite sends each response of h in one system call (see above). On a
// connection Serve did not accept (TLS, or a test's server) it does nothing.
func inOneWrite(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, ok := r.Context().Value(gatheringConnKey{}).(*gatheringConn)
		if !ok {
			h.ServeHTTP(w, r)
			return
		}
		c.gathering = true
		defer c.send()
		h.ServeHTTP(w, r)
		// net/http keeps up to 4 KiB of the response in its buffer until
		// after the handler (the end of a body of 4–8 KiB): flush it into
		// what is gathered. Only with a Content-Length: a short answer
		// without one gets it from net/http when left in the buffer.
		if w.Header().Get("Content-Length") != "" {
			_ = http.NewResponseController(w).Flush()
		}
	})
}

func (c *gatheringConn) Write(p []byte) (int, error) {
	if !c.gathering {
		return c.Conn.Write(p)
	}
	held := 0
	if c.gathered != nil {
		held = len(*c.gathered)
	}
	if held+len(p) <= wholeLimit {
		if c.gathered == nil {
			c.gathered = gatherBuffers.Get().(*[]byte)
		}
		*c.gathered = append(*c.gathered, p...)
		return len(p), nil
	}
	if held == 0 {
		return c.Conn.Write(p)
	}
	bufs := net.Buffers{*c.gathered, p}
	n, err := bufs.WriteTo(c.Conn)
	c.release()
	return int(max(n-int64(held), 0)), err
}

// ReadFrom sends what was gathered, then what r holds as the connection
// reads it: a file by sendfile(2) on a TCP connection (net/http's response
// hands it here). While gathering, the connection stays corked until the
// answer is sent: its header and its file, sent in parts, leave in full
// segments, as with nginx's tcp_nopush.
func (c *gatheringConn) ReadFrom(r io.Reader) (int64, error) {
	if c.gathering && c.uncork == nil {
		c.uncork = cork(c.Conn)
	}
	if c.gathered != nil {
		_, err := c.Conn.Write(*c.gathered)
		c.release()
		if err != nil {
			return 0, err
		}
	}
	return api.ReadFrom(c.Conn, r)
}

// send writes what was gathered and stops gathering. An error of that write
// shows at the connection's next read or write, where net/http handles it.
func (c *gatheringConn) send() {
	c.gathering = false
	if c.gathered != nil {
		_, _ = c.Conn.Write(*c.gathered)
		c.release()
	}
	if c.uncork != nil {
		c.uncork()
		c.uncork = nil
	}
}

func (c *gatheringConn) release() {
	*c.gathered = (*c.gathered)[:0]
	gatherBuffers.Put(c.gathered)
	c.gathered = nil
}

// CloseWrite is what net/http calls to end a connection gracefully after a
// response with "Connection: close".
func (c *gatheringConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}
