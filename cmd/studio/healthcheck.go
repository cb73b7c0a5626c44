package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net/http"
	"time"
)

// healthcheckCommand asks a running server whether it is up: the container
// image has no curl, so its HEALTHCHECK runs the binary itself.
var healthcheckCommand = command{
	name:        "healthcheck",
	summary:     "exit 0 when the server at --url answers /healthz",
	description: "GETs --url (the server's /healthz) and exits 0 on 200, 1 otherwise. For container health checks.",
	setup: func(fs *flag.FlagSet, env func(string) string) action {
		var url string
		envString(fs, &url, "url", "STUDIO_HEALTHCHECK_URL", "http://127.0.0.1:8080/healthz", "the URL to ask", env)
		return func(ctx context.Context, fs *flag.FlagSet, stdout, stderr io.Writer) error {
			if err := noArgs(fs, stderr); err != nil {
				return err
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
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				return fmt.Errorf("%s answered %s", url, resp.Status)
			}
			return nil
		}
	},
}
