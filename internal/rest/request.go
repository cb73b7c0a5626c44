package rest

import (
	"net/http"
	"net/url"

	"studio/internal/query"
)

// parseRequest parses the query string of r, a request to t, and its
// Accept header. Unlike URL.Query, it refuses a query string it cannot
// parse (a raw semicolon, a bad escape) rather than drop the parameter,
// which would drop a filter.
func parseRequest(r *http.Request, t *query.Table) (q *query.Query, params url.Values, f format, stripNulls bool, e *Error) {
	if f, stripNulls, e = negotiate(r.Header.Get("Accept")); e != nil {
		return nil, nil, f, false, e
	}
	params, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		return nil, nil, f, false, errParse("failed to parse the query string", err.Error()+": percent-encode ; and %")
	}
	q, e = query.Parse(t, params)
	return q, params, f, stripNulls, e
}
