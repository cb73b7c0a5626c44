package realtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"studio/internal/fault"
	"studio/internal/staff"
	"sync"
	"time"

	"github.com/coder/websocket"
)

// conn is one websocket: the channels joined on it, and a queue of
// messages for one writer.
type conn struct {
	s      *Service
	ws     *websocket.Conn
	vsn    string
	client string // ratelimit.ClientKey of its client
	out    chan []byte

	mu       sync.Mutex
	channels map[string]*channel // by topic

	// joined is closed at the first join that succeeds (by the reader:
	// hasJoined is its own).
	joined    chan struct{}
	hasJoined bool
}

// channel is a joined channel: its join reference, the token it was
// joined (or last updated) with, and its bindings.
type channel struct {
	topic    string
	joinRef  *string
	token    string
	staff    staff.Member
	bindings []*binding
}

// serve runs the connection until the client goes, is idle too long, is
// too slow, or the server closes it.
func (c *conn) serve(ctx context.Context) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go c.writeLoop(ctx, cancel)
	go c.checkSessions(ctx)
	go c.closeUnlessJoined(ctx)
	for {
		readCtx, stop := context.WithTimeout(ctx, idleTimeout)
		typ, data, err := c.ws.Read(readCtx)
		stop()
		if err != nil {
			if errors.Is(err, context.DeadlineExceeded) {
				_ = c.ws.Close(websocket.StatusPolicyViolation, "no heartbeat")
			}
			c.ws.CloseNow()
			return
		}
		m, err := decode(c.vsn, data)
		if typ != websocket.MessageText || err != nil {
			_ = c.ws.Close(websocket.StatusUnsupportedData, "want Phoenix channel messages as JSON text")
			return
		}
		c.handle(ctx, m)
	}
}

// closeUnlessJoined closes the websocket if no channel is joined on it
// within Config.JoinDeadline: a socket that cannot show a staff token is
// not kept open.
func (c *conn) closeUnlessJoined(ctx context.Context) {
	deadline := time.NewTimer(c.s.cfg.JoinDeadline)
	defer deadline.Stop()
	select {
	case <-ctx.Done():
	case <-c.joined:
	case <-deadline.C:
		c.s.limited(LimitJoinDeadline, "realtime: websocket closed, no channel joined in time",
			"client", c.client, "deadline", c.s.cfg.JoinDeadline.String())
		_ = c.ws.Close(websocket.StatusPolicyViolation, "join a channel with a staff access token within "+c.s.cfg.JoinDeadline.String())
	}
}

// writeLoop writes the queued messages in order.
func (c *conn) writeLoop(ctx context.Context, cancel context.CancelFunc) {
	for {
		select {
		case <-ctx.Done():
			return
		case b := <-c.out:
			wctx, stop := context.WithTimeout(ctx, writeTimeout)
			err := c.ws.Write(wctx, websocket.MessageText, b)
			stop()
			if err != nil {
				cancel()
				c.ws.CloseNow()
				return
			}
		}
	}
}

// send queues m; a client that lets sendQueue messages pile up is
// disconnected rather than let it hold the others back.
func (c *conn) send(m message) {
	select {
	case c.out <- encode(c.vsn, m):
	default:
		c.s.cfg.Logger.Warn("realtime: client too slow, disconnected")
		c.ws.CloseNow() // the caller may be the dispatcher: do not wait for the client
	}
}

// push sends an event of the server on a joined channel.
func (c *conn) push(ch *channel, event string, payload json.RawMessage) {
	c.send(message{JoinRef: ch.joinRef, Topic: ch.topic, Event: event, Payload: payload})
}

// reply answers the push m.
func (c *conn) reply(m message, status string, response any) {
	c.send(message{JoinRef: m.JoinRef, Ref: m.Ref, Topic: m.Topic, Event: eventReply,
		Payload: mustJSON(reply{Status: status, Response: response})})
}

func (c *conn) handle(ctx context.Context, m message) {
	switch {
	case m.Topic == topicPhoenix && m.Event == eventHeartbeat:
		c.reply(m, "ok", struct{}{})
	case m.Event == eventJoin:
		c.join(ctx, m)
	case m.Event == eventAccessToken:
		c.updateToken(ctx, m)
	case m.Event == eventLeave:
		c.mu.Lock()
		delete(c.channels, m.Topic)
		c.mu.Unlock()
		c.reply(m, "ok", struct{}{})
	default:
		c.reply(m, "error", reason{"Only postgres_changes is offered: broadcast and presence are not"})
	}
}

// join handles phx_join: the token must be a staff member's, at the
// assurance level they need, and every postgres_changes binding valid.
func (c *conn) join(ctx context.Context, m message) {
	if !strings.HasPrefix(m.Topic, "realtime:") {
		c.reply(m, "error", reason{"Topics are realtime:<name>"})
		return
	}
	p, err := decodeJoin(m.Payload)
	if err != nil {
		c.reply(m, "error", reason{err.Error()})
		return
	}
	// Joins are handled one at a time, so no other can add a channel
	// before this one is added.
	c.mu.Lock()
	_, rejoin := c.channels[m.Topic]
	full := !rejoin && len(c.channels) >= c.s.cfg.MaxChannels
	c.mu.Unlock()
	if full {
		c.s.limited(LimitChannels, "realtime: join refused, too many channels on one websocket",
			"client", c.client, "max", c.s.cfg.MaxChannels)
		c.reply(m, "error", reason{"ChannelRateLimitReached: Too many channels"}) // Supabase Realtime's reply
		return
	}
	if n := len(p.Config.PostgresChanges); n > c.s.cfg.MaxBindings {
		c.s.limited(LimitBindings, "realtime: join refused, too many bindings on one channel",
			"client", c.client, "bindings", n, "max", c.s.cfg.MaxBindings)
		c.reply(m, "error", reason{fmt.Sprintf("Unable to subscribe to changes with given parameters: "+
			"too many postgres_changes bindings (%d), at most %d a channel", n, c.s.cfg.MaxBindings)})
		return
	}
	if p.AccessToken == "" {
		c.reply(m, "error", reason{"Sign in first: join with a staff access token (access_token)"})
		return
	}
	member, err := c.s.authorize(ctx, p.AccessToken)
	if err != nil {
		c.reply(m, "error", reason{refusal(err)})
		return
	}
	ch := &channel{topic: m.Topic, joinRef: m.JoinRef, token: p.AccessToken, staff: member}
	accepted := []changeFilter{}
	for _, f := range p.Config.PostgresChanges {
		b, err := parseBinding(f)
		if err != nil {
			c.reply(m, "error", reason{"Unable to subscribe to changes with given parameters: " + err.Error()})
			return
		}
		ch.bindings = append(ch.bindings, b)
		accepted = append(accepted, b.changeFilter)
	}
	// While the join is told the feed's state, watchFeed waits: the
	// channel's last system message is the feed's state.
	c.s.feedMu.Lock()
	defer c.s.feedMu.Unlock()
	c.mu.Lock()
	c.channels[m.Topic] = ch
	c.mu.Unlock()
	if !c.hasJoined {
		c.hasJoined = true
		close(c.joined)
	}
	c.reply(m, "ok", struct {
		PostgresChanges []changeFilter `json:"postgres_changes"`
	}{accepted})
	if len(ch.bindings) > 0 {
		c.pushPostgresStatus(ch, "ok", msgSubscribed)
		if c.s.paused {
			c.pushPostgresStatus(ch, "error", msgPaused)
		}
	}
}

// pushPostgresStatus sends the channel a system message of the
// postgres_changes extension.
func (c *conn) pushPostgresStatus(ch *channel, status, msg string) {
	c.push(ch, eventSystem, mustJSON(systemMessage{Channel: strings.TrimPrefix(ch.topic, "realtime:"),
		Extension: "postgres_changes", Message: msg, Status: status}))
}

// updateToken handles access_token: the channel goes on with the new
// token if it is good, and is closed if not.
func (c *conn) updateToken(ctx context.Context, m message) {
	var p struct {
		AccessToken string `json:"access_token"`
	}
	_ = json.Unmarshal(m.Payload, &p)
	c.mu.Lock()
	ch := c.channels[m.Topic]
	c.mu.Unlock()
	if ch == nil {
		c.reply(m, "error", reason{"Join the channel first"})
		return
	}
	member, err := c.s.authorize(ctx, p.AccessToken)
	if err != nil {
		c.closeChannel(ch, refusal(err))
		return
	}
	c.mu.Lock()
	ch.token, ch.staff = p.AccessToken, member
	c.mu.Unlock()
	c.reply(m, "ok", struct{}{})
}

// checkSessions checks every joined channel's token again, every
// SessionCheck: a session signed out elsewhere (or a token expired and not
// replaced) closes the channel, and the socket when none is left.
func (c *conn) checkSessions(ctx context.Context) {
	tick := time.NewTicker(c.s.cfg.SessionCheck)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		c.mu.Lock()
		joined := make([]*channel, 0, len(c.channels))
		for _, ch := range c.channels {
			joined = append(joined, ch)
		}
		c.mu.Unlock()
		ended := 0
		for _, ch := range joined {
			c.mu.Lock()
			token := ch.token
			c.mu.Unlock()
			if _, err := c.s.authorize(ctx, token); err != nil && refused(err) {
				c.closeChannel(ch, refusal(err))
				ended++
			}
		}
		c.mu.Lock()
		empty := len(c.channels) == 0
		c.mu.Unlock()
		if ended > 0 && empty {
			// Let the closing messages go first.
			time.Sleep(100 * time.Millisecond)
			_ = c.ws.Close(websocket.StatusPolicyViolation, "session ended")
			return
		}
	}
}

// closeChannel tells the client why the channel ends (a system error) and
// closes it.
func (c *conn) closeChannel(ch *channel, why string) {
	c.mu.Lock()
	if c.channels[ch.topic] == ch {
		delete(c.channels, ch.topic)
	}
	c.mu.Unlock()
	c.push(ch, eventSystem, mustJSON(systemMessage{Channel: strings.TrimPrefix(ch.topic, "realtime:"),
		Extension: "system", Message: why, Status: "error"}))
	c.push(ch, eventClose, mustJSON(struct{}{}))
}

// refused reports whether the gate refused the token (rather than failing
// to check it).
func refused(err error) bool {
	k := fault.KindOf(err)
	return k == fault.Unauthenticated || k == fault.Forbidden
}

// refusal is why the gate said no, as a person reads it: the one mapping of
// its kinds to realtime's words.
func refusal(err error) string {
	switch {
	case errors.Is(err, staff.ErrSessionEnded):
		return "Your session has ended: sign in again"
	case fault.KindOf(err) == fault.Forbidden:
		return "Verify your second factor (TOTP) first: " + err.Error()
	case fault.KindOf(err) == fault.Unauthenticated:
		return "Invalid access token: " + err.Error()
	}
	return "Could not check the session; try again"
}
