// Package fault names the kinds of failure that every layer of the studio
// tells apart, so that one classification serves every protocol: the store
// classifies its engine's errors into kinds (package store, one function per
// engine), and each protocol answers each kind in its own wire format in
// one function (GoTrue JSON in auth, PostgREST JSON in rest, the functions'
// JSON and problem pages in server). Decision 0014 says which failure is
// which kind.
//
// A Kind is an error: an error is marked with its kind by wrapping the kind
// (Mark, or fmt.Errorf with %w), and its kind is read with KindOf or
// errors.Is(err, fault.Conflict).
package fault

import (
	"errors"
	"fmt"
	"time"
)

// Kind is a kind of failure.
type Kind string

// Error is the kind's name; a Kind is an error so that errors wrap it.
func (k Kind) Error() string { return string(k) }

// The kinds. An error marked with none of them is Internal.
const (
	// Unavailable: the store cannot do the work now, through no fault of
	// the request or of the code: it cannot be reached, it timed out, it
	// is busy or out of resources (disk full, I/O error). The same request
	// may succeed later: answered 503 with Retry-After.
	Unavailable Kind = "store unavailable"
	// NotFound: what the request names does not exist.
	NotFound Kind = "not found"
	// Conflict: the change collides with what is stored (a unique or a
	// foreign key constraint).
	Conflict Kind = "conflict"
	// Invalid: a value the store refuses (a check or not-null constraint, a
	// value of the wrong type): bad input that got past the decoder.
	Invalid Kind = "invalid"
	// Unauthenticated: the request does not say which member of staff asks
	// (no token, one that does not verify, or whose session ended): the
	// client must sign in again.
	Unauthenticated Kind = "unauthenticated"
	// Forbidden: the member of staff is known but may not do this yet (a
	// session that must first reach aal2).
	Forbidden Kind = "forbidden"
	// Internal: anything else, a bug. Logged with its context and answered
	// with a generic message that tells nothing of the internals.
	Internal Kind = "internal error"
)

// KindOf is the kind err is marked with (the outermost mark when there are
// several), Internal when it has none. err must not be nil.
func KindOf(err error) Kind {
	var k Kind
	if errors.As(err, &k) {
		return k
	}
	return Internal
}

// Mark returns err marked as of kind k, its message kept after the kind's:
// "store unavailable: dial tcp …: connection refused".
func Mark(k Kind, err error) error { return fmt.Errorf("%w: %w", k, err) }

// New returns an error of kind k whose message is msg (not prefixed with
// the kind): a sentinel that classifies, such as staff.ErrNotFound.
func New(k Kind, msg string) error { return &sentinel{kind: k, msg: msg} }

type sentinel struct {
	kind Kind
	msg  string
}

func (e *sentinel) Error() string { return e.msg }
func (e *sentinel) Unwrap() error { return e.kind }

// WithRetryAfter returns err telling when the same request may succeed:
// after wait (the store's circuit breaker says it). err's kind is kept.
func WithRetryAfter(err error, wait time.Duration) error {
	return &retryAfter{err: err, wait: wait}
}

// RetryAfter is the wait err tells (WithRetryAfter), if it tells one.
func RetryAfter(err error) (time.Duration, bool) {
	var r *retryAfter
	if errors.As(err, &r) {
		return r.wait, true
	}
	return 0, false
}

type retryAfter struct {
	err  error
	wait time.Duration
}

func (e *retryAfter) Error() string { return e.err.Error() }
func (e *retryAfter) Unwrap() error { return e.err }
