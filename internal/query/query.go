// Package query is what the console's data services share about the
// exposed tables (tables.go): their columns and types, a read or update of
// one of them as a Query whose identifiers all come from those tables and
// whose values are typed, the parser of PostgREST's query syntax that
// builds it (rest/v1's query string, realtime/v1's filters), and how a row
// reads in JSON and CSV. Package rest answers HTTP with it, package
// realtime filters changes with it, and package store turns it into SQL
// with parameters.
package query

// Query is a parsed read or update of one exposed table. Every identifier
// in it is one of the table's columns; every value is typed for its column
// (string, time.Time or bool), so a store builds SQL from the table's
// definition and passes the values as parameters.
type Query struct {
	Table  *Table
	Select []Column // the columns returned, in order
	Where  *Cond    // nil: every row
	Order  []Order  // then the table's key, ascending, for a stable order
	Limit  int      // -1: no limit
	Offset int
	Count  bool // also count every row that matches Where
}

// Operators of a leaf condition.
const (
	OpEq    = "eq"
	OpNeq   = "neq"
	OpGt    = "gt"
	OpGte   = "gte"
	OpLt    = "lt"
	OpLte   = "lte"
	OpLike  = "like"
	OpILike = "ilike"
	OpIs    = "is"
	OpIn    = "in"
	// OpAnd and OpOr join Cond.Conds.
	OpAnd = "and"
	OpOr  = "or"
)

// Cond is a condition: a leaf (Column Op Value) or a group (Op is OpAnd or
// OpOr over Conds), negated when Not.
type Cond struct {
	Op     string
	Not    bool
	Column Column
	// Value is the operand: string, time.Time or bool for the comparisons;
	// a Pattern for like and ilike; an IsValue for is; []any for in.
	Value any
	Conds []*Cond
}

// Pattern is a like or ilike pattern: literal text with wildcards.
type Pattern []PatternPart

// PatternPart is literal text, or a wildcard when Any or One is set.
type PatternPart struct {
	Literal string
	Any     bool // any run of characters (% or *)
	One     bool // one character (_)
}

// IsValue is the operand of is: null, true, false or unknown.
type IsValue string

// Values of is.
const (
	IsNull    IsValue = "null"
	IsTrue    IsValue = "true"
	IsFalse   IsValue = "false"
	IsUnknown IsValue = "unknown"
)

// Order is one sort key.
type Order struct {
	Column     Column
	Desc       bool
	NullsFirst bool // PostgreSQL's default: true for desc, false for asc
}

// Assignment is one column PATCH sets, to nil or a typed value.
type Assignment struct {
	Column Column
	Value  any
}

// Row is one row: the values of Query.Select, in order; nil, string,
// time.Time or bool.
type Row []any

// Result is what a read returns.
type Result struct {
	Rows  []Row
	Total int // with Query.Count: every row that matches
}
