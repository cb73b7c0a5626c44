// Package server assembles the studio's HTTP handler (the site and the backend
// functions, behind the shared middleware) and runs it with graceful shutdown.
package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"studio/internal/auth"
	"studio/internal/contact"
	"studio/internal/signup"
)

// ShutdownTimeout bounds how long in-flight requests may take to finish after
// a shutdown signal.
const ShutdownTimeout = 10 * time.Second

// Deps are what the handler is built from.
type Deps struct {
	Site   http.Handler // the prerendered site, see package site
	Logger *slog.Logger
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
}

// New returns the studio's handler: every route of routes.go behind the
// middleware chain of middleware.go.
func New(d Deps) http.Handler {
	if d.Logger == nil {
		d.Logger = slog.New(slog.DiscardHandler)
	}
	mux := http.NewServeMux()
	addRoutes(mux, d)
	return chain(mux, recoverPanics(d.Logger), accessLog(d.Logger), securityHeaders)
}

// httpServer is the server Serve runs; it must serve a coalescingListener.
func httpServer(h http.Handler, logger *slog.Logger) *http.Server {
	return &http.Server{
		Handler:           holdWhileHandling(h), // with coalescingListener and withConn: see coalesce.go
		ConnContext:       withConn,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       120 * time.Second,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
}

// Serve serves h on ln until ctx is done, then stops accepting connections and
// waits up to ShutdownTimeout for in-flight requests. It returns nil after a
// clean shutdown.
func Serve(ctx context.Context, ln net.Listener, h http.Handler, logger *slog.Logger) error {
	srv := httpServer(h, logger)
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(coalescingListener{ln}) }()
	logger.Info("listening", "addr", ln.Addr().String())

	select {
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	logger.Info("shutting down", "timeout", ShutdownTimeout.String())
	shutdownCtx, cancel := context.WithTimeout(context.Background(), ShutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve: %w", err)
	}
	logger.Info("stopped")
	return nil
}
