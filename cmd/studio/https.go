package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"slices"
	"strings"
	"time"

	"golang.org/x/crypto/acme"
	"golang.org/x/crypto/acme/autocert"

	"studio/internal/redirect"
	"studio/internal/secretkey"
	"studio/internal/server"
	"studio/internal/store"
)

// httpsConfig is the HTTPS part of "studio serve": certificate files, or
// certificates an ACME CA issues for --domain, and the plain-HTTP listener
// that redirects to HTTPS.
type httpsConfig struct {
	certFile, keyFile string
	domains           string
	acmeEmail         string
	acmeDirectory     string
	acmeRoots         string
	httpAddr          string
}

func httpsFlags(fs *flag.FlagSet, env func(string) string) *httpsConfig {
	var c httpsConfig
	envString(fs, &c.certFile, "tls-cert", "STUDIO_TLS_CERT", "", "PEM certificate chain: serve HTTPS on --addr with it (and --tls-key)", env)
	envString(fs, &c.keyFile, "tls-key", "STUDIO_TLS_KEY", "", "PEM private key of --tls-cert", env)
	envString(fs, &c.domains, "domain", "STUDIO_DOMAIN", "", "comma-separated host names: serve HTTPS on --addr with certificates from an ACME CA (Let's Encrypt), kept in the store", env)
	envString(fs, &c.acmeEmail, "acme-email", "STUDIO_ACME_EMAIL", "", "contact address given to the ACME CA (expiry notices)", env)
	envString(fs, &c.acmeDirectory, "acme-directory", "STUDIO_ACME_DIRECTORY", autocert.DefaultACMEDirectory, "directory URL of the ACME CA", env)
	envString(fs, &c.acmeRoots, "acme-ca-roots", "STUDIO_ACME_CA_ROOTS", "", "PEM file of the CA certificates to trust when talking to a private ACME CA; empty: the system's", env)
	envString(fs, &c.httpAddr, "http-addr", "STUDIO_HTTP_ADDR", ":80", "with HTTPS: address for plain HTTP, which redirects to HTTPS (and answers ACME http-01 challenges), or off", env)
	return &c
}

// enabled reports whether the server speaks HTTPS.
func (c httpsConfig) enabled() bool { return c.certFile != "" || c.keyFile != "" || c.domains != "" }

// options returns what server.Serve needs to speak HTTPS on mainAddr, with
// the plain-HTTP listener opened; no options when HTTPS is off. The ACME
// keys are kept in db, sealed with secrets.
func (c httpsConfig) options(db *store.DB, secrets *secretkey.SecretKey, mainAddr string, logger *slog.Logger) (server.Options, error) {
	var opts server.Options
	if !c.enabled() {
		return opts, nil
	}
	var toHTTPS http.Handler
	switch {
	case c.domains != "" && (c.certFile != "" || c.keyFile != ""):
		return opts, errors.New("--domain and --tls-cert exclude each other: certificates come from the ACME CA or from files")
	case c.domains != "":
		client, err := c.acmeHTTPClient()
		if err != nil {
			return opts, err
		}
		m := &autocert.Manager{
			Prompt:     autocert.AcceptTOS,
			HostPolicy: autocert.HostWhitelist(splitList(c.domains)...),
			Cache:      storeCertCache{db: db, secrets: secrets, logger: logger},
			Email:      c.acmeEmail,
			Client:     &acme.Client{DirectoryURL: c.acmeDirectory, HTTPClient: client},
		}
		opts.TLS = m.TLSConfig()
		opts.TLS.GetCertificate = logCertificateErrors(m.GetCertificate, logger)
		toHTTPS = m.HTTPHandler(redirectToHTTPS(mainAddr, domainHosts(splitList(c.domains))))
	case c.certFile == "" || c.keyFile == "":
		return opts, errors.New("--tls-cert and --tls-key go together: set both")
	default:
		cert, err := tls.LoadX509KeyPair(c.certFile, c.keyFile)
		if err != nil {
			return opts, fmt.Errorf("--tls-cert/--tls-key: %w", err)
		}
		opts.TLS = &tls.Config{Certificates: []tls.Certificate{cert}}
		toHTTPS = redirectToHTTPS(mainAddr, certificateHosts(cert))
	}
	opts.TLS.MinVersion = tls.VersionTLS12
	if c.httpAddr != "off" {
		ln, err := net.Listen("tcp", c.httpAddr)
		if err != nil {
			return opts, fmt.Errorf("--http-addr: %w", err)
		}
		opts.Sides = append(opts.Sides, server.Side{Name: "redirect to https", Listener: ln, Handler: toHTTPS})
	}
	return opts, nil
}

// acmeHTTPClient is the client that talks to the ACME CA: the default one,
// or one that trusts --acme-ca-roots.
func (c httpsConfig) acmeHTTPClient() (*http.Client, error) {
	if c.acmeRoots == "" {
		return nil, nil
	}
	pem, err := os.ReadFile(c.acmeRoots)
	if err != nil {
		return nil, fmt.Errorf("--acme-ca-roots: %w", err)
	}
	roots := x509.NewCertPool()
	if !roots.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("--acme-ca-roots: no PEM certificate in %s", c.acmeRoots)
	}
	transport := http.DefaultTransport.(*http.Transport).Clone()
	transport.TLSClientConfig = &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12}
	return &http.Client{Transport: transport, Timeout: time.Minute}, nil
}

// logCertificateErrors logs why a handshake found no certificate (the ACME
// CA refused, a name not in --domain): the client only sees "internal error".
func logCertificateErrors(get func(*tls.ClientHelloInfo) (*tls.Certificate, error), logger *slog.Logger) func(*tls.ClientHelloInfo) (*tls.Certificate, error) {
	return func(hello *tls.ClientHelloInfo) (*tls.Certificate, error) {
		cert, err := get(hello)
		if err != nil {
			logger.Warn("tls: no certificate", "server_name", hello.ServerName, "remote", hello.Conn.RemoteAddr().String(), "err", err)
		}
		return cert, err
	}
}

// redirectToHTTPS sends every request to the same path and query over
// HTTPS, on the port of mainAddr unless that is 443. Only a host this server
// has a certificate for (hasCertificate) is kept: any other Host is refused,
// so that no one can point the redirect at another site. 308 keeps the
// method and body.
func redirectToHTTPS(mainAddr string, hasCertificate func(host string) bool) http.Handler {
	_, port, _ := net.SplitHostPort(mainAddr)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := r.Host
		if h, _, err := net.SplitHostPort(host); err == nil {
			host = h
		}
		if host == "" || !hasCertificate(host) {
			http.Error(w, "Bad Request: not a host of this server", http.StatusBadRequest)
			return
		}
		location, ok := redirect.Location(r.URL.Path, r.URL.RawQuery)
		if !ok {
			http.NotFound(w, r)
			return
		}
		if port != "" && port != "443" {
			host = net.JoinHostPort(host, port)
		} else if strings.Contains(host, ":") {
			host = "[" + host + "]" // an IPv6 address
		}
		w.Header().Set("Location", "https://"+host+location)
		w.WriteHeader(http.StatusPermanentRedirect)
	})
}

// certificateHosts reports whether a host is a name or address cert is
// valid for.
func certificateHosts(cert tls.Certificate) func(host string) bool {
	return func(host string) bool { return cert.Leaf != nil && cert.Leaf.VerifyHostname(host) == nil }
}

// domainHosts reports whether a host is one of domains (--domain).
func domainHosts(domains []string) func(host string) bool {
	return func(host string) bool {
		return slices.ContainsFunc(domains, func(d string) bool { return strings.EqualFold(d, host) })
	}
}

// storeCertCache keeps autocert's certificates and account key in the store,
// so that every instance on one PostgreSQL shares them (on SQLite, the store
// is in --data). The entries that hold a private key are sealed with the
// secret key; one stored in clear by a release before --secret-key is read
// as it is, and sealed when autocert next writes it (a renewal) or by
// "studio keys seal".
type storeCertCache struct {
	db      *store.DB
	secrets *secretkey.SecretKey
	logger  *slog.Logger
}

func (c storeCertCache) Get(ctx context.Context, key string) ([]byte, error) {
	data, err := c.db.CacheGet(ctx, key)
	if errors.Is(err, store.ErrCacheMiss) {
		return nil, autocert.ErrCacheMiss
	}
	if err != nil || !secretkey.IsSealed(data) {
		return data, err
	}
	plain, err := c.secrets.Open(data, acmeCacheLabel(key))
	if err != nil {
		// autocert would take it for a broken entry and ask the CA again:
		// say why, as the operator most likely gave the wrong key.
		c.logger.Error("acme cache entry does not open", "key", key, "err", err)
		return nil, fmt.Errorf("acme cache entry %s: %w", key, err)
	}
	return plain, nil
}

func (c storeCertCache) Put(ctx context.Context, key string, data []byte) error {
	if holdsPrivateKey(key) {
		var err error
		if data, err = c.secrets.Seal(data, acmeCacheLabel(key)); err != nil {
			return err
		}
	}
	return c.db.CachePut(ctx, key, data)
}

func (c storeCertCache) Delete(ctx context.Context, key string) error {
	return c.db.CacheDelete(ctx, key)
}

// holdsPrivateKey tells the autocert cache entries to seal: the account key
// and the certificates (each with its private key). An http-01 answer is
// public, and stays in clear so that every instance, of any release, can
// give it to the CA.
func holdsPrivateKey(key string) bool { return !strings.HasSuffix(key, "+http-01") }

// acmeCacheLabel binds a sealed ACME cache entry to its key.
func acmeCacheLabel(key string) string { return "acme cache " + key }

// sealACMECache seals every ACME cache entry that holds a private key and is
// stored in clear; with unseal, it stores every sealed one in clear again.
// It returns the keys of the entries it changed.
func sealACMECache(ctx context.Context, db *store.DB, secrets *secretkey.SecretKey, unseal bool) (changed []string, err error) {
	keys, err := db.CacheKeys(ctx)
	if err != nil {
		return nil, err
	}
	for _, key := range keys {
		data, err := db.CacheGet(ctx, key)
		if errors.Is(err, store.ErrCacheMiss) {
			continue // deleted meanwhile
		}
		if err != nil {
			return changed, err
		}
		if !holdsPrivateKey(key) || secretkey.IsSealed(data) != unseal {
			continue
		}
		var next []byte
		if unseal {
			next, err = secrets.Open(data, acmeCacheLabel(key))
		} else {
			next, err = secrets.Seal(data, acmeCacheLabel(key))
		}
		if err != nil {
			return changed, fmt.Errorf("acme cache entry %s: %w", key, err)
		}
		ok, err := db.CacheReplace(ctx, key, data, next)
		if err != nil {
			return changed, err
		}
		if ok {
			changed = append(changed, key)
		}
	}
	return changed, nil
}

// dropUnreadableACME removes the ACME cache entries that do not open with
// secrets (its secret key was lost): autocert then asks the CA again. It
// returns their keys.
func dropUnreadableACME(ctx context.Context, db *store.DB, secrets *secretkey.SecretKey) (dropped []string, err error) {
	keys, err := db.CacheKeys(ctx)
	if err != nil {
		return nil, err
	}
	for _, key := range keys {
		data, err := db.CacheGet(ctx, key)
		if errors.Is(err, store.ErrCacheMiss) {
			continue
		}
		if err != nil {
			return dropped, err
		}
		if !secretkey.IsSealed(data) {
			continue
		}
		if _, err := secrets.Open(data, acmeCacheLabel(key)); err == nil {
			continue
		}
		if err := db.CacheDelete(ctx, key); err != nil {
			return dropped, err
		}
		dropped = append(dropped, key)
	}
	return dropped, nil
}
