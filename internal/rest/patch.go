package rest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"slices"
	"strings"

	"studio/internal/api"
	"studio/internal/query"
	"studio/internal/staff"
)

// handlePatch handles PATCH /rest/v1/{table}?filters: sets the columns of
// the JSON body (only those marked Patch) on the rows the filters select,
// and answers them with Prefer: return=representation, else 204.
// handled_by may only be set to the caller's own address (or null): the
// console records who handled a message, and no one can sign for another.
func (s *Service) handlePatch(w http.ResponseWriter, r *http.Request, t *query.Table, member staff.Member) {
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/json" {
		writeErrorStatus(w, http.StatusUnsupportedMediaType, &Error{Code: codeMediaType,
			Message: fmt.Sprintf("Content-Type not acceptable: %s", r.Header.Get("Content-Type")), Hint: "Send application/json"})
		return
	}
	q, params, f, strip, err := parseRequest(r, t)
	if err == nil && f != formatJSON {
		err = &Error{Code: codeMediaType,
			Message: "None of these media types are available: " + r.Header.Get("Accept"), Hint: "PATCH answers application/json"}
	}
	if err != nil {
		writeError(w, err)
		return
	}
	switch {
	case params.Has("limit") || params.Has("offset") || params.Has("order"):
		writeError(w, errParse("limit, offset and order are not supported on PATCH", "select the rows to update with filters"))
		return
	case q.Where == nil:
		writeError(w, &Error{Code: codeNoWhere, Message: "UPDATE requires a WHERE clause",
			Hint: "Add a filter, like id=eq.…, to say which rows to update"})
		return
	}
	body, rerr := io.ReadAll(http.MaxBytesReader(nil, r.Body, api.MaxBodyBytes))
	if rerr != nil {
		writeErrorStatus(w, http.StatusRequestEntityTooLarge, &Error{Code: codeBody, Message: "The request body is too large"})
		return
	}
	set, err := decodePatch(body, t, member)
	if err != nil {
		writeError(w, err)
		return
	}
	prefer := parsePrefer(r.Header)
	var rows []query.Row
	if len(set) > 0 {
		ctx, cancel := context.WithTimeout(r.Context(), api.StoreTimeout)
		defer cancel()
		var serr error
		if rows, serr = s.store.Update(ctx, q, set); serr != nil {
			s.storeFailed(w, r, serr)
			return
		}
	}
	total := -1
	if prefer.count {
		total = len(rows)
	}
	h := w.Header()
	h.Set("Content-Range", contentRange(0, len(rows), total))
	h.Set("Cache-Control", "no-store")
	if !prefer.representation {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	h.Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(query.ArrayJSON(q.Select, rows, strip))
}

// decodePatch reads the body: one JSON object of the table's patchable
// columns and their new values.
func decodePatch(body []byte, t *query.Table, member staff.Member) ([]query.Assignment, *Error) {
	var fields map[string]any
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(&fields); err != nil || fields == nil || dec.More() {
		return nil, &Error{Code: codeBody, Message: "Empty or invalid json",
			Details: "The body must be one JSON object of the columns to set"}
	}
	names := make([]string, 0, len(fields))
	for k := range fields {
		names = append(names, k)
	}
	slices.Sort(names)
	var set []query.Assignment
	for _, name := range names {
		c, ok := t.Column(name)
		if !ok {
			return nil, &Error{Code: codeUnknownColumn,
				Message: fmt.Sprintf("Could not find the '%s' column of '%s' in the schema cache", name, t.Name)}
		}
		if !c.Patch {
			return nil, &Error{Code: codeInsufficientPriv,
				Message: fmt.Sprintf("permission denied for column %s of table %s", name, t.Name),
				Details: "PATCH may set only " + patchable(t)}
		}
		v, err := query.JSONValue(t, c, fields[name])
		if err != nil {
			return nil, err
		}
		if c.Name == "handled_by" && v != nil && !strings.EqualFold(v.(string), member.Email) {
			return nil, &Error{Code: codeInsufficientPriv,
				Message: "handled_by may only be set to your own e-mail address (or null)",
				Details: "You are signed in as " + member.Email}
		}
		set = append(set, query.Assignment{Column: c, Value: v})
	}
	return set, nil
}

// patchable lists the columns of t that PATCH may set.
func patchable(t *query.Table) string {
	var names []string
	for _, c := range t.Columns {
		if c.Patch {
			names = append(names, c.Name)
		}
	}
	if len(names) == 0 {
		return "nothing: this table is read-only"
	}
	return strings.Join(names, ", ")
}
