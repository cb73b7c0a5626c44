package main

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"studio/internal/notify/smtptest"
)

// TestServeSendsNotifications: with --smtp-url and --notify-to, a contact
// message sent to the binary reaches the mail server; spam does not.
func TestServeSendsNotifications(t *testing.T) {
	mail := smtptest.Start(t, 0)
	base, _ := startStudio(t, nil, "--addr", "127.0.0.1:0", "--data", t.TempDir(),
		"--smtp-url", mail.URL(), "--notify-to", "team@studio.test", "--notify-from", "Site <site@studio.test>")
	for _, body := range []string{
		`{"name":"Bot","email":"bot@example.com","company":null,"phone":null,"message":"spam","website":"x"}`,
		`{"name":"Ada Lovelace","email":"ada@example.com","company":null,"phone":null,"message":"Please call me."}`,
	} {
		resp, err := http.Post(base+"/functions/v1/submit-contact", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("status %d", resp.StatusCode)
		}
	}
	select {
	case <-mail.Arrived:
	case <-time.After(15 * time.Second):
		t.Fatal("no e-mail arrived")
	}
	time.Sleep(300 * time.Millisecond) // room for a wrong second e-mail
	got := mail.Received()
	if len(got) != 1 || !strings.Contains(got[0].Data, "Please call me.") || got[0].To[0] != "team@studio.test" {
		t.Fatalf("received %+v, want one e-mail about Ada's message", got)
	}
}

func TestServeRejectsHalfAMailSetup(t *testing.T) {
	var out strings.Builder
	code := run(t.Context(), []string{"serve", "--addr", "127.0.0.1:0", "--data", t.TempDir(), "--notify-to", "team@studio.test"},
		func(string) string { return "" }, &out, &out)
	if code != 1 || !strings.Contains(out.String(), "--smtp-url and --notify-to go together") {
		t.Errorf("exit %d, output %q", code, out.String())
	}
}
