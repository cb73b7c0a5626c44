package storage

import (
	"crypto/hmac"
	"crypto/sha256"
	"errors"
	"net/url"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// Signed URLs carry a token: a JWT (HS256) that names the object
// ("bucket/name") and expires, as Supabase's do. Download and upload tokens
// are signed with different keys, so that neither passes for the other.

// signedUploadExpiry is how long a signed upload URL may be used
// (Supabase's two hours).
const signedUploadExpiry = 2 * time.Hour

// tokenKeys are the keys of the two kinds of token.
type tokenKeys struct{ download, upload []byte }

func newTokenKeys(secret []byte) tokenKeys {
	derive := func(label string) []byte {
		m := hmac.New(sha256.New, secret)
		m.Write([]byte(label))
		return m.Sum(nil)
	}
	return tokenKeys{download: derive("storage signed download"), upload: derive("storage signed upload")}
}

// signedClaims are a token's claims: the object's "bucket/name", and, in an
// upload token, who asked for it and whether it may replace an object.
type signedClaims struct {
	URL    string `json:"url"`
	Owner  string `json:"owner,omitempty"`
	Upsert bool   `json:"upsert,omitempty"`
	jwt.RegisteredClaims
}

// sign returns the token of c, expiring at exp.
func (s *Service) sign(key []byte, c signedClaims, exp time.Time) string {
	now := s.cfg.Now()
	c.IssuedAt, c.ExpiresAt = jwt.NewNumericDate(now), jwt.NewNumericDate(exp)
	token, err := jwt.NewWithClaims(jwt.SigningMethodHS256, c).SignedString(key)
	if err != nil {
		panic(err) // HS256 with a key cannot fail
	}
	return token
}

// verify checks token, signed with key, for the object path ("bucket/name").
func (s *Service) verify(key []byte, token, path string) (signedClaims, *Error) {
	var c signedClaims
	if token == "" {
		return c, errInvalidJWT("jwt must be provided")
	}
	_, err := jwt.ParseWithClaims(token, &c, func(*jwt.Token) (any, error) { return key, nil },
		jwt.WithValidMethods([]string{"HS256"}), jwt.WithTimeFunc(s.cfg.Now), jwt.WithExpirationRequired())
	switch {
	case errors.Is(err, jwt.ErrTokenExpired):
		return c, errInvalidJWT("jwt expired")
	case err != nil:
		return c, errInvalidJWT("invalid signature")
	case c.URL != path:
		return c, refusal("400", "InvalidSignature", "InvalidSignature", "The url do not match the signature")
	}
	return c, nil
}

// signedPath is the path, after Prefix, of a signed URL: the object's path
// as given (supabase-js encodes the URL it builds of it) and the token.
func signedPath(route, path, token string) string {
	return route + path + "?token=" + url.QueryEscape(token)
}

// signURLBody is the body of a signed URL's creation.
type signURLBody struct {
	ExpiresIn *float64 `json:"expiresIn"`
	Paths     []string `json:"paths"`
}

// expiry checks expiresIn (seconds, at least 1) and returns the time it
// gives.
func (s *Service) expiry(body signURLBody) (time.Time, *Error) {
	if body.ExpiresIn == nil || *body.ExpiresIn < 1 || *body.ExpiresIn > 1e10 {
		return time.Time{}, errInvalidRequest("expiresIn must be a number of seconds, at least 1")
	}
	return s.cfg.Now().Add(time.Duration(*body.ExpiresIn * float64(time.Second))), nil
}

// signObjects answers POST /object/sign/{bucket} (signURLs) and
// /object/sign/{bucket}/{name} (signURL).
func (s *Service) signObjects(req *request, path string) *Error {
	if strings.Contains(path, "/") {
		return s.signURL(req, path)
	}
	return s.signURLs(req, path)
}

// signURL answers POST /object/sign/{bucket}/{name}, for staff:
// {signedURL}, for an object that exists.
func (s *Service) signURL(req *request, path string) *Error {
	var body signURLBody
	if e := decodeJSON(req.r, &body); e != nil {
		return e
	}
	exp, e := s.expiry(body)
	if e != nil {
		return e
	}
	o, e := s.staffObject(req, path)
	if e != nil {
		return e
	}
	full := o.BucketID + "/" + o.Name
	writeJSON(req.w, struct {
		SignedURL string `json:"signedURL"`
	}{signedPath("/object/sign/", full, s.sign(s.tokens.download, signedClaims{URL: full}, exp))})
	return nil
}

// signedURLJSON is one answer of a signing of several paths.
type signedURLJSON struct {
	Error     *string `json:"error"`
	Path      string  `json:"path"`
	SignedURL *string `json:"signedURL"`
}

// signURLs answers POST /object/sign/{bucket} {expiresIn, paths}, for
// staff: a signed URL, or an error, for each path.
func (s *Service) signURLs(req *request, bucket string) *Error {
	var body signURLBody
	if e := decodeJSON(req.r, &body); e != nil {
		return e
	}
	exp, e := s.expiry(body)
	if e != nil {
		return e
	}
	if len(body.Paths) == 0 || len(body.Paths) > 1000 {
		return errInvalidRequest("paths must name 1 to 1000 objects")
	}
	if req.staff == nil {
		return errNoSuchBucket()
	}
	if _, e := s.bucket(req, bucket); e != nil {
		return e
	}
	out := make([]signedURLJSON, len(body.Paths))
	for i, name := range body.Paths {
		out[i].Path = name
		if _, e := s.staffObject(req, bucket+"/"+name); e != nil {
			if e.Status >= 500 {
				return e
			}
			msg := "Either the object does not exist or you do not have access to it"
			out[i].Error = &msg
			continue
		}
		full := bucket + "/" + name
		u := signedPath("/object/sign/", full, s.sign(s.tokens.download, signedClaims{URL: full}, exp))
		out[i].SignedURL = &u
	}
	writeJSON(req.w, out)
	return nil
}

// downloadSigned answers GET /object/sign/{bucket}/{name}?token=…: the
// object, to anyone holding a token for it that has not expired.
func (s *Service) downloadSigned(req *request, path string) *Error {
	bucket, name, e := splitPath(path)
	if e != nil {
		return e
	}
	if _, e := s.verify(s.tokens.download, req.r.URL.Query().Get("token"), bucket+"/"+name); e != nil {
		return e
	}
	return s.serveObject(req, bucket, name)
}

// signUploadURL answers POST /object/upload/sign/{bucket}/{name}, for
// staff: {url, token}; x-upsert: true lets the upload replace an object.
func (s *Service) signUploadURL(req *request, path string) *Error {
	if req.staff == nil {
		return errRowLevelSecurity()
	}
	bucket, name, e := splitPath(path)
	if e != nil {
		return e
	}
	if _, e := s.bucket(req, bucket); e != nil {
		return e
	}
	full := bucket + "/" + name
	token := s.sign(s.tokens.upload, signedClaims{URL: full, Owner: req.owner(), Upsert: req.r.Header.Get("x-upsert") == "true"},
		s.cfg.Now().Add(signedUploadExpiry))
	writeJSON(req.w, struct {
		URL   string `json:"url"`
		Token string `json:"token"`
	}{signedPath("/object/upload/sign/", full, token), token})
	return nil
}

// uploadSigned answers PUT /object/upload/sign/{bucket}/{name}?token=…:
// an upload by anyone holding a token for it, as its signer.
func (s *Service) uploadSigned(req *request, path string) *Error {
	bucket, name, e := splitPath(path)
	if e != nil {
		return e
	}
	c, e := s.verify(s.tokens.upload, req.r.URL.Query().Get("token"), bucket+"/"+name)
	if e != nil {
		return e
	}
	return s.store1(req, bucket, name, c.Owner, c.Upsert)
}
