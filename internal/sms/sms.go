// Package sms sends text messages through a Messages endpoint in Twilio's
// shape (the one GoTrue uses; any compatible gateway works): a form POST of
// To, From (or MessagingServiceSid) and Body to the endpoint, with the
// account's id and token as Basic auth, answered with the message's sid.
package sms

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Channels a message goes by.
const (
	ChannelSMS      = "sms"
	ChannelWhatsApp = "whatsapp"
)

// sendTimeout bounds one message's request.
const sendTimeout = 15 * time.Second

// retryWaits are the waits before the second and third attempts of a
// message the gateway could not take (no answer, 429 or 5xx), all within
// the caller's context: a sign-in code is worth sending for seconds, not
// minutes. A longer Retry-After of the gateway's, up to maxRetryAfter,
// counts instead.
var retryWaits = []time.Duration{time.Second, 4 * time.Second}

const maxRetryAfter = 10 * time.Second

// Twilio sends messages with the endpoint of one account. Its String never
// shows the credentials.
type Twilio struct {
	endpoint       string // the URL without its user information
	user, password string
	from           string
	client         *http.Client
	waits          []time.Duration // retryWaits; shorter in tests
}

// NewTwilio parses the endpoint's URL, whose user information is the
// account's id and token (https://SID:TOKEN@api.twilio.com/2010-04-01/Accounts/SID/Messages.json),
// and the sender: a number (+E.164) or a messaging service's id (MG…). A
// nil client means one with a 15 s timeout. The errors never quote the
// password.
func NewTwilio(rawURL, from string, client *http.Client) (*Twilio, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, errors.New("not a URL") // url's error quotes the URL, password included
	}
	if (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return nil, fmt.Errorf("want an http(s) URL, not scheme %q", u.Scheme)
	}
	if u.User == nil || u.User.Username() == "" {
		return nil, errors.New("want the account's id and token as the URL's user and password")
	}
	password, _ := u.User.Password()
	if from == "" {
		return nil, errors.New("a sender (--sms-from: a number or a messaging service id) is needed")
	}
	if client == nil {
		client = &http.Client{Timeout: sendTimeout}
	}
	t := &Twilio{user: u.User.Username(), password: password, from: from, client: client, waits: retryWaits}
	u.User = nil
	t.endpoint = u.String()
	return t, nil
}

// String names the endpoint, without its credentials.
func (t *Twilio) String() string { return t.endpoint }

// Send sends body to the number to (E.164 digits, with or without the "+")
// by channel (sms or whatsapp) and returns the message's id at the
// provider. A message the gateway could not take is tried again (retryWaits);
// one it refused (4xx but 429) is not.
func (t *Twilio) Send(ctx context.Context, to, channel, body string) (string, error) {
	form := t.form(to, channel, body)
	for attempt := 0; ; attempt++ {
		sid, wait, err := t.post(ctx, form)
		if err == nil || wait < 0 || attempt == len(t.waits) {
			return sid, err
		}
		timer := time.NewTimer(max(wait, t.waits[attempt]))
		select {
		case <-ctx.Done():
			timer.Stop()
			return "", fmt.Errorf("%w (not tried again: %w)", err, ctx.Err())
		case <-timer.C:
		}
	}
}

// form is the Messages API's form of a message.
func (t *Twilio) form(to, channel, body string) url.Values {
	to = "+" + strings.TrimPrefix(to, "+")
	from := t.from
	form := url.Values{"Body": {body}}
	if channel == ChannelWhatsApp {
		to = "whatsapp:" + to
		from = "whatsapp:" + from
	}
	form.Set("To", to)
	if strings.HasPrefix(t.from, "MG") {
		form.Set("MessagingServiceSid", t.from)
	} else {
		form.Set("From", from)
	}
	return form
}

// post posts form once. On failure, retry is -1 when trying again is of no
// use, else the least wait the gateway asked for (0 for none).
func (t *Twilio) post(ctx context.Context, form url.Values) (sid string, retry time.Duration, err error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, t.endpoint, strings.NewReader(form.Encode()))
	if err != nil {
		return "", -1, err
	}
	req.SetBasicAuth(t.user, t.password)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	res, err := t.client.Do(req)
	if err != nil {
		return "", 0, fmt.Errorf("send SMS: %w", err) // the endpoint has no credentials in it
	}
	defer res.Body.Close()
	var answer struct {
		SID     string `json:"sid"`
		Code    int    `json:"code"`
		Message string `json:"message"`
	}
	decodeErr := json.NewDecoder(io.LimitReader(res.Body, 64<<10)).Decode(&answer)
	if res.StatusCode/100 != 2 {
		err := fmt.Errorf("send SMS: status %d, code %d: %s", res.StatusCode, answer.Code, answer.Message)
		if res.StatusCode != http.StatusTooManyRequests && res.StatusCode/100 != 5 {
			return "", -1, err
		}
		return "", retryAfter(res.Header.Get("Retry-After")), err
	}
	if decodeErr != nil || answer.SID == "" {
		return "", -1, fmt.Errorf("send SMS: status %d without a message sid", res.StatusCode)
	}
	return answer.SID, 0, nil
}

// retryAfter is a Retry-After header's wait in seconds, at most
// maxRetryAfter; 0 for none (or a date, which gateways do not send).
func retryAfter(header string) time.Duration {
	seconds, err := strconv.Atoi(strings.TrimSpace(header))
	if err != nil || seconds < 0 {
		return 0
	}
	return min(time.Duration(seconds)*time.Second, maxRetryAfter)
}
