package realtime

import (
	"encoding/json"
	"errors"
)

// message is one Phoenix channel message. Serializer 1.0.0 sends it as a
// JSON object; 2.0.0 (realtime-js's default) as the array
// [join_ref, ref, topic, event, payload].
type message struct {
	JoinRef *string         `json:"join_ref"`
	Ref     *string         `json:"ref"`
	Topic   string          `json:"topic"`
	Event   string          `json:"event"`
	Payload json.RawMessage `json:"payload"`
}

// Serializer versions.
const (
	vsn1 = "1.0.0"
	vsn2 = "2.0.0"
)

// Phoenix's and Supabase Realtime's events.
const (
	eventJoin        = "phx_join"
	eventLeave       = "phx_leave"
	eventReply       = "phx_reply"
	eventClose       = "phx_close"
	eventHeartbeat   = "heartbeat"
	eventAccessToken = "access_token"
	eventSystem      = "system"
	eventChanges     = "postgres_changes"
	topicPhoenix     = "phoenix"
)

var errBadMessage = errors.New("realtime: not a channel message")

func decode(vsn string, data []byte) (message, error) {
	var m message
	if vsn == vsn2 {
		var parts [5]json.RawMessage
		if err := json.Unmarshal(data, &parts); err != nil {
			return m, errBadMessage
		}
		for i, dst := range []any{&m.JoinRef, &m.Ref, &m.Topic, &m.Event} {
			if err := json.Unmarshal(parts[i], dst); err != nil {
				return m, errBadMessage
			}
		}
		m.Payload = parts[4]
	} else if err := json.Unmarshal(data, &m); err != nil {
		return m, errBadMessage
	}
	if m.Topic == "" || m.Event == "" {
		return m, errBadMessage
	}
	return m, nil
}

func encode(vsn string, m message) []byte {
	if len(m.Payload) == 0 {
		m.Payload = json.RawMessage("{}")
	}
	var b []byte
	if vsn == vsn2 {
		b, _ = json.Marshal([]any{m.JoinRef, m.Ref, m.Topic, m.Event, m.Payload})
	} else {
		b, _ = json.Marshal(m)
	}
	return b // strings and valid raw JSON always encode
}

// reply is the payload of a phx_reply.
type reply struct {
	Status   string `json:"status"` // ok or error
	Response any    `json:"response"`
}

// reason is the response of an error reply, which realtime-js shows.
type reason struct {
	Reason string `json:"reason"`
}

// systemMessage is the payload of a system event.
type systemMessage struct {
	Channel   string `json:"channel"`
	Extension string `json:"extension"`
	Message   string `json:"message"`
	Status    string `json:"status"`
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // only the types above, which always encode
	}
	return b
}
