package fault_test

import (
	"errors"
	"fmt"
	"testing"

	"studio/internal/fault"
)

func TestKindOf(t *testing.T) {
	sentinel := fault.New(fault.NotFound, "no such user")
	tests := []struct {
		name string
		err  error
		want fault.Kind
	}{
		{"unmarked", errors.New("boom"), fault.Internal},
		{"marked", fault.Mark(fault.Conflict, errors.New("duplicate key")), fault.Conflict},
		{"marked, then wrapped", fmt.Errorf("insert: %w", fault.Mark(fault.Unavailable, errors.New("refused"))), fault.Unavailable},
		{"a sentinel, wrapped", fmt.Errorf("find: %w", sentinel), fault.NotFound},
		{"the outer mark wins", fault.Mark(fault.Invalid, fault.Mark(fault.Conflict, errors.New("x"))), fault.Invalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := fault.KindOf(tt.err); got != tt.want {
				t.Errorf("KindOf(%v) = %q, want %q", tt.err, got, tt.want)
			}
		})
	}
	if got := sentinel.Error(); got != "no such user" {
		t.Errorf("sentinel message = %q, want it without the kind", got)
	}
	if got := fault.Mark(fault.Unavailable, errors.New("dial tcp: refused")).Error(); got != "store unavailable: dial tcp: refused" {
		t.Errorf("marked message = %q", got)
	}
}
