package rest

import (
	"context"
	"net/http"

	"studio/internal/api"
	"studio/internal/staff"
)

// authorize checks the request's staff access token at the gate. No token,
// or the public anon key in its place, is anonymous access, which reads
// nothing; the gate's refusals are answered by kind (faultError).
func (s *Service) authorize(r *http.Request) (staff.Member, *Error) {
	token := staff.StaffToken(r)
	if token == "" {
		return staff.Member{}, &Error{Code: codeAnonymous,
			Message: "Anonymous access is disabled", Hint: "Sign in as staff and send the access token as Authorization: Bearer"}
	}
	ctx, cancel := context.WithTimeout(r.Context(), api.StoreTimeout)
	defer cancel()
	member, err := s.gate.Authorize(ctx, token)
	if err != nil {
		return member, faultError(err)
	}
	return member, nil
}
