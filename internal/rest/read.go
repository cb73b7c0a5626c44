package rest

import (
	"bytes"
	"context"
	"fmt"
	"net/http"

	"studio/internal/api"
	"studio/internal/query"
)

// handleRead handles GET and HEAD /rest/v1/{table}: the rows the query
// selects, as JSON, one JSON object (.single()) or CSV, with Content-Range
// (and the total with Prefer: count=exact).
func (s *Service) handleRead(w http.ResponseWriter, r *http.Request, t *query.Table) {
	q, params, f, strip, err := parseRequest(r, t)
	if err != nil {
		writeError(w, err)
		return
	}
	if err := applyRange(q, r.Header); err != nil {
		writeError(w, err)
		return
	}
	if sel := params.Get("select"); f == formatCSV && (sel == "" || sel == "*") {
		q.Select = exportColumns(t)
	}
	q.Count = parsePrefer(r.Header).count
	ctx, cancel := context.WithTimeout(r.Context(), api.StoreTimeout)
	defer cancel()
	res, serr := s.store.Select(ctx, q)
	if serr != nil {
		s.storeFailed(w, r, serr)
		return
	}
	total := -1
	if q.Count {
		total = res.Total
	}
	status := http.StatusOK
	if q.Count {
		switch {
		case q.Offset > total:
			writeError(w, &Error{Code: codeRange,
				Message: "Requested range not satisfiable",
				Details: fmt.Sprintf("An offset of %d was requested, but there are only %d rows.", q.Offset, total)})
			return
		case len(res.Rows) < total:
			status = http.StatusPartialContent
		}
	}
	var body []byte
	h := w.Header()
	switch f {
	case formatJSON:
		h.Set("Content-Type", "application/json; charset=utf-8")
		body = query.ArrayJSON(q.Select, res.Rows, strip)
	case formatObject:
		if len(res.Rows) != 1 {
			writeError(w, &Error{Code: codeSingular,
				Message: "JSON object requested, multiple (or no) rows returned",
				Details: fmt.Sprintf("The result contains %d rows", len(res.Rows))})
			return
		}
		h.Set("Content-Type", "application/vnd.pgrst.object+json; charset=utf-8")
		body = query.ObjectJSON(q.Select, res.Rows[0], strip)
	case formatCSV:
		h.Set("Content-Type", "text/csv; charset=utf-8")
		var b bytes.Buffer
		_ = query.WriteCSV(&b, q.Select, res.Rows) // a bytes.Buffer does not fail
		body = b.Bytes()
	}
	h.Set("Content-Range", contentRange(q.Offset, len(res.Rows), total))
	h.Set("Cache-Control", "no-store")
	if r.Method == http.MethodHead {
		w.WriteHeader(status)
		return
	}
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// exportColumns are the columns of t's CSV export.
func exportColumns(t *query.Table) []query.Column {
	out := make([]query.Column, len(t.Export))
	for i, name := range t.Export {
		out[i], _ = t.Column(name)
	}
	return out
}
