package auth

import (
	"net/http"

	"studio/internal/auth/gotrue"
	"studio/internal/staff"
)

// recoverParams is the body of POST /recover.
type recoverParams struct {
	Email               string `json:"email"`
	CodeChallenge       string `json:"code_challenge"`
	CodeChallengeMethod string `json:"code_challenge_method"`
	gotrue.CaptchaParams
}

// handleRecover handles POST /auth/v1/recover (the client's
// resetPasswordForEmail): mails a recovery code and link. Verifying it with
// type recovery signs in, and the client emits PASSWORD_RECOVERY. Staff
// have no password, so recovery is a way back in, answered as /otp is.
func (s *Service) handleRecover(w http.ResponseWriter, r *http.Request) {
	var p recoverParams
	if !gotrue.DecodeBody(w, r, &p) {
		return
	}
	if p.Email == "" {
		gotrue.WriteError(w, r, gotrue.NewError(http.StatusUnprocessableEntity, gotrue.CodeValidationFailed, "Password recovery requires an email"))
		return
	}
	email, e := normalizeEmail(p.Email)
	if e != nil {
		gotrue.WriteError(w, r, e)
		return
	}
	method, e := gotrue.PKCEMethod(p.CodeChallenge, p.CodeChallengeMethod)
	if e != nil {
		gotrue.WriteError(w, r, e)
		return
	}
	if !s.allow(w, r, s.limitOTP) || !s.checkCaptcha(w, r, p.Security.CaptchaToken) {
		return
	}
	s.mailCode(w, r, email, staff.PurposeRecovery, p.CodeChallenge, method)
}

// resendParams is the body of POST /resend.
type resendParams struct {
	Type  string `json:"type"`
	Email string `json:"email"`
	Phone string `json:"phone"`
	gotrue.CaptchaParams
}

// handleResend handles POST /auth/v1/resend {email, type}. There are no
// sign-ups to confirm, so type signup mails a sign-in code as /otp does
// (a new member of staff confirms the address by signing in); there is no
// pending e-mail change yet, so email_change answers 200 {} and sends
// nothing. Phone types are handleResendPhone's.
func (s *Service) handleResend(w http.ResponseWriter, r *http.Request) {
	var p resendParams
	if !gotrue.DecodeBody(w, r, &p) {
		return
	}
	switch p.Type {
	case "signup", "email_change":
	case "sms", "phone_change":
		s.handleResendPhone(w, r, p)
		return
	default:
		gotrue.WriteError(w, r, gotrue.NewError(http.StatusBadRequest, gotrue.CodeValidationFailed, "Missing one of these types: signup, email_change, sms, phone_change"))
		return
	}
	if p.Phone != "" {
		gotrue.WriteError(w, r, gotrue.NewError(http.StatusBadRequest, gotrue.CodeValidationFailed, "Only an email address or phone number should be provided."))
		return
	}
	email, e := normalizeEmail(p.Email)
	if e != nil {
		gotrue.WriteError(w, r, e)
		return
	}
	if !s.allow(w, r, s.limitOTP) || !s.checkCaptcha(w, r, p.Security.CaptchaToken) {
		return
	}
	purpose := staff.PurposeSignIn
	if p.Type == "email_change" {
		purpose = "" // nothing to resend: mailCode sends nothing for it
	}
	s.mailCode(w, r, email, purpose, "", "")
}
