package changes

import (
	"testing"
	"time"
)

func TestBus(t *testing.T) {
	var b Bus
	b.Publish(Change{Table: "before"}) // no one listens: nothing blocks
	a, c := b.Subscribe(2), b.Subscribe(1)
	first := Change{Table: "contact_messages", Type: Insert, Key: []string{"1"}, At: time.Now()}
	b.Publish(first)
	b.Publish(Change{Table: "contact_messages", Type: Update, Key: []string{"1"}})
	if got := <-a.C; got.Table != first.Table || got.Type != Insert || got.Key[0] != "1" {
		t.Errorf("a got %+v", got)
	}
	if got := <-a.C; got.Type != Update {
		t.Errorf("a got %+v", got)
	}
	if got := <-c.C; got.Type != Insert {
		t.Errorf("c got %+v", got)
	}
	if a.Dropped() != 0 || c.Dropped() != 1 {
		t.Errorf("dropped a=%d c=%d, want 0 and 1", a.Dropped(), c.Dropped())
	}
	c.Close()
	c.Close() // twice is fine
	if _, open := <-c.C; open {
		t.Error("closed subscription's channel is open")
	}
	b.Publish(Change{Table: "after"})
	if got := <-a.C; got.Table != "after" {
		t.Errorf("a got %+v after c closed", got)
	}
}
