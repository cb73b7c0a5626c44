package auth

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"studio/internal/api"
)

// apiError is an error answer of the service: GoTrue's status, error code
// and message.
type apiError struct {
	status int
	code   string
	msg    string
}

func (e *apiError) Error() string { return fmt.Sprintf("%d %s: %s", e.status, e.code, e.msg) }

func newError(status int, code, format string, args ...any) *apiError {
	return &apiError{status: status, code: code, msg: fmt.Sprintf(format, args...)}
}

// The codes of Authorize's refusals (AuthError.Code) that other services
// tell apart. Any other code is a token that does not verify or, with a 5xx
// status, a session that could not be checked.
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
	codeNotFound                 = "not_found"
	codeMethodNotAllowed         = "method_not_allowed"
	codeFlowStateNotFound        = "flow_state_not_found"
	codeFlowStateExpired         = "flow_state_expired"
	codeBadCodeVerifier          = "bad_code_verifier"
	codeReauthenticationNeeded   = "reauthentication_needed"
	codeReauthenticationNotValid = "reauthentication_not_valid"
	codeEmailExists              = "email_exists"
	codeSessionExpired           = "session_expired"

	codeMFAFactorNotFound         = "mfa_factor_not_found"
	codeMFAFactorNameConflict     = "mfa_factor_name_conflict"
	codeMFAChallengeExpired       = "mfa_challenge_expired"
	codeMFAVerificationFailed     = "mfa_verification_failed"
	codeMFAIPAddressMismatch      = "mfa_ip_address_mismatch"
	codeMFAPhoneEnrollDisabled    = "mfa_phone_enroll_not_enabled"
	codeMFAWebAuthnEnrollDisabled = "mfa_webauthn_enroll_not_enabled"
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

// writeError answers e in the format the request asks for: with
// X-Supabase-Api-Version 2024-01-01 or later, {code, message} and the header
// echoed; otherwise (no header, an older date, or one that is not a date)
// {code: status, error_code, msg}. Both carry x-sb-error-code.
func writeError(w http.ResponseWriter, r *http.Request, e *apiError) {
	h := w.Header()
	h.Set("x-sb-error-code", e.code)
	if newErrorFormat(r.Header.Get(apiVersionHeader)) {
		h.Set(apiVersionHeader, apiVersion20240101)
		api.WriteJSON(w, e.status, struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		}{e.code, e.msg})
		return
	}
	api.WriteJSON(w, e.status, struct {
		Code      int    `json:"code"`
		ErrorCode string `json:"error_code"`
		Msg       string `json:"msg"`
	}{e.status, e.code, e.msg})
}

func newErrorFormat(version string) bool {
	d, err := time.Parse("2006-01-02", version)
	return err == nil && !d.Before(time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC))
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v) // values decoded from JSON always encode
	return b
}
