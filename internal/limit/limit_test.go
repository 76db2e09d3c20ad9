package limit

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/vurb-go/vurb/internal/engine"
)

// Rate limits all apply, the app's first, each named by its scope and
// place; the innermost level that sets a cap wins, and a negative cap is
// none.
func TestResolveAcrossLevels(t *testing.T) {
	perSecond := NewRule("AllCallers", 10, time.Second, nil)
	app := &Set{Rates: []Rule{perSecond}, Concurrent: 4, Wait: time.Second, MaxOutput: 1 << 20}
	tool := &Set{Rates: []Rule{perSecond, perSecond.WithBurst(2)}, MaxOutput: -1}
	action := &Set{Concurrent: -1}
	l := Resolve(Level{action, "t.a"}, Level{}, Level{tool, "t.*"}, Level{app, "*"})
	var names []string
	for _, r := range l.Rates {
		names = append(names, r.Name)
	}
	if got, want := names, []string{"*#0", "t.*#0", "t.*#1"}; !slices.Equal(got, want) {
		t.Errorf("rates: got %v, want %v", got, want)
	}
	if l.Rates[2].Rate.Burst != 2 {
		t.Errorf("burst: got %d, want 2", l.Rates[2].Rate.Burst)
	}
	if l.Concurrent != 0 || l.MaxOutput != 0 {
		t.Errorf("caps: got concurrent %d, output %d; the inner levels removed both", l.Concurrent, l.MaxOutput)
	}
	l = Resolve(Level{&Set{}, "t.a"}, Level{}, Level{&Set{}, "t.*"}, Level{app, "*"})
	if l.Concurrent != 4 || l.Wait != time.Second || l.MaxOutput != 1<<20 {
		t.Errorf("caps: got %+v, want the app's", l)
	}
}

func TestResolvePanicsAtAZeroRule(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("a zero rule was resolved")
		}
	}()
	Resolve(Level{&Set{Rates: []Rule{{}}}, "t.a"})
}

// A caller is its token's subject, else its host (an IPv6 host's /64),
// else anonymous.
func TestCallerBucket(t *testing.T) {
	for _, c := range []struct {
		o    engine.Origin
		want string
	}{
		{engine.Origin{Token: &auth.TokenInfo{UserID: "alice"}, Remote: "192.0.2.1:1"}, "user:alice"},
		{engine.Origin{Token: &auth.TokenInfo{}, Remote: "192.0.2.1:1"}, "host:192.0.2.1"},
		{engine.Origin{Remote: "[2001:db8:0:1::7]:443"}, "host:2001:db8:0:1::/64"},
		{engine.Origin{Remote: "[::ffff:192.0.2.1]:443"}, "host:::ffff:192.0.2.1"},
		{engine.Origin{Remote: "pipe"}, "host:pipe"},
		{engine.Origin{}, "anonymous"},
	} {
		if got := CallerBucket(context.Background(), c.o); got != c.want {
			t.Errorf("%+v: got %q, want %q", c.o, got, c.want)
		}
	}
}
