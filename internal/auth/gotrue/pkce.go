package gotrue

import (
	"net/http"
	"strings"
)

// MaxChallengeLength bounds a code_challenge or code_verifier (RFC 7636:
// 43 to 128 characters).
const MaxChallengeLength = 128

// PKCEMethod checks the code_challenge and code_challenge_method of a
// request that starts a sign-in and returns the method as stored (s256 or
// plain; "" without PKCE), or GoTrue's 400.
func PKCEMethod(challenge, method string) (string, *Error) {
	method = strings.ToLower(method)
	switch {
	case challenge == "" && method == "":
		return "", nil
	case challenge == "" || method == "":
		return "", NewError(http.StatusBadRequest, CodeValidationFailed, "PKCE flow requires code_challenge and code_challenge_method")
	case method != "s256" && method != "plain":
		return "", NewError(http.StatusBadRequest, CodeValidationFailed, "code challenge method not supported")
	case len(challenge) > MaxChallengeLength:
		return "", NewError(http.StatusBadRequest, CodeValidationFailed, "code challenge has to be at most %d characters", MaxChallengeLength)
	}
	return method, nil
}
