package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"io"
	"log"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	pebbleca "github.com/letsencrypt/pebble/v2/ca"
	pebbledb "github.com/letsencrypt/pebble/v2/db"
	pebbleva "github.com/letsencrypt/pebble/v2/va"
	pebblewfe "github.com/letsencrypt/pebble/v2/wfe"
	"github.com/miekg/dns"

	"studio/internal/secretkey"
	"studio/internal/store"
)

// serveInProcess runs "studio serve" with args in this process until the
// test ends, and returns the addresses it listens on: "https" or "http" for
// the site, and the sides by what they serve ("redirect to https", "metrics").
func serveInProcess(t *testing.T, listeners int, args ...string) map[string]string {
	t.Helper()
	requireDataFlag(t, args)
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan int, 1)
	go func() {
		code := run(ctx, append([]string{"serve"}, args...), noEnv, pw, pw)
		pw.Close()
		done <- code
	}()
	addrs := map[string]string{}
	lines := bufio.NewScanner(pr)
	for len(addrs) < listeners && lines.Scan() {
		var entry struct{ Msg, Addr, Scheme, Serves string }
		if json.Unmarshal(lines.Bytes(), &entry) == nil && entry.Msg == "listening" {
			switch {
			case entry.Serves != "":
				addrs[entry.Serves] = entry.Addr
			case entry.Scheme == "https":
				addrs["https"] = entry.Addr
			default:
				addrs["http"] = entry.Addr
			}
		} else if entry.Msg == "" {
			t.Log(lines.Text())
		}
	}
	if len(addrs) < listeners {
		t.Fatalf("studio serve reported %v, want %d listeners", addrs, listeners)
	}
	// The rest of the log, shown when the test fails or runs with -v.
	logged := make(chan struct{})
	var rest bytes.Buffer
	go func() { _, _ = io.Copy(&rest, pr); close(logged) }()
	t.Cleanup(func() {
		cancel()
		if code := <-done; code != 0 {
			t.Errorf("studio serve exited %d", code)
		}
		<-logged
		if t.Failed() || testing.Verbose() {
			t.Logf("studio serve %v:\n%s", args, rest.String())
		}
	})
	return addrs
}

// clientTrusting is an HTTPS client that trusts roots, asks for host by SNI,
// and does not follow redirects.
func clientTrusting(roots *x509.CertPool, host string) *http.Client {
	return &http.Client{
		Timeout:       60 * time.Second,
		Transport:     &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots, ServerName: host}, ForceAttemptHTTP2: true},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// selfSigned writes a certificate for localhost and 127.0.0.1 and its key.
func selfSigned(t *testing.T) (certFile, keyFile string, roots *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "localhost"},
		DNSNames: []string{"localhost"}, IPAddresses: []net.IP{net.ParseIP("127.0.0.1")},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}), 0o600); err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	roots = x509.NewCertPool()
	roots.AddCert(cert)
	return certFile, keyFile, roots
}

func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// TestHTTPSFromFiles: with --tls-cert and --tls-key the site is served over
// HTTPS (HTTP/2) with Strict-Transport-Security, and plain HTTP redirects to
// it; without them, no Strict-Transport-Security.
func TestHTTPSFromFiles(t *testing.T) {
	certFile, keyFile, roots := selfSigned(t)
	addrs := serveInProcess(t, 2, "--addr", "127.0.0.1:0", "--http-addr", "127.0.0.1:0",
		"--tls-cert", certFile, "--tls-key", keyFile, "--data", t.TempDir())
	client := clientTrusting(roots, "localhost")

	resp, err := client.Get("https://" + addrs["https"] + "/studio")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.ProtoMajor != 2 || resp.Header.Get("Strict-Transport-Security") != "max-age=63072000" {
		t.Errorf("GET https /studio = %d %s, HSTS %q; want 200 over HTTP/2 with HSTS", resp.StatusCode, resp.Proto, resp.Header.Get("Strict-Transport-Security"))
	}

	resp, err = client.Get("http://" + addrs["redirect to https"] + "/studio?from=plain")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	_, port, _ := net.SplitHostPort(addrs["https"])
	host, _, _ := net.SplitHostPort(addrs["redirect to https"])
	if want := "https://" + net.JoinHostPort(host, port) + "/studio?from=plain"; resp.StatusCode != http.StatusPermanentRedirect || resp.Header.Get("Location") != want {
		t.Errorf("GET http /studio = %d to %q, want 308 to %q", resp.StatusCode, resp.Header.Get("Location"), want)
	}
	if resp.Header.Get("Strict-Transport-Security") != "" {
		t.Error("the plain-HTTP redirect carries Strict-Transport-Security")
	}
	// A Host the certificate is not for is not redirected to.
	req, _ := http.NewRequest("GET", "http://"+addrs["redirect to https"]+"/admin", nil)
	req.Host = "evil.example"
	if resp, err = client.Do(req); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest || resp.Header.Get("Location") != "" {
		t.Errorf("GET http /admin for Host evil.example = %d to %q, want 400", resp.StatusCode, resp.Header.Get("Location"))
	}

	plain := serveInProcess(t, 1, "--addr", "127.0.0.1:0", "--data", t.TempDir())
	resp, err = http.Get("http://" + plain["http"] + "/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Strict-Transport-Security") != "" {
		t.Errorf("plain HTTP: %d, HSTS %q; want 200 without HSTS", resp.StatusCode, resp.Header.Get("Strict-Transport-Security"))
	}
}

// TestHTTPSFlagErrors: HTTPS settings that cannot work are refused at start.
func TestHTTPSFlagErrors(t *testing.T) {
	certFile, keyFile, _ := selfSigned(t)
	for _, tt := range []struct {
		name string
		args []string
		want string
	}{
		{"cert without key", []string{"--tls-cert", certFile}, "go together"},
		{"key file missing", []string{"--tls-cert", certFile, "--tls-key", keyFile + ".missing"}, "no such file"},
		{"both ways", []string{"--tls-cert", certFile, "--tls-key", keyFile, "--domain", "studio.example"}, "exclude each other"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			args := append([]string{"serve", "--addr", "127.0.0.1:0", "--http-addr", "off", "--data", t.TempDir()}, tt.args...)
			if code := run(context.Background(), args, noEnv, &out, &out); code != 1 || !strings.Contains(out.String(), tt.want) {
				t.Errorf("code %d, output %q; want 1 and %q", code, out.String(), tt.want)
			}
		})
	}
}

// TestHTTPSFromACME: with --domain, the first visit gets a certificate from a
// real ACME server (Pebble, on loopback, which checks the tls-alpn-01 or
// http-01 challenge against this server); the certificate is kept in the
// store, so a restart serves it without asking the CA again.
func TestHTTPSFromACME(t *testing.T) {
	t.Setenv("PEBBLE_VA_NOSLEEP", "1")
	const domain = "studio.test"
	httpsPort, httpPort := freePort(t), freePort(t)
	logger := log.New(io.Discard, "", 0)
	if testing.Verbose() {
		logger = log.New(os.Stderr, "pebble ", 0)
	}
	db := pebbledb.NewMemoryStore()
	ca := pebbleca.New(logger, db, "", "ecdsa", 0, 1, map[string]pebbleca.Profile{"default": {Description: "default"}})
	// autocert wants a name with a dot, and Pebble looks it up: a DNS server
	// on loopback says studio.test is 127.0.0.1.
	va := pebbleva.New(logger, httpPort, httpsPort, false, loopbackDNS(t, domain), db)
	wfe := pebblewfe.New(logger, db, va, ca, []string{"pebble.letsencrypt.org"}, false, false, 1, 1)
	acmeServer := httptest.NewTLSServer(wfe.Handler())
	defer acmeServer.Close()
	acmeRoots := filepath.Join(t.TempDir(), "acme-roots.pem")
	if err := os.WriteFile(acmeRoots, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: acmeServer.Certificate().Raw}), 0o600); err != nil {
		t.Fatal(err)
	}

	data := t.TempDir()
	args := []string{"--addr", "127.0.0.1:" + strconv.Itoa(httpsPort), "--http-addr", "127.0.0.1:" + strconv.Itoa(httpPort),
		"--domain", domain, "--acme-directory", acmeServer.URL + pebblewfe.DirectoryPath, "--acme-email", "ops@studio.test", "--acme-ca-roots", acmeRoots, "--data", data}
	roots := x509.NewCertPool()
	roots.AddCert(ca.GetRootCert(0).Cert)
	client := clientTrusting(roots, domain)

	t.Run("issued on first visit", func(t *testing.T) {
		addrs := serveInProcess(t, 2, args...)
		resp, err := client.Get("https://" + addrs["https"] + "/")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 || resp.Header.Get("Strict-Transport-Security") == "" {
			t.Errorf("GET / = %d, HSTS %q", resp.StatusCode, resp.Header.Get("Strict-Transport-Security"))
		}
		if leaf := resp.TLS.PeerCertificates[0]; leaf.DNSNames[0] != domain {
			t.Errorf("certificate for %v", leaf.DNSNames)
		}
		// Another name is not ours: no certificate is asked for it.
		other := clientTrusting(roots, "elsewhere.test")
		if resp, err := other.Get("https://" + addrs["https"] + "/"); err == nil {
			resp.Body.Close()
			t.Error("a handshake for a name not in --domain succeeded")
		}
	})

	// The certificate and the account key are in the store, sealed: no
	// private key in the rows.
	st := storetestOpen(t, data)
	for _, key := range []string{domain, "acme_account+key"} {
		entry, err := st.CacheGet(context.Background(), key)
		if err != nil || len(entry) == 0 {
			t.Fatalf("%s is not in the store: %v", key, err)
		}
		if !secretkey.IsSealed(entry) || bytes.Contains(entry, []byte("PRIVATE KEY")) {
			t.Errorf("%s is stored in clear: %.60q", key, entry)
		}
	}
	st.Close()

	t.Run("kept across a restart, without the CA", func(t *testing.T) {
		acmeServer.Close()
		addrs := serveInProcess(t, 2, args...)
		resp, err := client.Get("https://" + addrs["https"] + "/about")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Errorf("GET /about after restart = %d", resp.StatusCode)
		}
	})
}

// loopbackDNS serves A records for name (127.0.0.1) over TCP on loopback,
// as Pebble's resolver asks, and returns its address.
func loopbackDNS(t *testing.T, name string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &dns.Server{Listener: ln, Handler: dns.HandlerFunc(func(w dns.ResponseWriter, q *dns.Msg) {
		m := new(dns.Msg)
		m.SetReply(q)
		for _, question := range q.Question {
			if question.Qtype == dns.TypeA && question.Name == dns.Fqdn(name) {
				m.Answer = append(m.Answer, &dns.A{Hdr: dns.RR_Header{Name: question.Name, Rrtype: dns.TypeA, Class: dns.ClassINET, Ttl: 60},
					A: net.ParseIP("127.0.0.1")})
			}
		}
		_ = w.WriteMsg(m)
	})}
	go func() { _ = srv.ActivateAndServe() }()
	t.Cleanup(func() { _ = srv.Shutdown() })
	return ln.Addr().String()
}

func storetestOpen(t *testing.T, dir string) *store.DB {
	t.Helper()
	db, err := store.Open(context.Background(), store.Config{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	return db
}

// TestRedirectToHTTPS: plain HTTP is sent to the same path over HTTPS on a
// host this server has a certificate for, never to another host, whatever
// the Host header or the path says.
func TestRedirectToHTTPS(t *testing.T) {
	ours := func(host string) bool { return host == "studio.example" || host == "127.0.0.1" || host == "::1" }
	for _, tt := range []struct {
		name, mainAddr, host, target string
		wantStatus                   int
		wantLocation                 string
	}{
		{"same path and query", ":443", "studio.example", "/studio?from=plain", 308, "https://studio.example/studio?from=plain"},
		{"the port of HTTPS", "127.0.0.1:8443", "studio.example:8080", "/", 308, "https://studio.example:8443/"},
		{"an IPv4 address", ":443", "127.0.0.1", "/", 308, "https://127.0.0.1/"},
		{"an IPv6 address", ":443", "[::1]:80", "/a", 308, "https://[::1]/a"},
		{"another host", ":443", "evil.example", "/admin", 400, ""},
		{"another host with a port", "127.0.0.1:8443", "evil.example:80", "/", 400, ""},
		{"a host with a user", ":443", "evil.example@studio.example", "/", 400, ""},
		{"no host", ":443", "", "/", 400, ""},
		{"a backslash path", ":443", "studio.example", "/%5Cevil.example/?token_hash=x", 404, ""},
		{"a tab path", ":443", "studio.example", "/%09/evil.example/", 404, ""},
		{"a backslash later is escaped", ":443", "studio.example", "/a/%5Cb", 308, "https://studio.example/a/%5Cb"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", tt.target, nil)
			r.Host = tt.host
			w := httptest.NewRecorder()
			redirectToHTTPS(tt.mainAddr, ours).ServeHTTP(w, r)
			if loc := w.Header().Get("Location"); w.Code != tt.wantStatus || loc != tt.wantLocation {
				t.Errorf("GET http://%s%s = %d to %q, want %d to %q", tt.host, tt.target, w.Code, loc, tt.wantStatus, tt.wantLocation)
			}
		})
	}
}
