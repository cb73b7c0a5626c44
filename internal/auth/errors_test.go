package auth_test

import (
	"errors"
	"fmt"
	"testing"

	"studio/internal/auth"
	"studio/internal/fault"
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
		{auth.ErrNotFound, fault.NotFound},
		{auth.ErrSessionNotFound, fault.NotFound},
		{auth.ErrRefreshTokenNotFound, fault.NotFound},
		{auth.ErrChallengeNotFound, fault.NotFound},
		{auth.ErrExists, fault.Conflict},
		{auth.ErrFactorNameConflict, fault.Conflict},
		{auth.ErrCodeInvalid, fault.Invalid},
		{auth.ErrEmailSendRateExceeded, fault.Internal},
		{auth.ErrRefreshTokenReused, fault.Internal},
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
