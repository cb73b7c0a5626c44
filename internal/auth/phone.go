package auth

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/google/uuid"

	"studio/internal/api"
	"studio/internal/auth/gotrue"
	"studio/internal/staff"
)

// Phone codes: a member of staff with a phone (studio staff add --phone)
// asks POST /otp {phone, channel} for a 6-digit code by SMS or WhatsApp and
// signs in with POST /verify {phone, token, type: sms}; a phone second
// factor's challenge sends a code too. The codes are the e-mail codes'
// (auth_one_time_codes of PurposeSMS: hashed, single use, MaxCodeTries
// tries, --otp-expiry) and so is the per-recipient send limit (the store's
// ClaimEmailSend, keyed by PhoneHash).

// SMSSender sends a text message (sms.Twilio is one).
type SMSSender interface {
	// Send sends body to the number to (E.164 digits) by channel (sms or
	// whatsapp) and returns the provider's id of the message.
	Send(ctx context.Context, to, channel, body string) (string, error)
}

// SMSInterval is the least time between two codes sent to one number
// (GoTrue's default sms_max_frequency).
const SMSInterval = 60 * time.Second

// The channels a code goes by.
const (
	ChannelSMS      = "sms"
	ChannelWhatsApp = "whatsapp"
)

// amrPhoneFactor is the amr entry of a session raised by a phone factor (GoTrue's name).
const amrPhoneFactor = "mfa/phone"

// e164 is GoTrue's check of a phone number once formatted: E.164 digits.
var e164 = regexp.MustCompile(`^[1-9]\d{1,14}$`)

// NormalizePhone checks a phone number in E.164 (+ and up to 15 digits;
// spaces, dashes and parentheses are dropped) and returns its digits
// without the "+", as GoTrue keeps them.
func NormalizePhone(s string) (string, error) {
	digits := strings.NewReplacer(" ", "", "-", "", "(", "", ")", "").Replace(strings.TrimSpace(s))
	digits = strings.TrimPrefix(digits, "+")
	if !e164.MatchString(digits) {
		return "", fmt.Errorf("%q is not a phone number in E.164 format (+ and up to 15 digits)", s)
	}
	return digits, nil
}

var errInvalidPhone = gotrue.NewError(http.StatusBadRequest, gotrue.CodeValidationFailed, "Invalid phone number format (E.164 required)")

// phoneParams checks a request's phone and channel; with SMS off, or a bad
// number or channel, it answers and returns false.
func (s *Service) phoneParams(w http.ResponseWriter, r *http.Request, phone, channel string) (string, string, bool) {
	if s.cfg.SMS == nil {
		gotrue.WriteError(w, r, errPhoneNotOffered)
		return "", "", false
	}
	switch channel {
	case "":
		channel = ChannelSMS
	case ChannelSMS, ChannelWhatsApp:
	default:
		gotrue.WriteError(w, r, gotrue.NewError(http.StatusBadRequest, gotrue.CodeValidationFailed, "Invalid channel, supported values are 'sms' or 'whatsapp'"))
		return "", "", false
	}
	phone, err := NormalizePhone(phone)
	if err != nil {
		gotrue.WriteError(w, r, errInvalidPhone)
		return "", "", false
	}
	return phone, channel, true
}

// messageIDAnswer is the answer of /otp and /resend for a phone.
type messageIDAnswer struct {
	MessageID string `json:"message_id"`
}

// sendPhoneCode answers a request for a code of purpose sent to phone: 429
// over_sms_send_rate_limit when one was asked for less than SMSInterval
// ago, staff's number or not; else 200 {message_id} at once, the same for
// anyone (the id is this server's, logged with the provider's). Only then,
// in the background, does it look the number up and, when it is staff's
// (and purpose is not empty), store a code and send it.
func (s *Service) sendPhoneCode(w http.ResponseWriter, r *http.Request, phone, channel, purpose string) {
	if !s.claimPhoneSend(w, r, phone) {
		return
	}
	messageID := uuid.NewString()
	api.WriteJSON(w, http.StatusOK, messageIDAnswer{MessageID: messageID})
	if purpose == "" {
		return
	}
	audit := s.audit(r, staff.ActionCodeIssued)
	s.inBackground(r, func(ctx context.Context) {
		u, err := s.store.FindUserByPhone(ctx, phone)
		switch {
		case errors.Is(err, staff.ErrNotFound):
			return
		case err != nil:
			s.cfg.Logger.Error("auth: find user to send a code", "err", err)
			return
		}
		plain, _, code, err := staff.NewCode(u.ID, purpose, s.cfg.Now(), s.cfg.OTPExpiry)
		if err == nil {
			audit.Email, audit.UserID, audit.Detail = u.Email, u.ID, purpose+" by "+channel
			err = s.store.CreateCode(ctx, code, audit)
		}
		if err != nil {
			s.cfg.Logger.Error("auth: store a code to send", "user_id", u.ID, "err", err)
			return
		}
		body := fmt.Sprintf("Your sign-in code for %s is %s. It works once and expires in %d minutes.",
			s.siteHost(), plain, int(s.cfg.OTPExpiry/time.Minute))
		s.sendMessage(ctx, u.ID, messageID, phone, channel, body)
	})
}

// sendMessage sends body and logs the outcome under messageID (never the
// number nor the body).
func (s *Service) sendMessage(ctx context.Context, userID, messageID, phone, channel, body string) error {
	sid, err := s.cfg.SMS.Send(ctx, phone, channel, body)
	if err != nil {
		s.cfg.Logger.Error("auth: send a code", "user_id", userID, "message_id", messageID, "channel", channel, "err", err)
		return err
	}
	s.cfg.Logger.Info("auth: code sent", "user_id", userID, "message_id", messageID, "channel", channel, "provider_id", sid)
	return nil
}

// claimPhoneSend records a code sent to phone now, or answers 429 (or 500)
// and returns false.
func (s *Service) claimPhoneSend(w http.ResponseWriter, r *http.Request, phone string) bool {
	ctx, cancel := withStoreTimeout(r)
	defer cancel()
	retry, err := s.store.ClaimEmailSend(ctx, staff.PhoneHash(phone), s.cfg.Now(), SMSInterval, nil, nil, staff.AuditEntry{})
	switch {
	case errors.Is(err, staff.ErrEmailSendRateExceeded):
		seconds := api.SetRetryAfter(w, retry)
		gotrue.WriteError(w, r, gotrue.NewError(http.StatusTooManyRequests, gotrue.CodeOverSMSSendRateLimit,
			"For security purposes, you can only request this after %d seconds.", seconds))
		return false
	case err != nil:
		s.failed(w, r, "claim SMS send", err)
		return false
	}
	return true
}

// siteHost is the site's host name, for the messages.
func (s *Service) siteHost() string {
	if u, err := url.Parse(s.cfg.SiteOrigin); err == nil && u.Host != "" {
		return u.Host
	}
	return s.cfg.SiteOrigin
}

// handleOTPPhone handles POST /otp {phone, channel}.
func (s *Service) handleOTPPhone(w http.ResponseWriter, r *http.Request, p otpParams) {
	phone, channel, ok := s.phoneParams(w, r, p.Phone, p.Channel)
	if !ok || !s.allow(w, r, s.limitOTP) || !s.checkCaptcha(w, r, p.Security.CaptchaToken) {
		return
	}
	s.sendPhoneCode(w, r, phone, channel, staff.PurposeSMS)
}

// handleResendPhone handles POST /resend {type: sms|phone_change, phone}:
// sms sends a fresh sign-in code as /otp does; there is no pending phone
// change, so phone_change answers alike and sends nothing.
func (s *Service) handleResendPhone(w http.ResponseWriter, r *http.Request, p resendParams) {
	if p.Email != "" {
		gotrue.WriteError(w, r, gotrue.NewError(http.StatusBadRequest, gotrue.CodeValidationFailed, "Only an email address or phone number should be provided."))
		return
	}
	phone, channel, ok := s.phoneParams(w, r, p.Phone, "")
	if !ok || !s.allow(w, r, s.limitOTP) || !s.checkCaptcha(w, r, p.Security.CaptchaToken) {
		return
	}
	purpose := staff.PurposeSMS
	if p.Type == "phone_change" {
		purpose = ""
	}
	s.sendPhoneCode(w, r, phone, channel, purpose)
}

// handleVerifyPhone handles POST /verify {phone, token, type: sms}: signs in
// with a code sent by SMS (amr otp). Like a typed e-mail code: a wrong,
// expired or used code, or a number that is not staff's, is 403
// otp_expired no sooner than FailedCodeFloor; every try counts, and the
// fifth kills the code. Wrong codes count against the person with the
// e-mail codes' (codelock.go).
func (s *Service) handleVerifyPhone(w http.ResponseWriter, r *http.Request, p verifyParams) {
	switch {
	case s.cfg.SMS == nil:
		gotrue.WriteError(w, r, errPhoneNotOffered)
		return
	case p.Type != "sms":
		gotrue.WriteError(w, r, gotrue.NewError(http.StatusBadRequest, gotrue.CodeValidationFailed, "Unsupported verification type"))
		return
	case p.Token == "" || p.Phone == "" || p.TokenHash != "" || p.Email != "":
		gotrue.WriteError(w, r, gotrue.NewError(http.StatusBadRequest, gotrue.CodeValidationFailed, "Verify of type sms requires a phone number and a token"))
		return
	}
	phone, err := NormalizePhone(p.Phone)
	if err != nil {
		gotrue.WriteError(w, r, errInvalidPhone)
		return
	}
	if !s.allow(w, r, s.limitVerify) || !s.checkCaptcha(w, r, p.Security.CaptchaToken) {
		return
	}
	started := time.Now()
	ctx, cancel := withStoreTimeout(r)
	defer cancel()
	audit := s.audit(r, staff.ActionLoginFailed)
	audit.Detail = "sms"
	signIn := audit
	signIn.Detail = ""
	start, refresh, err := s.newSignIn("otp", signIn)
	if err != nil {
		s.failed(w, r, "new refresh token", err)
		return
	}
	// The code is used, and the session started, in one transaction.
	u, err := s.store.ConsumeCodeByPhone(ctx, phone, staff.PurposeSMS, s.cfg.Now(), staff.MaxCodeTries, codeMatches(p.Token), s.codeFailure(audit), &start)
	if err != nil {
		s.waitFloor(r, started)
	}
	if s.verifyFailed(w, r, err, "Token has expired or is invalid") {
		return
	}
	s.answerSignIn(w, r, u, start, refresh)
}

// phoneEnrollAnswer is the answer of POST /factors for a phone.
type phoneEnrollAnswer struct {
	ID           string `json:"id"`
	Type         string `json:"type"`
	FriendlyName string `json:"friendly_name"`
	Phone        string `json:"phone"`
}

// enrollPhone handles POST /factors {factor_type: phone, phone}: a new,
// unverified phone factor, verified by the first code a challenge of it
// sends. A number may be the verified factor of a user once.
func (s *Service) enrollPhone(w http.ResponseWriter, r *http.Request, c caller, p enrollParams) {
	if s.cfg.SMS == nil {
		gotrue.WriteError(w, r, gotrue.NewError(http.StatusUnprocessableEntity, gotrue.CodeMFAPhoneEnrollDisabled, "MFA enroll is disabled for Phone"))
		return
	}
	phone, err := NormalizePhone(p.Phone)
	if err != nil {
		gotrue.WriteError(w, r, errInvalidPhone)
		return
	}
	if !validFactorText(p.FriendlyName) {
		gotrue.WriteError(w, r, gotrue.NewError(http.StatusBadRequest, gotrue.CodeValidationFailed, "friendly_name must be text of at most %d characters", maxFactorText))
		return
	}
	now := s.cfg.Now()
	f := staff.Factor{ID: uuid.NewString(), UserID: c.user.ID, FriendlyName: p.FriendlyName, FactorType: staff.FactorPhone,
		Status: staff.FactorUnverified, CreatedAt: now, UpdatedAt: now, Phone: phone}
	check := func(existing []staff.Factor) error {
		for _, e := range existing {
			if e.FactorType == staff.FactorPhone && e.Phone == phone && e.Verified() {
				return errPhoneFactorExists
			}
		}
		return newFactorCheck(f.FriendlyName, c.session)(existing)
	}
	s.createFactor(w, r, c, f, check, phoneEnrollAnswer{ID: f.ID, Type: staff.FactorPhone, FriendlyName: f.FriendlyName, Phone: phone})
}

var errPhoneFactorExists = errors.New("a verified phone factor has this number")

// challengePhone stores ch, a challenge of the phone factor f, with the
// hash of a new code, sends the code by channel and answers the challenge.
// The number's send limit is the sign-in codes': 429
// over_sms_send_rate_limit within SMSInterval of the last code.
func (s *Service) challengePhone(w http.ResponseWriter, r *http.Request, f staff.Factor, ch staff.Challenge, channel string) {
	phone, channel, ok := s.phoneParams(w, r, f.Phone, channel)
	if !ok {
		return
	}
	plain, err := staff.NewCodeDigits()
	if err != nil {
		s.failed(w, r, "new code", err)
		return
	}
	ch.CodeHash = staff.ChallengeCodeHash(ch.ID, plain)
	if !s.claimPhoneSend(w, r, phone) {
		return
	}
	ctx, cancel := withStoreTimeout(r)
	defer cancel()
	switch err := s.store.CreateChallenge(ctx, ch, staff.AuditEntry{}); {
	case errors.Is(err, staff.ErrNotFound):
		gotrue.WriteError(w, r, gotrue.NewError(http.StatusNotFound, gotrue.CodeMFAFactorNotFound, "Factor not found"))
		return
	case err != nil:
		s.failed(w, r, "create challenge", err)
		return
	}
	body := fmt.Sprintf("Your second-factor code for %s is %s. It works once and expires in %d minutes.",
		s.siteHost(), plain, int(s.cfg.MFAChallengeExpiry/time.Minute))
	if err := s.sendMessage(ctx, f.UserID, ch.ID, phone, channel, body); err != nil {
		gotrue.WriteError(w, r, gotrue.NewError(http.StatusInternalServerError, gotrue.CodeSMSSendFailed, "Error sending the code: try again"))
		return
	}
	api.WriteJSON(w, http.StatusOK, challengeAnswer{ID: ch.ID, Type: staff.FactorPhone, ExpiresAt: ch.ExpiresAt.Unix()})
}

// sentCodeMatches is FactorVerification.SentCode for a typed code:
// compared in constant time with the challenge's.
func sentCodeMatches(code string) func(staff.Challenge) bool {
	return func(c staff.Challenge) bool {
		return len(code) <= maxTokenLength && subtle.ConstantTimeCompare([]byte(staff.ChallengeCodeHash(c.ID, code)), []byte(c.CodeHash)) == 1
	}
}

// factorAMR is the amr method a verified factor of type t adds to a
// session, and codeName how its codes are named in errors.
func factorAMR(t string) (method, codeName string) {
	if t == staff.FactorPhone {
		return amrPhoneFactor, "MFA Phone"
	}
	return staff.FactorTOTP, "TOTP"
}
