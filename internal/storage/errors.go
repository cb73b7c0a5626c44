package storage

import (
	"encoding/json"
	"errors"
	"net/http"
	"time"

	"studio/internal/api"
	"studio/internal/fault"
	"studio/internal/files"
)

// Error is an answer in Supabase Storage's shape: a body {statusCode, code,
// error, message}. As Supabase does, most refusals are HTTP 400 whose body's
// statusCode tells what they are ("404", "409", "413", …; supabase-js
// reports both); a failure of the server is 500, a store that cannot be
// reached 503 with Retry-After.
type Error struct {
	Status     int    // the HTTP status
	StatusCode string // the body's statusCode
	Code       string // Supabase's error code (NoSuchKey, …)
	Err        string // the body's error
	Message    string
	RetryAfter time.Duration // with 503
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

// refusal is a 400 answer whose body says statusCode.
func refusal(statusCode, code, errName, message string) *Error {
	return &Error{Status: http.StatusBadRequest, StatusCode: statusCode, Code: code, Err: errName, Message: message}
}

func errNoSuchBucket() *Error {
	return refusal("404", "NoSuchBucket", "Bucket not found", "Bucket not found")
}
func errNoSuchKey() *Error { return refusal("404", "NoSuchKey", "not_found", "Object not found") }
func errInvalidKey(name string) *Error {
	return refusal("400", "InvalidKey", "InvalidKey", "Invalid key: "+name)
}
func errInvalidBucketName() *Error {
	return refusal("400", "InvalidBucketName", "Invalid Input", "Bucket name invalid")
}
func errBucketExists() *Error {
	return refusal("409", "BucketAlreadyExists", "Duplicate", "The resource already exists")
}
func errKeyExists() *Error {
	return refusal("409", "KeyAlreadyExists", "Duplicate", "The resource already exists")
}
func errBucketNotEmpty() *Error {
	return refusal("409", "ResourceNotEmpty", "ResourceNotEmpty", "The bucket you tried to delete is not empty")
}
func errTooLarge() *Error {
	return refusal("413", "EntityTooLarge", "Payload too large", "The object exceeded the maximum allowed size")
}
func errMimeType(t string) *Error {
	return refusal("415", "InvalidMimeType", "invalid_mime_type", "mime type "+t+" is not supported")
}
func errInvalidRequest(message string) *Error {
	return refusal("400", "InvalidRequest", "InvalidRequest", message)
}
func errInvalidJWT(message string) *Error {
	return refusal("400", "InvalidJWT", "InvalidJWT", message)
}

// errRowLevelSecurity refuses a change to someone who is not staff, in the
// words Supabase uses when a row-level security policy refuses it.
func errRowLevelSecurity() *Error {
	return refusal("403", "AccessDenied", "Unauthorized", "new row violates row-level security policy")
}

// errAccessDenied refuses a token that does not verify or whose session
// ended.
func errAccessDenied(message string) *Error {
	return refusal("403", "AccessDenied", "Unauthorized", message)
}

func errInternal() *Error {
	return &Error{Status: http.StatusInternalServerError, StatusCode: "500", Code: "InternalError", Err: "Internal", Message: "Internal Server Error"}
}

func errUnavailable(wait time.Duration) *Error {
	return &Error{Status: http.StatusServiceUnavailable, StatusCode: "503", Code: "DatabaseTimeout", Err: "Service Unavailable",
		Message: "Could not reach the database, try again in a moment", RetryAfter: wait}
}

// storeError is the answer to an error of the store or of the staff gate:
// the store's refusals by name, the rest by kind (package fault). A token
// the gate refuses (Unauthenticated, Forbidden) is denied access, saying
// why.
func storeError(err error) *Error {
	switch {
	case errors.Is(err, files.ErrBucketNotFound):
		return errNoSuchBucket()
	case errors.Is(err, files.ErrObjectNotFound):
		return errNoSuchKey()
	case errors.Is(err, files.ErrBucketExists):
		return errBucketExists()
	case errors.Is(err, files.ErrObjectExists):
		return errKeyExists()
	case errors.Is(err, files.ErrBucketNotEmpty):
		return errBucketNotEmpty()
	}
	switch fault.KindOf(err) {
	case fault.Unavailable:
		return errUnavailable(api.StoreRetryAfterOf(err))
	case fault.Unauthenticated, fault.Forbidden:
		return errAccessDenied(err.Error())
	}
	return errInternal()
}

// writeError answers e, never cached.
func writeError(w http.ResponseWriter, e *Error) {
	h := w.Header()
	for _, k := range []string{"Content-Disposition", "Content-Range", "ETag", "Last-Modified", "Accept-Ranges"} {
		h.Del(k)
	}
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	if e.Status == http.StatusServiceUnavailable {
		api.SetRetryAfter(w, e.RetryAfter)
	}
	body, _ := json.Marshal(struct {
		StatusCode string `json:"statusCode"`
		Code       string `json:"code"`
		Error      string `json:"error"`
		Message    string `json:"message"`
	}{e.StatusCode, e.Code, e.Err, e.Message})
	w.WriteHeader(e.Status)
	_, _ = w.Write(body)
}
