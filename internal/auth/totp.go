package auth

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha1"
	"crypto/subtle"
	"encoding/base32"
	"encoding/binary"
	"fmt"
	"net/url"
	"strings"
	"time"
)

// TOTP (RFC 6238) as GoTrue and authenticator apps use it: HMAC-SHA1, 6
// digits, 30 s steps, and one step of clock skew either way.
const (
	totpDigits = 6
	totpPeriod = 30
	totpSkew   = 1
	// totpSecretBytes is the secret's length: 160 bits, as GoTrue's.
	totpSecretBytes = 20
)

var totpEncoding = base32.StdEncoding.WithPadding(base32.NoPadding)

// newTOTPSecret returns a new secret in base32, as authenticator apps take it.
func newTOTPSecret() (string, error) {
	b := make([]byte, totpSecretBytes)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return totpEncoding.EncodeToString(b), nil
}

// totpStep is the time step of t.
func totpStep(t time.Time) int64 { return t.Unix() / totpPeriod }

// totpCode is the code of the base32 secret at time step step.
func totpCode(secret string, step int64) (string, error) {
	key, err := totpEncoding.DecodeString(strings.ToUpper(secret))
	if err != nil {
		return "", fmt.Errorf("TOTP secret: %w", err)
	}
	mac := hmac.New(sha1.New, key)
	_ = binary.Write(mac, binary.BigEndian, uint64(step))
	sum := mac.Sum(nil)
	off := sum[len(sum)-1] & 0x0f
	n := binary.BigEndian.Uint32(sum[off:off+4]) & 0x7fffffff
	return fmt.Sprintf("%0*d", totpDigits, n%1_000_000), nil
}

// totpMatch reports whether code is the secret's code within one step of
// now and of a step after lastStep (a code works once), and its step.
func totpMatch(secret, code string, now time.Time, lastStep int64) (int64, bool, error) {
	var matched int64
	ok := false
	// Every step is computed and compared, so the time taken does not tell
	// which step matched.
	for step := totpStep(now) - totpSkew; step <= totpStep(now)+totpSkew; step++ {
		want, err := totpCode(secret, step)
		if err != nil {
			return 0, false, err
		}
		if subtle.ConstantTimeCompare([]byte(want), []byte(code)) == 1 && step > lastStep && !ok {
			matched, ok = step, true
		}
	}
	return matched, ok, nil
}

// totpURI is the otpauth:// URI an authenticator app reads from the QR
// code, as GoTrue makes it.
func totpURI(issuer, account, secret string) string {
	q := url.Values{"secret": {secret}, "issuer": {issuer}, "period": {fmt.Sprint(totpPeriod)},
		"algorithm": {"SHA1"}, "digits": {fmt.Sprint(totpDigits)}}
	u := url.URL{Scheme: "otpauth", Host: "totp", Path: "/" + issuer + ":" + account, RawQuery: q.Encode()}
	return u.String()
}
