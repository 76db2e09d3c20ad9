package vurbtest_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/matryer/is"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/presenter"
	"github.com/vurb-go/vurb/vurbtest"
)

type ticket struct {
	ID       string `json:"id"`
	Reporter string `json:"reporter" redact:"true"`
	Open     bool   `json:"open"`
}

type ticketRef struct {
	ID string `json:"id" validate:"required"`
}

// ticketApp lists n tickets through a presenter that keeps 3, says a rule
// and suggests closing the open ones.
func ticketApp(n int) *vurb.App {
	app := vurb.New(vurb.WithPresenters(presenter.New[ticket]().
		Rules("tickets are support requests").
		Suggest(func(tk ticket) []presenter.Suggestion {
			if !tk.Open {
				return nil
			}
			return []presenter.Suggestion{{Action: "tickets.close", Args: map[string]any{"id": tk.ID}}}
		}).
		Limit(3)))
	vurb.Query(app, "tickets.list", func(context.Context, struct{}) ([]ticket, error) {
		out := make([]ticket, n)
		for i := range out {
			out[i] = ticket{ID: fmt.Sprint("T", i), Reporter: "someone@example.com", Open: i%2 == 0}
		}
		return out, nil
	})
	vurb.Mutation(app, "tickets.close", func(_ context.Context, in ticketRef) (string, error) { return "closed " + in.ID, nil })
	return app
}

func TestCallPresented(t *testing.T) {
	is := is.New(t)
	p := vurbtest.New(t, ticketApp(5)).CallPresented("tickets_list", nil).
		WantRules("tickets are support requests").
		WantLeftOut("", 3, 5).
		WantNext("tickets_close", map[string]any{"id": "T0"}).
		WantNext("tickets_close", nil).
		WantNoNext("tickets_list")
	is.Equal(p.Data, `[{"id":"T0","reporter":"[redacted]","open":true},{"id":"T1","reporter":"[redacted]","open":false},{"id":"T2","reporter":"[redacted]","open":true}]`)
	is.Equal(len(p.Next), 2) // T0 and T2: T4 is left out
}

func TestCallPresentedFails(t *testing.T) {
	for _, tc := range []struct {
		name string
		want func(p *vurbtest.Presented)
		msg  string
	}{
		{"missing rule", func(p *vurbtest.Presented) { p.WantRules("tickets are bugs") },
			`vurbtest: tools/call tickets_list: no rule "tickets are bugs"; the model read:` + "\nRules:\n- tickets are support requests"},
		{"missing suggestion", func(p *vurbtest.Presented) { p.WantNext("tickets_close", map[string]any{"id": "T1"}) },
			`vurbtest: tools/call tickets_list: no suggestion to call tickets_close with {"id":"T1"}`},
		{"unwanted suggestion", func(p *vurbtest.Presented) { p.WantNoNext("tickets_close") },
			"vurbtest: tools/call tickets_list: suggests calling tickets_close"},
		{"another cut", func(p *vurbtest.Presented) { p.WantLeftOut("", 3, 6) },
			`vurbtest: tools/call tickets_list: "" is not cut to 3 of 6`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mustFail(t, func(t testing.TB) { tc.want(vurbtest.New(t, ticketApp(5)).CallPresented("tickets_list", nil)) }, tc.msg)
		})
	}
	mustFail(t, func(t testing.TB) { vurbtest.New(t, ticketApp(5)).CallPresented("tickets_close", map[string]any{}) },
		"vurbtest: tools/call tickets_close {}: tool error: ")
}
