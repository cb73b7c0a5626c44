package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"time"

	"studio/internal/server"
	"studio/internal/site"
	"studio/web"
)

var serveCommand = command{
	name:    "serve",
	summary: "serve the web site and the backend functions",
	description: "Serves the web site and the backend functions until SIGINT or SIGTERM,\n" +
		"then stops accepting connections, finishes in-flight requests (at most 10 s) and exits 0.",
	setup: func(fs *flag.FlagSet, env func(string) string) action {
		var cfg serveConfig
		envString(fs, &cfg.addr, "addr", "STUDIO_ADDR", ":8080", "address to listen on, host:port", env)
		envString(fs, &cfg.data, "data", "STUDIO_DATA", "./data", "directory for local state (the SQLite store)", env)
		envString(fs, &cfg.siteURL, "site-url", "STUDIO_SITE_URL", site.BuildOrigin, "public origin of the site, for canonical links, share tags, feeds and the sitemap", env)
		return func(ctx context.Context, fs *flag.FlagSet, stdout, stderr io.Writer) error {
			if err := noArgs(fs, stderr); err != nil {
				return err
			}
			return serve(ctx, cfg, stdout)
		}
	},
}

// serveConfig is the configuration of "studio serve".
type serveConfig struct {
	addr    string
	data    string
	siteURL string
}

func serve(ctx context.Context, cfg serveConfig, logOut io.Writer) error {
	logs := newLogWriter(logOut, 250*time.Millisecond)
	defer logs.Close()
	logger := slog.New(slog.NewJSONHandler(logs, nil))
	if err := os.MkdirAll(cfg.data, 0o750); err != nil {
		return fmt.Errorf("data directory: %w", err)
	}
	origin, err := site.ParseOrigin(cfg.siteURL)
	if err != nil {
		return err
	}
	s, err := site.New(web.Site(), site.Options{Origin: origin})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", cfg.addr)
	if err != nil {
		return err
	}
	return server.Serve(ctx, ln, server.New(server.Deps{Site: s, Logger: logger}), logger)
}
