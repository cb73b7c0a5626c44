//go:build !linux

package server

import "net"

// cork does nothing here: TCP_CORK is Linux's (cork_linux.go).
func cork(net.Conn) (uncork func()) { return func() {} }
