// Package server assembles the studio's HTTP handler (the site and the backend
// functions, behind the shared middleware) and runs it with graceful shutdown.
package server

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"time"

	"studio/internal/analytics"
	"studio/internal/auth"
	"studio/internal/contact"
	"studio/internal/metrics"
	"studio/internal/signup"
	"studio/internal/storage"
)

// ShutdownTimeout bounds how long in-flight requests may take to finish after
// a shutdown signal.
const ShutdownTimeout = 10 * time.Second

// Deps are what the handler is built from.
type Deps struct {
	Site   http.Handler // the prerendered site, see package site
	Logger *slog.Logger
	// AccessLog, when not nil, takes the line of each request, in the JSON
	// of slog.NewJSONHandler (as if Logger were one writing to AccessLog),
	// written directly at a fraction of the cost. When nil, the lines go to
	// Logger.
	AccessLog io.Writer
	// Contact and Signup take the functions' submissions; when nil, the
	// functions answer 503.
	Contact   *contact.Service
	Signup    *signup.Service
	Functions FunctionsConfig
	// Auth is the staff sign-in service at /auth/v1; none when nil.
	Auth *auth.Service
	// Rest is the console's data service at /rest/v1 (package rest); none
	// when nil.
	Rest http.Handler
	// Realtime is the console's live updates at /realtime/v1 (package
	// realtime); none when nil.
	Realtime http.Handler
	// Storage is the files service at /storage/v1 (package storage); none
	// when nil.
	Storage *storage.Service
	// Analytics counts the pages shown and the goals reached (package
	// analytics); nothing is counted when nil (--analytics off).
	Analytics *analytics.Counter
	// Metrics counts requests and submissions; kept but not served when nil.
	Metrics *metrics.Metrics
	// ReadyChecks are the parts GET /readyz asks (the store, the change
	// feed); with none it always answers 200.
	ReadyChecks []ReadyCheck
}

// New returns the studio's handler: every route of routes.go behind the
// middleware chain of middleware.go.
func New(d Deps) http.Handler {
	if d.Logger == nil {
		d.Logger = slog.New(slog.DiscardHandler)
	}
	if d.Metrics == nil {
		d.Metrics = metrics.New(nil)
	}
	mux := http.NewServeMux()
	addRoutes(mux, d)
	return chain(mux, recoverPanics(d.Logger), observe(d.Logger, d.AccessLog, d.Metrics), securityHeaders(d.Functions.TrustedProxies))
}

// httpServer is the server Serve runs; inOneWrite works when it serves a
// gatheringListener.
func httpServer(h http.Handler, logger *slog.Logger) *http.Server {
	return &http.Server{
		Handler:           h,
		ConnContext:       withGatheringConn,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       120 * time.Second,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
}

// Options are what Serve may do besides plain HTTP on its listener.
type Options struct {
	// TLS makes Serve speak HTTPS (HTTP/2 and HTTP/1.1) on its listener.
	TLS *tls.Config
	// Sides are other plain-HTTP listeners, each with its own handler: the
	// redirect to HTTPS (and ACME's http-01 challenges), the metrics.
	Sides []Side
}

// Side is a plain-HTTP listener beside the main one.
type Side struct {
	Name     string // what it serves, for the log
	Listener net.Listener
	Handler  http.Handler
}

// Serve serves h on ln until ctx is done, then stops accepting connections and
// waits up to ShutdownTimeout for in-flight requests. It returns nil after a
// clean shutdown.
func Serve(ctx context.Context, ln net.Listener, h http.Handler, logger *slog.Logger, opts Options) error {
	srv := httpServer(h, logger)
	servers := []*http.Server{srv}
	errc := make(chan error, 1+len(opts.Sides))
	if opts.TLS != nil {
		srv.TLSConfig = opts.TLS
		go func() { errc <- srv.ServeTLS(ln, "", "") }()
		logger.Info("listening", "addr", ln.Addr().String(), "scheme", "https")
	} else {
		go func() { errc <- srv.Serve(gatheringListener{ln}) }()
		logger.Info("listening", "addr", ln.Addr().String())
	}
	for _, side := range opts.Sides {
		plain := &http.Server{Handler: side.Handler, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second,
			WriteTimeout: 30 * time.Second, IdleTimeout: 60 * time.Second, ErrorLog: srv.ErrorLog}
		servers = append(servers, plain)
		go func() { errc <- plain.Serve(side.Listener) }()
		logger.Info("listening", "addr", side.Listener.Addr().String(), "scheme", "http", "serves", side.Name)
	}

	select {
	case err := <-errc:
		for _, s := range servers {
			s.Close()
		}
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	logger.Info("shutting down", "timeout", ShutdownTimeout.String())
	shutdownCtx, cancel := context.WithTimeout(context.Background(), ShutdownTimeout)
	defer cancel()
	var shutdownErr error
	for _, s := range servers {
		if err := s.Shutdown(shutdownCtx); err != nil && shutdownErr == nil {
			shutdownErr = fmt.Errorf("shutdown: %w", err)
		}
	}
	for range servers {
		if err := <-errc; !errors.Is(err, http.ErrServerClosed) && shutdownErr == nil {
			shutdownErr = fmt.Errorf("serve: %w", err)
		}
	}
	if shutdownErr != nil {
		return shutdownErr
	}
	logger.Info("stopped")
	return nil
}
