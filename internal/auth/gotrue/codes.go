package gotrue

// The codes of a refused access token that Authorize tells apart (the
// session ended, or must reach aal2 first). Any other code is a token that does not verify or, with a 5xx
// status, a session that could not be checked (503: the store is
// unavailable; 500: a bug).
const (
	CodeInsufficientAAL = "insufficient_aal"  // the session must verify a second factor first (aal2)
	CodeSessionNotFound = "session_not_found" // signed out, or the user was removed
	CodeUserNotFound    = "user_not_found"
)

// The other GoTrue error codes that the service answers with.
const (
	CodeBadJSON                  = "bad_json"
	CodeBadJWT                   = "bad_jwt"
	CodeValidationFailed         = "validation_failed"
	CodeNoAuthorization          = "no_authorization"
	CodeOTPExpired               = "otp_expired"
	CodeOverEmailSendRateLimit   = "over_email_send_rate_limit"
	CodeOverRequestRateLimit     = "over_request_rate_limit"
	CodeRefreshTokenNotFound     = "refresh_token_not_found"
	CodeRefreshTokenAlreadyUsed  = "refresh_token_already_used"
	CodeInvalidCredentials       = "invalid_credentials"
	CodePhoneProviderDisabled    = "phone_provider_disabled"
	CodeRequestTooLarge          = "request_entity_too_large"
	CodeUnexpectedFailure        = "unexpected_failure"
	CodeRequestTimeout           = "request_timeout"
	CodeConflict                 = "conflict"
	CodeNotFound                 = "not_found"
	CodeMethodNotAllowed         = "method_not_allowed"
	CodeFlowStateNotFound        = "flow_state_not_found"
	CodeFlowStateExpired         = "flow_state_expired"
	CodeBadCodeVerifier          = "bad_code_verifier"
	CodeReauthenticationNeeded   = "reauthentication_needed"
	CodeReauthenticationNotValid = "reauthentication_not_valid"
	CodeEmailExists              = "email_exists"
	CodeSessionExpired           = "session_expired"
	CodeCaptchaFailed            = "captcha_failed"

	CodeSignupDisabled                 = "signup_disabled"
	CodeProviderEmailNeedsVerification = "provider_email_needs_verification"
	CodeIdentityAlreadyExists          = "identity_already_exists"
	CodeIdentityNotFound               = "identity_not_found"
	CodeSingleIdentityNotDeletable     = "single_identity_not_deletable"
	CodeSSOProviderNotFound            = "sso_provider_not_found"
	CodeProviderDisabled               = "provider_disabled"
	CodeBadOAuthState                  = "bad_oauth_state"
	CodeBadOAuthCallback               = "bad_oauth_callback"

	CodeSAMLRelayStateNotFound = "saml_relay_state_not_found"
	CodeSAMLRelayStateExpired  = "saml_relay_state_expired"
	CodeSAMLIdPNotFound        = "saml_idp_not_found"
	CodeSAMLAssertionNoUserID  = "saml_assertion_no_user_id"
	CodeSAMLAssertionNoEmail   = "saml_assertion_no_email"

	CodeOverSMSSendRateLimit = "over_sms_send_rate_limit"
	CodeSMSSendFailed        = "sms_send_failed"

	CodeMFAVerifiedFactorHeld     = "mfa_verified_factor_exists"
	CodeMFAFactorNotFound         = "mfa_factor_not_found"
	CodeMFAFactorNameConflict     = "mfa_factor_name_conflict"
	CodeMFAChallengeExpired       = "mfa_challenge_expired"
	CodeMFAVerificationFailed     = "mfa_verification_failed"
	CodeMFAIPAddressMismatch      = "mfa_ip_address_mismatch"
	CodeMFAPhoneEnrollDisabled    = "mfa_phone_enroll_not_enabled"
	CodeMFAWebAuthnEnrollDisabled = "mfa_webauthn_enroll_not_enabled"
	CodeMFAWebAuthnVerifyDisabled = "mfa_webauthn_verify_not_enabled"
	CodeTooManyEnrolledMFAFactors = "too_many_enrolled_mfa_factors"
)
