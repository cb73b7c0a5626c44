package storage

import (
	"io"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// partsWriter records the parts a file reaches it in, each taking delay.
type partsWriter struct {
	*httptest.ResponseRecorder
	delay time.Duration
	parts []int64
}

func (w *partsWriter) ReadFrom(r io.Reader) (int64, error) {
	time.Sleep(w.delay)
	n, err := io.Copy(w.ResponseRecorder, r)
	w.parts = append(w.parts, n)
	return n, err
}

// TestFilePartsFollowTheClient: a file goes out in parts that double
// while the client takes them quickly, and stay the smallest for a client
// that takes a second or more over each (so that the deadline, pushed
// back between parts, moves with it).
func TestFilePartsFollowTheClient(t *testing.T) {
	name := filepath.Join(t.TempDir(), "blob")
	if err := os.WriteFile(name, make([]byte, 3<<20), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		delay time.Duration
		size  int64
		want  []int64
	}{
		{0, 3 << 20, []int64{256 << 10, 512 << 10, 1 << 20, 1 << 20, 256 << 10}},
		{sendfileQuick, 640 << 10, []int64{256 << 10, 256 << 10, 128 << 10}},
	} {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		w := &partsWriter{ResponseRecorder: httptest.NewRecorder(), delay: tt.delay}
		p := &progressWriter{ResponseWriter: w}
		n, err := p.ReadFrom(&io.LimitedReader{R: f, N: tt.size})
		f.Close()
		if err != nil || n != tt.size || w.Body.Len() != int(tt.size) {
			t.Fatalf("sent %d of %d (%v)", n, tt.size, err)
		}
		if len(w.parts) != len(tt.want) {
			t.Fatalf("delay %v: parts %v, want %v", tt.delay, w.parts, tt.want)
		}
		for i := range tt.want {
			if w.parts[i] != tt.want[i] {
				t.Fatalf("delay %v: parts %v, want %v", tt.delay, w.parts, tt.want)
			}
		}
	}
}
