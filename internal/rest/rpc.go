package rest

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"time"

	"studio/internal/analytics"
	"studio/internal/api"
)

// The functions of /rest/v1/rpc/: what supabase-js's rpc(name, args) calls
// (POST with the arguments as a JSON object, or GET with them in the
// query when asked with {get: true}).
const rpcAnalyticsSummary = "analytics_summary"

// codeInvalidArgument is PostgreSQL's invalid_parameter_value, which a
// function raises for an argument it refuses.
const codeInvalidArgument = "22023"

// summaryArgs are analytics_summary's arguments.
type summaryArgs struct {
	Since    time.Time          `json:"since"`
	Until    time.Time          `json:"until"`
	Interval analytics.Interval `json:"interval"`
	Filters  analytics.Filters  `json:"filters"`
}

// handleRPC answers /rest/v1/rpc/{name}.
func (s *Service) handleRPC(w http.ResponseWriter, r *http.Request, name string) {
	if name != rpcAnalyticsSummary {
		writeError(w, &Error{Code: codeNoFunction,
			Message: "Could not find the function public." + name + " in the schema cache",
			Hint:    "The only function exposed is " + rpcAnalyticsSummary})
		return
	}
	var args summaryArgs
	switch r.Method {
	case http.MethodPost:
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, api.MaxBodyBytes))
		if err == nil {
			err = json.Unmarshal(body, &args)
		}
		if err != nil {
			writeError(w, &Error{Code: codeBody, Message: "The arguments are not a JSON object of since, until, interval and filters"})
			return
		}
	case http.MethodGet:
		q := r.URL.Query()
		var errs []error
		parse := func(field string, into *time.Time) {
			if v := q.Get(field); v != "" {
				t, err := time.Parse(time.RFC3339Nano, v)
				*into, errs = t, append(errs, err)
			}
		}
		parse("since", &args.Since)
		parse("until", &args.Until)
		args.Interval = analytics.Interval(q.Get("interval"))
		if err := errors.Join(errs...); err != nil {
			writeError(w, &Error{Code: codeInvalidArgument, Message: "since and until are times like 2026-11-28T00:00:00Z"})
			return
		}
	default:
		w.Header().Set("Allow", "GET, POST, OPTIONS")
		writeError(w, &Error{Code: codeMethod, Message: "Unsupported HTTP method: " + r.Method})
		return
	}
	if args.Interval == "" {
		args.Interval = analytics.Day
	}
	query := analytics.Query{Since: args.Since, Until: args.Until, Interval: args.Interval, Filters: args.Filters}
	if err := query.Check(); err != nil {
		writeError(w, &Error{Code: codeInvalidArgument, Message: err.Error()})
		return
	}
	sum, err := s.store.AnalyticsSummary(r.Context(), query)
	if err != nil {
		writeError(w, faultError(err))
		return
	}
	sum.Enabled = s.cfg.Analytics
	w.Header().Set("Cache-Control", "no-store")
	api.WriteJSON(w, http.StatusOK, sum)
}

// isRPC reports whether name, the path under Prefix, names a function.
func isRPC(name string) (string, bool) { return strings.CutPrefix(name, "rpc/") }
