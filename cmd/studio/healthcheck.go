package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"net/http"
	neturl "net/url"
	"time"
)

// healthcheckCommand asks a running server whether it is up: the container
// image has no curl, so its HEALTHCHECK runs the binary itself.
var healthcheckCommand = command{
	name:    "healthcheck",
	summary: "exit 0 when the server at --url answers /healthz (or, with --ready, /readyz)",
	description: "GETs --url (the server's /healthz: the process answers) and exits 0 on 200, 1 otherwise. " +
		"For container health checks. With --ready it asks /readyz at the same server instead: " +
		"200 only while the server can commit to its store and, on PostgreSQL, hears the other servers' changes.",
	setup: func(fs *flag.FlagSet, env func(string) string) action {
		var url string
		var ready bool
		envString(fs, &url, "url", "STUDIO_HEALTHCHECK_URL", "http://127.0.0.1:8080/healthz", "the URL to ask", env)
		fs.BoolVar(&ready, "ready", false, "ask the readiness check, /readyz, at --url's server")
		return func(ctx context.Context, fs *flag.FlagSet, stdout, stderr io.Writer) error {
			if err := noArgs(fs, stderr); err != nil {
				return err
			}
			if ready {
				u, err := neturl.Parse(url)
				if err != nil {
					return fmt.Errorf("--url: %w", err)
				}
				u.Path, u.RawQuery = "/readyz", ""
				url = u.String()
			}
			ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
			defer cancel()
			req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
			if err != nil {
				return err
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				return err
			}
			defer resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				// /readyz's body names the part that is down.
				body, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
				return fmt.Errorf("%s answered %s %s", url, resp.Status, bytes.TrimSpace(body))
			}
			return nil
		}
	},
}
