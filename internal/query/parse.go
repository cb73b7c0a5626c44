package query

import (
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// reservedParams are the query parameters that are not column filters.
var reservedParams = []string{"select", "order", "limit", "offset", "or", "and", "not.or", "not.and", "columns", "on_conflict"}

// Parse reads the parameters of a request to table t: select, the filters
// (every other parameter, and the logic trees of or/and), order, limit and
// offset. Every error is a 4xx.
func Parse(t *Table, params url.Values) (*Query, *Error) {
	q := &Query{Table: t, Limit: -1}
	var err *Error
	if q.Select, err = parseSelect(t, params.Get("select")); err != nil {
		return nil, err
	}
	if q.Where, err = parseFilters(t, params); err != nil {
		return nil, err
	}
	if err = checkSize(q.Where, 1, new(int)); err != nil {
		return nil, err
	}
	if q.Order, err = parseOrder(t, params.Get("order")); err != nil {
		return nil, err
	}
	if v := params.Get("limit"); v != "" {
		if q.Limit, err = parseCount("limit", v); err != nil {
			return nil, err
		}
	}
	if v := params.Get("offset"); v != "" {
		if q.Offset, err = parseCount("offset", v); err != nil {
			return nil, err
		}
	}
	return q, nil
}

func parseCount(name, v string) (int, *Error) {
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return 0, errParse(fmt.Sprintf("failed to parse %s parameter (%s)", name, v), "want a whole number, 0 or more")
	}
	return n, nil
}

// parseSelect reads select=: * or a list of the table's columns.
func parseSelect(t *Table, s string) ([]Column, *Error) {
	if s == "" || s == "*" {
		return t.Columns, nil
	}
	var out []Column
	items := strings.Split(s, ",")
	if len(items) > maxSelect {
		return nil, errParse("failed to parse select parameter", fmt.Sprintf("at most %d columns", maxSelect))
	}
	for _, item := range items {
		name := unquoteIdent(item)
		switch {
		case name == "*":
			out = append(out, t.Columns...)
			continue
		case strings.Contains(item, "("):
			rel, _, _ := strings.Cut(item, "(")
			return nil, &Error{Code: codeEmbed,
				Message: fmt.Sprintf("Could not find a relationship between '%s' and '%s' in the schema cache", t.Name, rel),
				Hint:    "The exposed tables have no relationships to embed"}
		case strings.ContainsAny(item, ":-") || name == "":
			return nil, errParse(fmt.Sprintf("failed to parse select parameter (%s)", s),
				"only column names are supported: no renaming, casts, JSON paths or aggregates")
		}
		c, ok := t.Column(name)
		if !ok {
			return nil, errNoColumn(t, name)
		}
		out = append(out, c)
	}
	return out, nil
}

// unquoteIdent removes the double quotes around an identifier.
func unquoteIdent(s string) string {
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		return s[1 : len(s)-1]
	}
	return s
}

// parseFilters reads the column filters and the logic trees, all joined by
// and; nil when there are none. Parameters are read in name order so that
// one request always gives the same SQL.
func parseFilters(t *Table, params url.Values) (*Cond, *Error) {
	var conds []*Cond
	keys := make([]string, 0, len(params))
	for k := range params {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		for _, v := range params[k] {
			var c *Cond
			var err *Error
			switch k {
			case "or", "and", "not.or", "not.and":
				c, err = parseLogic(t, k, v)
			default:
				if slices.Contains(reservedParams, k) {
					continue
				}
				c, err = parseColumnFilter(t, k, v, false)
			}
			if err != nil {
				return nil, err
			}
			conds = append(conds, c)
		}
	}
	switch len(conds) {
	case 0:
		return nil, nil
	case 1:
		return conds[0], nil
	}
	return &Cond{Op: OpAnd, Conds: conds}, nil
}

// parseColumnFilter reads one filter on the column called name:
// [not.]op.value. In a logic tree (inLogic), a value may be double-quoted.
func parseColumnFilter(t *Table, name, expr string, inLogic bool) (*Cond, *Error) {
	if strings.Contains(name, "->") || strings.Contains(name, ".") {
		return nil, errParse(fmt.Sprintf("failed to parse filter (%s)", expr),
			fmt.Sprintf("%q: JSON paths and embedded tables are not supported", name))
	}
	col, ok := t.Column(unquoteIdent(name))
	if !ok {
		return nil, errNoColumn(t, name)
	}
	if !utf8.ValidString(expr) || strings.ContainsRune(expr, 0) {
		return nil, &Error{Code: codeBadEncoding,
			Message: `invalid byte sequence for encoding "UTF8"`, Details: "A filter value is not UTF-8 text, or holds a NUL character"}
	}
	c := &Cond{Column: col}
	rest, not := strings.CutPrefix(expr, "not.")
	c.Not = not
	op, value, ok := strings.Cut(rest, ".")
	if !ok {
		return nil, errParse(fmt.Sprintf("failed to parse filter (%s)", expr), "want operator.value, like eq.42")
	}
	if inLogic && op != OpIn {
		value = unquoteValue(value)
	}
	var err *Error
	switch op {
	case OpEq, OpNeq, OpGt, OpGte, OpLt, OpLte:
		c.Op = op
		c.Value, err = literal(col, value)
	case OpLike, OpILike:
		if col.Type != Text {
			return nil, &Error{Code: CodeNoOperator,
				Message: fmt.Sprintf("operator does not exist: %s %s unknown", typeName(col.Type), map[string]string{OpLike: "~~", OpILike: "~~*"}[op]),
				Hint:    "like and ilike apply to text columns"}
		}
		c.Op, c.Value = op, parsePattern(value)
	case OpIs:
		c.Op = OpIs
		c.Value, err = parseIs(col, expr, value)
	case OpIn:
		c.Op = OpIn
		c.Value, err = parseIn(col, expr, value)
	default:
		return nil, errParse(fmt.Sprintf("failed to parse filter (%s)", expr),
			fmt.Sprintf("unsupported operator %q: use eq, neq, gt, gte, lt, lte, like, ilike, is or in", op))
	}
	if err != nil {
		return nil, err
	}
	return c, nil
}

// Limits of a query's conditions: the databases refuse (or take long over)
// queries far smaller than a URL can be, and those are bad requests too.
const (
	maxConditions = 100  // leaf conditions
	maxDepth      = 8    // nested and/or groups
	maxListItems  = 1000 // values of one in list
	maxPattern    = 1000 // characters of one like pattern
	maxSelect     = 50   // items of select (the engines refuse a few thousand)
	maxOrder      = 10   // sort keys (SQLite refuses 64)
)

// checkSize refuses conditions beyond the limits; leaves counts them.
func checkSize(c *Cond, depth int, leaves *int) *Error {
	if c == nil {
		return nil
	}
	tooBig := func(what string) *Error {
		return errParse("the filters are too large", what)
	}
	switch {
	case depth > maxDepth:
		return tooBig(fmt.Sprintf("at most %d levels of nested and/or", maxDepth))
	case c.Op == OpIn && len(c.Value.([]any)) > maxListItems:
		return tooBig(fmt.Sprintf("at most %d values in one in list", maxListItems))
	case c.Op == OpLike || c.Op == OpILike:
		n := 0
		for _, p := range c.Value.(Pattern) {
			n += utf8.RuneCountInString(p.Literal) + 1
		}
		if n > maxPattern {
			return tooBig(fmt.Sprintf("at most %d characters in one pattern", maxPattern))
		}
	}
	if c.Op != OpAnd && c.Op != OpOr {
		if *leaves++; *leaves > maxConditions {
			return tooBig(fmt.Sprintf("at most %d conditions", maxConditions))
		}
		return nil
	}
	for _, sub := range c.Conds {
		if err := checkSize(sub, depth+1, leaves); err != nil {
			return err
		}
	}
	return nil
}

func parseIs(col Column, expr, value string) (IsValue, *Error) {
	v := IsValue(strings.ToLower(value))
	switch v {
	case IsNull:
		return v, nil
	case IsTrue, IsFalse, IsUnknown:
		if col.Type != Bool {
			return "", &Error{Code: codeWrongType,
				Message: fmt.Sprintf("argument of IS %s must be type boolean, not type %s", strings.ToUpper(string(v)), typeName(col.Type))}
		}
		return v, nil
	}
	return "", errParse(fmt.Sprintf("failed to parse filter (%s)", expr), "is takes null, true, false or unknown")
}

// parseIn reads the list of in: (a,b,"c,d").
func parseIn(col Column, expr, value string) ([]any, *Error) {
	if len(value) < 2 || value[0] != '(' || value[len(value)-1] != ')' {
		return nil, errParse(fmt.Sprintf("failed to parse filter (%s)", expr), "in takes a list in parentheses, like in.(1,2,3)")
	}
	items, err := splitTop(value[1:len(value)-1], expr)
	if err != nil {
		return nil, err
	}
	out := []any{}
	for _, it := range items {
		if it == "" && len(items) == 1 {
			break // in.() matches nothing
		}
		v, err := literal(col, unquoteValue(it))
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// parsePattern reads a like pattern: * and % match any run of characters,
// _ one character, and a backslash makes the next character literal.
func parsePattern(s string) Pattern {
	var p Pattern
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			p = append(p, PatternPart{Literal: lit.String()})
			lit.Reset()
		}
	}
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		switch r := rs[i]; {
		case r == '\\' && i+1 < len(rs):
			i++
			lit.WriteRune(rs[i])
		case r == '*' || r == '%':
			flush()
			p = append(p, PatternPart{Any: true})
		case r == '_':
			flush()
			p = append(p, PatternPart{One: true})
		default:
			lit.WriteRune(r)
		}
	}
	flush()
	return p
}

// parseLogic reads a logic tree: or=(f1,f2,and(f3,f4)), and the not. forms.
func parseLogic(t *Table, key, value string) (*Cond, *Error) {
	op, not := strings.CutPrefix(key, "not.")
	return parseGroup(t, op, not, value, key+"="+value, 1)
}

func parseGroup(t *Table, op string, not bool, value, expr string, depth int) (*Cond, *Error) {
	if depth > maxDepth { // checked here too: a deep tree must not recurse as deep
		return nil, errParse("the filters are too large", fmt.Sprintf("at most %d levels of nested and/or", maxDepth))
	}
	if len(value) < 2 || value[0] != '(' || value[len(value)-1] != ')' {
		return nil, errParse(fmt.Sprintf("failed to parse logic tree (%s)", expr), "want a list of filters in parentheses, like or=(a.eq.1,b.eq.2)")
	}
	items, err := splitTop(value[1:len(value)-1], expr)
	if err != nil {
		return nil, err
	}
	g := &Cond{Op: op, Not: not}
	for _, it := range items {
		inner, innerNot := strings.CutPrefix(it, "not.")
		var c *Cond
		switch {
		case strings.HasPrefix(inner, "and("), strings.HasPrefix(inner, "or("):
			sub, rest, _ := strings.Cut(inner, "(")
			c, err = parseGroup(t, sub, innerNot, "("+rest, expr, depth+1)
		default:
			name, filter, ok := strings.Cut(it, ".")
			if !ok {
				return nil, errParse(fmt.Sprintf("failed to parse logic tree (%s)", expr), fmt.Sprintf("%q: want column.operator.value", it))
			}
			c, err = parseColumnFilter(t, name, filter, true)
		}
		if err != nil {
			return nil, err
		}
		g.Conds = append(g.Conds, c)
	}
	return g, nil
}

// splitTop splits s at the commas outside parentheses and double quotes.
func splitTop(s, expr string) ([]string, *Error) {
	var out []string
	depth, quoted, start := 0, false, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case quoted && c == '\\':
			i++
		case c == '"':
			quoted = !quoted
		case quoted:
		case c == '(':
			depth++
		case c == ')':
			depth--
			if depth < 0 {
				return nil, errParse(fmt.Sprintf("failed to parse (%s)", expr), "unbalanced parentheses")
			}
		case c == ',' && depth == 0:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	if depth != 0 || quoted {
		return nil, errParse(fmt.Sprintf("failed to parse (%s)", expr), "unbalanced parentheses or quotes")
	}
	return append(out, s[start:]), nil
}

// unquoteValue removes the double quotes around a value and its backslash
// escapes.
func unquoteValue(s string) string {
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
		return s
	}
	var b strings.Builder
	for i := 1; i < len(s)-1; i++ {
		if s[i] == '\\' && i+1 < len(s)-1 {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// parseOrder reads order=col[.asc|.desc][.nullsfirst|.nullslast],…
func parseOrder(t *Table, s string) ([]Order, *Error) {
	if s == "" {
		return nil, nil
	}
	var out []Order
	terms := strings.Split(s, ",")
	if len(terms) > maxOrder {
		return nil, errParse(fmt.Sprintf("failed to parse order (%s)", s), fmt.Sprintf("at most %d sort keys", maxOrder))
	}
	for _, term := range terms {
		parts := strings.Split(term, ".")
		col, ok := t.Column(unquoteIdent(parts[0]))
		if !ok {
			return nil, errNoColumn(t, parts[0])
		}
		o := Order{Column: col}
		nulls := ""
		for i, p := range parts[1:] {
			switch {
			case i == 0 && (p == "asc" || p == "desc"):
				o.Desc = p == "desc"
			case nulls == "" && (p == "nullsfirst" || p == "nullslast"):
				nulls = p
			default:
				return nil, errParse(fmt.Sprintf("failed to parse order (%s)", s),
					"want column[.asc|.desc][.nullsfirst|.nullslast]")
			}
		}
		o.NullsFirst = o.Desc // PostgreSQL's default
		if nulls != "" {
			o.NullsFirst = nulls == "nullsfirst"
		}
		out = append(out, o)
	}
	return out, nil
}
