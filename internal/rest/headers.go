package rest

import (
	"fmt"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"studio/internal/query"
)

// format is a representation the service answers in.
type format int

const (
	formatJSON   format = iota // a JSON array of objects
	formatObject               // one JSON object: application/vnd.pgrst.object+json (.single())
	formatCSV                  // text/csv with a header row
)

// negotiate picks the first media type of Accept the service offers.
func negotiate(accept string) (f format, stripNulls bool, err *Error) {
	if strings.TrimSpace(accept) == "" {
		return formatJSON, false, nil
	}
	for _, item := range strings.Split(accept, ",") {
		mt, params, perr := mime.ParseMediaType(strings.TrimSpace(item))
		if perr != nil {
			continue
		}
		strip := params["nulls"] == "stripped"
		switch mt {
		case "*/*", "application/*", "application/json", "application/vnd.pgrst.array+json":
			return formatJSON, strip, nil
		case "application/vnd.pgrst.object+json":
			return formatObject, strip, nil
		case "text/csv":
			return formatCSV, false, nil
		}
	}
	return 0, false, &Error{Code: codeMediaType,
		Message: fmt.Sprintf("None of these media types are available: %s", accept),
		Hint:    "Offered: application/json, application/vnd.pgrst.object+json, text/csv"}
}

// preferences are the Prefer header's settings this service acts on.
type preferences struct {
	count          bool // count=exact (planned and estimated count exactly too)
	representation bool // return=representation
}

func parsePrefer(h http.Header) preferences {
	var p preferences
	for _, v := range h.Values("Prefer") {
		for _, item := range strings.Split(v, ",") {
			k, val, _ := strings.Cut(strings.TrimSpace(item), "=")
			switch k {
			case "count":
				p.count = val == "exact" || val == "planned" || val == "estimated"
			case "return":
				p.representation = val == "representation"
			}
		}
	}
	return p
}

// applyRange narrows q to the Range header (Range-Unit items): the rows
// both it and limit/offset ask for. A Range header that does not parse is
// ignored, as HTTP says.
func applyRange(q *query.Query, h http.Header) *Error {
	v := h.Get("Range")
	if v == "" || (h.Get("Range-Unit") != "" && h.Get("Range-Unit") != "items") {
		return nil
	}
	lo, hi, ok := strings.Cut(strings.TrimPrefix(v, "items="), "-")
	from, err := strconv.Atoi(lo)
	if !ok || err != nil || from < 0 {
		return nil
	}
	to := -1
	if hi != "" {
		if to, err = strconv.Atoi(hi); err != nil {
			return nil
		}
		if to < from {
			return &Error{Code: codeRange,
				Message: "Requested range not satisfiable", Details: "The lower boundary must be lower than or equal to the upper boundary in the Range header."}
		}
	}
	// Intersect [from, to] with [offset, offset+limit-1].
	start := max(from, q.Offset)
	end := to
	if q.Limit >= 0 && (end < 0 || q.Offset+q.Limit-1 < end) {
		end = q.Offset + q.Limit - 1
	}
	q.Offset = start
	switch {
	case end < 0 && to < 0 && q.Limit < 0:
		q.Limit = -1
	case end < start:
		q.Limit = 0
	default:
		q.Limit = end - start + 1
	}
	return nil
}

// contentRange is the Content-Range of n rows from offset, of total (-1:
// not counted).
func contentRange(offset, n, total int) string {
	t := "*"
	if total >= 0 {
		t = strconv.Itoa(total)
	}
	if n == 0 {
		return "*/" + t
	}
	return fmt.Sprintf("%d-%d/%s", offset, offset+n-1, t)
}
