package auth

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"studio/internal/api"
	"studio/internal/fault"
)

// AuthError is every error answer of the service, and why Authorize refused
// a token: an HTTP status, GoTrue's error code (the Code… constants are
// those another service may tell apart) and a message a person can read.
type AuthError struct {
	Status  int
	Code    string
	Message string
	// retryAfter, when set, is sent as Retry-After (a store that is
	// unavailable).
	retryAfter time.Duration
}

func (e *AuthError) Error() string { return e.Code + ": " + e.Message }

// RetryAfter is the wait e tells the client (an unavailable store's), zero
// when it tells none.
func (e *AuthError) RetryAfter() time.Duration { return e.retryAfter }

func newError(status int, code, format string, args ...any) *AuthError {
	return &AuthError{Status: status, Code: code, Message: fmt.Sprintf(format, args...)}
}

// The codes of Authorize's refusals (AuthError.Code) that other services
// tell apart. Any other code is a token that does not verify or, with a 5xx
// status, a session that could not be checked (503: the store is
// unavailable; 500: a bug).
const (
	CodeInsufficientAAL = "insufficient_aal"  // the session must verify a second factor first (aal2)
	CodeSessionNotFound = "session_not_found" // signed out, or the user was removed
	CodeUserNotFound    = "user_not_found"
)

// The other GoTrue error codes that this service answers with.
const (
	codeBadJSON                  = "bad_json"
	codeBadJWT                   = "bad_jwt"
	codeValidationFailed         = "validation_failed"
	codeNoAuthorization          = "no_authorization"
	codeOTPExpired               = "otp_expired"
	codeOverEmailSendRateLimit   = "over_email_send_rate_limit"
	codeOverRequestRateLimit     = "over_request_rate_limit"
	codeRefreshTokenNotFound     = "refresh_token_not_found"
	codeRefreshTokenAlreadyUsed  = "refresh_token_already_used"
	codeInvalidCredentials       = "invalid_credentials"
	codePhoneProviderDisabled    = "phone_provider_disabled"
	codeRequestTooLarge          = "request_entity_too_large"
	codeUnexpectedFailure        = "unexpected_failure"
	codeRequestTimeout           = "request_timeout"
	codeConflict                 = "conflict"
	codeNotFound                 = "not_found"
	codeMethodNotAllowed         = "method_not_allowed"
	codeFlowStateNotFound        = "flow_state_not_found"
	codeFlowStateExpired         = "flow_state_expired"
	codeBadCodeVerifier          = "bad_code_verifier"
	codeReauthenticationNeeded   = "reauthentication_needed"
	codeReauthenticationNotValid = "reauthentication_not_valid"
	codeEmailExists              = "email_exists"
	codeSessionExpired           = "session_expired"

	codeSignupDisabled                 = "signup_disabled"
	codeProviderEmailNeedsVerification = "provider_email_needs_verification"
	codeIdentityAlreadyExists          = "identity_already_exists"
	codeIdentityNotFound               = "identity_not_found"
	codeSingleIdentityNotDeletable     = "single_identity_not_deletable"
	codeSSOProviderNotFound            = "sso_provider_not_found"
	codeProviderDisabled               = "provider_disabled"
	codeBadOAuthState                  = "bad_oauth_state"
	codeBadOAuthCallback               = "bad_oauth_callback"

	codeSAMLRelayStateNotFound = "saml_relay_state_not_found"
	codeSAMLRelayStateExpired  = "saml_relay_state_expired"
	codeSAMLIdPNotFound        = "saml_idp_not_found"
	codeSAMLAssertionNoUserID  = "saml_assertion_no_user_id"
	codeSAMLAssertionNoEmail   = "saml_assertion_no_email"

	codeMFAFactorNotFound         = "mfa_factor_not_found"
	codeMFAFactorNameConflict     = "mfa_factor_name_conflict"
	codeMFAChallengeExpired       = "mfa_challenge_expired"
	codeMFAVerificationFailed     = "mfa_verification_failed"
	codeMFAIPAddressMismatch      = "mfa_ip_address_mismatch"
	codeMFAPhoneEnrollDisabled    = "mfa_phone_enroll_not_enabled"
	codeMFAWebAuthnEnrollDisabled = "mfa_webauthn_enroll_not_enabled"
	codeMFAWebAuthnVerifyDisabled = "mfa_webauthn_verify_not_enabled"
	codeTooManyEnrolledMFAFactors = "too_many_enrolled_mfa_factors"
)

// errPhoneNotOffered answers every request that names a phone: staff have
// none.
var errPhoneNotOffered = newError(http.StatusBadRequest, codePhoneProviderDisabled, "Phone sign-in is not offered: staff sign in with an e-mail code")

// apiVersionHeader is the header by which the client asks for the error
// format of a date; apiVersion20240101 is the one newer format there is.
const (
	apiVersionHeader   = "X-Supabase-Api-Version"
	apiVersion20240101 = "2024-01-01"
)

// kindError is GoTrue's answer to err, a failure of kind k (package fault)
// that no handler answers for what it is, most often the store's:
// Unavailable is 503 request_timeout with the Retry-After err tells
// (api.StoreRetryAfterOf: the client may try again);
// NotFound 404 not_found, Conflict 409 conflict, Invalid 400
// validation_failed; Internal 500 unexpected_failure, a message that tells
// nothing of the internals.
func kindError(k fault.Kind, err error) *AuthError {
	switch k {
	case fault.Unavailable:
		e := newError(http.StatusServiceUnavailable, codeRequestTimeout, "The service cannot reach its store, please retry in a moment")
		e.retryAfter = api.StoreRetryAfterOf(err)
		return e
	case fault.NotFound:
		return newError(http.StatusNotFound, codeNotFound, "Not found")
	case fault.Conflict:
		return newError(http.StatusConflict, codeConflict, "The change conflicts with what is stored")
	case fault.Invalid:
		return newError(http.StatusBadRequest, codeValidationFailed, "A value was refused")
	}
	return newError(http.StatusInternalServerError, codeUnexpectedFailure, "Unexpected failure, please try again")
}

// storeFailure logs err, the unexpected failure of op, and returns its
// answer (kindError): a bug (Internal) is logged as an error, an
// unavailable store at debug level (the store logs each outage once), the
// others as warnings. logArgs are more attributes for the log (the path).
func (s *Service) storeFailure(op string, err error, logArgs ...any) *AuthError {
	k := fault.KindOf(err)
	args := append([]any{"kind", string(k), "err", err}, logArgs...)
	switch k {
	case fault.Internal:
		s.cfg.Logger.Error("auth: "+op, args...)
	case fault.Unavailable:
		s.cfg.Logger.Debug("auth: "+op, args...)
	default:
		s.cfg.Logger.Warn("auth: "+op, args...)
	}
	return kindError(k, err)
}

// writeError answers e in the format the request asks for: with
// X-Supabase-Api-Version 2024-01-01 or later, {code, message} and the header
// echoed; otherwise (no header, an older date, or one that is not a date)
// {code: status, error_code, msg}. Both carry x-sb-error-code.
func writeError(w http.ResponseWriter, r *http.Request, e *AuthError) {
	h := w.Header()
	h.Set("x-sb-error-code", e.Code)
	if e.retryAfter > 0 {
		api.SetRetryAfter(w, e.retryAfter)
	}
	if newErrorFormat(r.Header.Get(apiVersionHeader)) {
		h.Set(apiVersionHeader, apiVersion20240101)
		api.WriteJSON(w, e.Status, struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		}{e.Code, e.Message})
		return
	}
	api.WriteJSON(w, e.Status, struct {
		Code      int    `json:"code"`
		ErrorCode string `json:"error_code"`
		Msg       string `json:"msg"`
	}{e.Status, e.Code, e.Message})
}

func newErrorFormat(version string) bool {
	d, err := time.Parse("2006-01-02", version)
	return err == nil && !d.Before(time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC))
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v) // values decoded from JSON always encode
	return b
}
