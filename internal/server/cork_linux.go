package server

import (
	"net"
	"syscall"
)

// cork holds back partial segments of c (TCP_CORK) until the function it
// returns is called (or for 200 ms at most, Linux's own bound): a header
// written just before a file's sendfile(2) then leaves in the file's first
// segments, and each part of the file without a small segment of its own,
// as with nginx's tcp_nopush. Anything but a TCP connection is left as it
// is.
func cork(c net.Conn) (uncork func()) {
	tc, ok := c.(*net.TCPConn)
	if !ok {
		return func() {}
	}
	raw, err := tc.SyscallConn()
	if err != nil {
		return func() {}
	}
	set := func(v int) {
		_ = raw.Control(func(fd uintptr) { _ = syscall.SetsockoptInt(int(fd), syscall.IPPROTO_TCP, syscall.TCP_CORK, v) })
	}
	set(1)
	return func() { set(0) }
}
