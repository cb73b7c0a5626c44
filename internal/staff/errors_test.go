package staff_test

import (
	"errors"
	"fmt"
	"testing"

	"studio/internal/fault"
	"studio/internal/staff"
)

// TestStoreErrorsHaveKinds: the store's refusals that name a kind of
// failure are of that kind (decision 0014), wrapped or not, and still
// match themselves; the refusals of policy are of none (their handlers
// answer them).
func TestStoreErrorsHaveKinds(t *testing.T) {
	tests := []struct {
		err  error
		want fault.Kind
	}{
		{staff.ErrNotFound, fault.NotFound},
		{staff.ErrSessionNotFound, fault.NotFound},
		{staff.ErrRefreshTokenNotFound, fault.NotFound},
		{staff.ErrChallengeNotFound, fault.NotFound},
		{staff.ErrExists, fault.Conflict},
		{staff.ErrFactorNameConflict, fault.Conflict},
		{staff.ErrCodeInvalid, fault.Invalid},
		{staff.ErrEmailSendRateExceeded, fault.Internal},
		{staff.ErrRefreshTokenReused, fault.Internal},
	}
	for _, tt := range tests {
		t.Run(tt.err.Error(), func(t *testing.T) {
			wrapped := fmt.Errorf("remove user ada@studio.test: %w", tt.err)
			if got := fault.KindOf(wrapped); got != tt.want {
				t.Errorf("kind = %q, want %q", got, tt.want)
			}
			if !errors.Is(wrapped, tt.err) {
				t.Errorf("errors.Is(%v, itself) = false", wrapped)
			}
		})
	}
}
