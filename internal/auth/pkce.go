package auth

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"net/http"

	"studio/internal/auth/federated"
	"studio/internal/auth/gotrue"
	"studio/internal/staff"
)

// PKCE (RFC 7636): a client that asks for a code with a code_challenge
// gets a link that carries an auth code (the link's token), which only the
// holder of the matching code_verifier can trade for a session
// (grant_type=pkce); /verify refuses it as a token_hash. The typed code of
// the same mail stays a valid way in: it is never in a URL.

// verifies reports whether verifier matches challenge by method, in
// constant time.
func verifies(verifier string) func(challenge, method string) bool {
	return func(challenge, method string) bool {
		want := verifier
		if method == "s256" {
			sum := sha256.Sum256([]byte(verifier))
			want = base64.RawURLEncoding.EncodeToString(sum[:])
		}
		return subtle.ConstantTimeCompare([]byte(want), []byte(challenge)) == 1
	}
}

// pkceParams is the body of grant_type=pkce.
type pkceParams struct {
	AuthCode     string `json:"auth_code"`
	CodeVerifier string `json:"code_verifier"`
}

// pkceGrant trades a link's auth code and the code verifier for a session.
func (s *Service) pkceGrant(w http.ResponseWriter, r *http.Request) {
	var p pkceParams
	if !gotrue.DecodeBody(w, r, &p) {
		return
	}
	if p.AuthCode == "" || p.CodeVerifier == "" {
		gotrue.WriteError(w, r, gotrue.NewError(http.StatusBadRequest, gotrue.CodeValidationFailed, "invalid request: both auth code and code verifier should be non-empty"))
		return
	}
	if !s.allow(w, r, s.limitVerify) {
		return
	}
	ctx, cancel := withStoreTimeout(r)
	defer cancel()
	now := s.cfg.Now()
	audit := s.audit(r, staff.ActionLoginFailed)
	audit.Detail = "pkce"
	userID, purpose, err := "", "", error(staff.ErrNotFound)
	if len(p.AuthCode) <= maxTokenLength && len(p.CodeVerifier) <= gotrue.MaxChallengeLength {
		userID, purpose, err = s.store.ConsumePKCE(ctx, staff.LinkHash(p.AuthCode), now, staff.MaxCodeTries, verifies(p.CodeVerifier), audit)
	}
	var e *gotrue.Error
	switch {
	case errors.Is(err, staff.ErrNotFound):
		e = gotrue.NewError(http.StatusNotFound, gotrue.CodeFlowStateNotFound, "invalid flow state, no valid flow state found")
	case errors.Is(err, staff.ErrFlowStateExpired):
		e = gotrue.NewError(http.StatusUnprocessableEntity, gotrue.CodeFlowStateExpired, "invalid flow state, flow state has expired")
	case errors.Is(err, staff.ErrBadCodeVerifier):
		e = gotrue.NewError(http.StatusBadRequest, gotrue.CodeBadCodeVerifier, "code challenge does not match previously saved code verifier")
	case err != nil:
		s.failed(w, r, "consume PKCE code", err)
		return
	}
	if e != nil {
		s.countSignIn(e.Code) // the store logged the failed try
		gotrue.WriteError(w, r, e)
		return
	}
	u, err := s.store.FindUserByID(ctx, userID)
	if errors.Is(err, staff.ErrNotFound) {
		gotrue.WriteError(w, r, gotrue.NewError(http.StatusNotFound, gotrue.CodeFlowStateNotFound, "invalid flow state, no valid flow state found"))
		return
	}
	if err != nil {
		s.failed(w, r, "find user", err)
		return
	}
	method := "magiclink"
	if purpose == federated.MethodSSO || purpose == federated.MethodOAuth { // the code of a federated sign-in
		method = purpose
	}
	s.startSession(w, r, u, method, audit)
}
