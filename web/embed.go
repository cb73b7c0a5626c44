// Package web holds the React front end; this file embeds its production
// build so the studio binary alone is the deployment. Build the site first
// (make build); without web/build/client this package does not compile.
package web

import (
	"embed"
	"io/fs"
)

//go:embed all:build/client
var build embed.FS

// Site returns the built client: prerendered pages, hashed assets, public files.
func Site() fs.FS {
	sub, err := fs.Sub(build, "build/client")
	if err != nil {
		panic(err) // unreachable: the directory is embedded above
	}
	return sub
}
