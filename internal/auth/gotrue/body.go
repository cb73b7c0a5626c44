package gotrue

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"

	"studio/internal/api"
)

// Decode reads the JSON body of r into v: 413 when too large, 400 bad_json
// when it is not JSON of v's shape.
func Decode(w http.ResponseWriter, r *http.Request, v any) *Error {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, api.MaxBodyBytes))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return NewError(http.StatusRequestEntityTooLarge, CodeRequestTooLarge, "Request body too large (max %d bytes)", api.MaxBodyBytes)
		}
		return NewError(http.StatusBadRequest, CodeBadJSON, "Could not read the request body")
	}
	if len(strings.TrimSpace(string(body))) == 0 {
		body = []byte("{}")
	}
	if err := json.Unmarshal(body, v); err != nil {
		return NewError(http.StatusBadRequest, CodeBadJSON, "Could not parse request body as JSON: %v", err)
	}
	return nil
}

// DecodeBody is Decode that answers the error itself: false when it did.
func DecodeBody(w http.ResponseWriter, r *http.Request, v any) bool {
	if e := Decode(w, r, v); e != nil {
		WriteError(w, r, e)
		return false
	}
	return true
}

// CaptchaParams is the part of a body where the official client puts
// options.captchaToken; the bodies of /otp, /verify, /recover, /resend and
// /sso embed it.
type CaptchaParams struct {
	Security struct {
		CaptchaToken string `json:"captcha_token"`
	} `json:"gotrue_meta_security"`
}
