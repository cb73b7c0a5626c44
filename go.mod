module studio

go 1.26.0

// The web front end's npm packages are not Go code.
ignore ./web/node_modules

require (
	github.com/andybalholm/brotli v1.2.8 // indirect
	github.com/google/go-cmp v0.7.0 // indirect
	golang.org/x/net v0.62.0 // indirect
)
