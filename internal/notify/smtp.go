package notify

import (
	"bytes"
	"context"
	"crypto/tls"
	"fmt"
	"mime"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"net/url"
	"strings"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// SMTP delivers e-mail through one mail server.
type SMTP struct {
	Addr        string // host:port
	Username    string // empty: no authentication
	Password    string
	ImplicitTLS bool // smtps://: TLS from the first byte
	// TLSConfig is used for smtps:// and STARTTLS; nil means the system's
	// roots and the server's host name.
	TLSConfig *tls.Config
	// Timeout bounds one delivery: connecting, every command and the data.
	Timeout time.Duration
}

// ParseSMTPURL parses smtp://[user:pass@]host[:port] (STARTTLS, required
// unless the host is this machine; port 587 by default) or smtps://…[:port] (implicit TLS,
// port 465 by default).
func ParseSMTPURL(raw string) (*SMTP, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, err
	}
	s := &SMTP{Timeout: time.Minute}
	port := "587"
	switch u.Scheme {
	case "smtp":
	case "smtps":
		s.ImplicitTLS, port = true, "465"
	default:
		return nil, fmt.Errorf("scheme %q: want smtp:// or smtps://", u.Scheme)
	}
	if u.Hostname() == "" {
		return nil, fmt.Errorf("no host in %q", u.Redacted())
	}
	if u.Port() != "" {
		port = u.Port()
	}
	s.Addr = net.JoinHostPort(u.Hostname(), port)
	if u.User != nil {
		s.Username = u.User.Username()
		s.Password, _ = u.User.Password()
	}
	return s, nil
}

// Send delivers q's e-mail. It fails rather than send a password in clear
// text to a server that is not on this machine.
func (s *SMTP) Send(ctx context.Context, q Queued) error {
	msg, err := Format(q)
	if err != nil {
		return err
	}
	from, err := mail.ParseAddress(q.Email.From)
	if err != nil {
		return fmt.Errorf("from address: %w", err)
	}
	var to []string
	for _, addr := range q.Email.To {
		a, err := mail.ParseAddress(addr)
		if err != nil {
			return fmt.Errorf("to address: %w", err)
		}
		to = append(to, a.Address)
	}
	timeout := s.Timeout
	if timeout <= 0 {
		timeout = time.Minute
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	host, _, _ := net.SplitHostPort(s.Addr)
	tlsConfig := s.TLSConfig
	if tlsConfig == nil {
		tlsConfig = &tls.Config{ServerName: host, MinVersion: tls.VersionTLS12}
	}
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", s.Addr)
	if err != nil {
		return fmt.Errorf("connect to %s: %w", s.Addr, err)
	}
	if deadline, ok := ctx.Deadline(); ok {
		_ = conn.SetDeadline(deadline)
	}
	var c *smtp.Client
	encrypted := true
	switch {
	case s.ImplicitTLS:
		c = smtp.NewClient(tls.Client(conn, tlsConfig))
	case isLoopback(host):
		// A relay on this machine: nothing crosses the network.
		c, encrypted = smtp.NewClient(conn), false
	default:
		if c, err = smtp.NewClientStartTLS(conn, tlsConfig); err != nil {
			conn.Close()
			return fmt.Errorf("smtp starttls with %s: %w", s.Addr, err)
		}
	}
	defer c.Close()
	if s.Username != "" {
		if !encrypted && !isLoopback(host) {
			return fmt.Errorf("smtp auth: %s offers no TLS; refusing to send the password in clear text", s.Addr)
		}
		if err := c.Auth(sasl.NewPlainClient("", s.Username, s.Password)); err != nil {
			return fmt.Errorf("smtp auth: %w", err)
		}
	}
	if err := c.SendMail(from.Address, to, bytes.NewReader(msg)); err != nil {
		return fmt.Errorf("smtp send: %w", err)
	}
	if err := c.Quit(); err != nil {
		return fmt.Errorf("smtp quit: %w", err)
	}
	return nil
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Format renders q as an RFC 5322 message in UTF-8. Its Message-ID is the
// same at every attempt, so a receiver can tell a repeated delivery (after a
// crash between sending and recording it) from a new message.
func Format(q Queued) ([]byte, error) {
	var b bytes.Buffer
	header := func(k, v string) {
		b.WriteString(k + ": " + v + "\r\n")
	}
	domain := "studio.invalid"
	if a, err := mail.ParseAddress(q.Email.From); err == nil {
		if _, d, ok := strings.Cut(a.Address, "@"); ok {
			domain = d
		}
	}
	header("From", q.Email.From)
	header("To", strings.Join(q.Email.To, ", "))
	if q.Email.ReplyTo != "" {
		header("Reply-To", q.Email.ReplyTo)
	}
	header("Subject", mime.QEncoding.Encode("utf-8", q.Email.Subject))
	header("Date", q.Created.Format(time.RFC1123Z))
	header("Message-ID", fmt.Sprintf("<outbox-%d-%d@%s>", q.ID, q.Created.Unix(), domain))
	header("MIME-Version", "1.0")
	header("Content-Type", "text/plain; charset=utf-8")
	header("Content-Transfer-Encoding", "quoted-printable")
	b.WriteString("\r\n")
	w := quotedprintable.NewWriter(&b)
	body := strings.ReplaceAll(strings.ReplaceAll(q.Email.Body, "\r\n", "\n"), "\n", "\r\n")
	if _, err := w.Write([]byte(body)); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
