package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// TestRealtimeConnsPerIP: --realtime-max-conns-per-ip counts the client
// address the trusted proxies name (not the proxy's), refuses one more
// with 429 and counts it in the metrics.
func TestRealtimeConnsPerIP(t *testing.T) {
	addrs := serveInProcess(t, 2, "--addr", "127.0.0.1:0", "--metrics-addr", "127.0.0.1:0", "--data", t.TempDir(),
		"--trusted-proxies", "127.0.0.1", "--realtime-max-conns-per-ip", "1")
	dial := func(client string) int {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		ws, resp, err := websocket.Dial(ctx, "ws://"+addrs["http"]+"/realtime/v1/websocket?vsn=2.0.0",
			&websocket.DialOptions{HTTPHeader: http.Header{"X-Forwarded-For": {client}}})
		if err != nil {
			if resp == nil {
				t.Fatal(err)
			}
			return resp.StatusCode
		}
		t.Cleanup(func() { ws.CloseNow() })
		return resp.StatusCode
	}
	for _, tt := range []struct {
		client string
		want   int
	}{
		{"203.0.113.1", http.StatusSwitchingProtocols},
		{"203.0.113.1", http.StatusTooManyRequests},
		{"203.0.113.2", http.StatusSwitchingProtocols},
	} {
		if got := dial(tt.client); got != tt.want {
			t.Errorf("websocket from %s = %d, want %d", tt.client, got, tt.want)
		}
	}
	resp, err := http.Get("http://" + addrs["metrics"] + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	text, _ := io.ReadAll(resp.Body)
	if want := `studio_realtime_limited_total{limit="connections_per_client"} 1`; !strings.Contains(string(text), want) {
		t.Errorf("metrics lack %s", want)
	}
}

// TestRealtimeLimitFlags: a limit below 1 is refused at start.
func TestRealtimeLimitFlags(t *testing.T) {
	for _, flag := range []string{"--realtime-max-conns-per-ip", "--realtime-max-channels", "--realtime-max-bindings"} {
		var out bytes.Buffer
		code := run(context.Background(), []string{"serve", "--addr", "127.0.0.1:0", "--data", t.TempDir(), flag, "0"}, noEnv, &out, &out)
		if code == 0 || !strings.Contains(out.String(), flag+" 0: want at least 1") {
			t.Errorf("%s 0: exit %d, %s", flag, code, out.String())
		}
	}
}
