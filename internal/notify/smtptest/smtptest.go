// Package smtptest runs a real SMTP server on loopback, in process, for
// tests of e-mail delivery: it requires PLAIN authentication, can refuse
// the first deliveries with a temporary error, and records what it accepts.
package smtptest

import (
	"errors"
	"io"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// Credentials the server accepts.
const (
	User     = "user"
	Password = "secret"
)

// Server is a running test SMTP server.
type Server struct {
	Addr string // 127.0.0.1:port
	// Arrived receives a value for each message accepted.
	Arrived chan struct{}

	mu        sync.Mutex
	failFirst int
	attempts  int
	received  []Message
}

// Message is one accepted message.
type Message struct {
	From string
	To   []string
	Data string // the raw message
}

// Start starts a server that refuses the first failFirst deliveries (451)
// and stops it at the end of the test.
func Start(tb testing.TB, failFirst int) *Server {
	tb.Helper()
	ms := &Server{failFirst: failFirst, Arrived: make(chan struct{}, 1000)}
	s := smtp.NewServer(ms)
	s.Domain = "localhost"
	s.AllowInsecureAuth = true // loopback only
	s.ReadTimeout = 10 * time.Second
	s.WriteTimeout = 10 * time.Second
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	ms.Addr = ln.Addr().String()
	go func() { _ = s.Serve(ln) }()
	tb.Cleanup(func() { s.Close() })
	return ms
}

// URL is the --smtp-url of the server, with its credentials.
func (ms *Server) URL() string { return "smtp://" + User + ":" + Password + "@" + ms.Addr }

// Attempts is how many deliveries were tried, refused ones included.
func (ms *Server) Attempts() int {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	return ms.attempts
}

// Received returns the accepted messages.
func (ms *Server) Received() []Message {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	return append([]Message(nil), ms.received...)
}

// NewSession implements smtp.Backend.
func (ms *Server) NewSession(*smtp.Conn) (smtp.Session, error) { return &session{ms: ms}, nil }

type session struct {
	ms     *Server
	authed bool
	from   string
	rcpts  []string
}

func (s *session) AuthMechanisms() []string { return []string{sasl.Plain} }

func (s *session) Auth(string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(identity, user, pass string) error {
		if user != User || pass != Password {
			return errors.New("invalid credentials")
		}
		s.authed = true
		return nil
	}), nil
}

func (s *session) Mail(from string, _ *smtp.MailOptions) error {
	if !s.authed {
		return smtp.ErrAuthRequired
	}
	s.from = from
	return nil
}

func (s *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	s.rcpts = append(s.rcpts, to)
	return nil
}

func (s *session) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	s.ms.mu.Lock()
	defer s.ms.mu.Unlock()
	s.ms.attempts++
	if s.ms.attempts <= s.ms.failFirst {
		return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "try again later"}
	}
	s.ms.received = append(s.ms.received, Message{From: s.from, To: s.rcpts, Data: string(b)})
	s.ms.Arrived <- struct{}{}
	return nil
}

func (s *session) Reset()        { s.from, s.rcpts = "", nil }
func (s *session) Logout() error { return nil }
