package auth

import (
	"encoding/json"
	"net/http"

	"studio/internal/auth/gotrue"
)

// errPhoneNotOffered answers every request that names a phone: staff have
// none.
var errPhoneNotOffered = gotrue.NewError(http.StatusBadRequest, gotrue.CodePhoneProviderDisabled, "Phone sign-in is not offered: staff sign in with an e-mail code")

// storeFailure logs err, the unexpected failure of op, and returns its
// answer (gotrue.Failure). logArgs are more attributes for the log (the
// path).
func (s *Service) storeFailure(op string, err error, logArgs ...any) *gotrue.Error {
	return gotrue.Failure(s.cfg.Logger, op, err, logArgs...)
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v) // values decoded from JSON always encode
	return b
}
