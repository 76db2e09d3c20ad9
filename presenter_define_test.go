package vurb_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/presenter"
)

type selfMarshaled struct {
	Secret string `json:"secret"`
}

func (s selfMarshaled) MarshalJSON() ([]byte, error) {
	return []byte(`{"secret":"hidden by its method"}`), nil
}

// selfMarshaledTagged has a redact tag vurb cannot honour.
type selfMarshaledTagged struct {
	Secret string `json:"secret" redact:"true"`
}

func (s *selfMarshaledTagged) MarshalJSON() ([]byte, error) { return []byte(`{}`), nil }

type badTag struct {
	Secret string `json:"secret" redact:"yes"`
}

// TestPresenterDefinitionErrors: mistakes in declaring presenters panic
// where they are made (or, for what only the app's result types reveal,
// at Build), saying what to do.
func TestPresenterDefinitionErrors(t *testing.T) {
	for _, c := range []struct {
		name   string
		define func()
		want   string
	}{
		{"pointer type", func() { presenter.New[*Invoice]() },
			"vurb: presenter.New[*vurb_test.Invoice]: a presenter presents a struct type: use presenter.New[vurb_test.Invoice](), which applies behind pointers too"},
		{"not a struct", func() { presenter.New[[]Invoice]() }, "a presenter presents a struct type"},
		{"limit zero", func() { presenter.New[Invoice]().Limit(0) },
			"vurb: Presenter[vurb_test.Invoice].Limit(0): give the number of elements to keep, at least 1"},
		{"redact and omit", func() { presenter.New[Invoice]().Redact("status").Omit("status") },
			`vurb: Presenter[vurb_test.Invoice]: field "status" is given to both Redact and Omit; choose one`},
		{"nil rule function", func() { presenter.New[Invoice]().RulesFor(nil) }, "RulesFor: nil function"},
		{"two presenters of a type", func() {
			vurb.New(vurb.WithPresenters(presenter.New[Invoice](), presenter.New[Invoice]()))
		}, "vurb: WithPresenters: the app already has a presenter of vurb_test.Invoice"},
		{"two presenters of a type, in two options", func() {
			vurb.New(vurb.WithPresenters(presenter.New[Invoice]()), vurb.WithPresenters(presenter.New[Invoice]()))
		}, "vurb: WithPresenters: the app already has a presenter of vurb_test.Invoice"},
		{"nil presenter", func() { vurb.WithPresenters(nil) }, "vurb: WithPresenters: nil presenter; make one with presenter.New[T]()"},
		{"nil typed presenter", func() { vurb.WithPresenters((*presenter.Presenter[Invoice])(nil)) }, "vurb: WithPresenters: nil presenter"},
		{"presenter not made by New", func() { vurb.WithPresenters(&presenter.Presenter[Invoice]{}) }, "vurb: WithPresenters: nil presenter"},
		{"method on a presenter not made by New", func() { new(presenter.Presenter[Invoice]).Rules("x") },
			"vurb: Presenter.Rules on a presenter not made by presenter.New"},
		{"unknown field", func() {
			app := billingApp(1, vurb.WithPresenters(presenter.New[Invoice]().Redact("card")))
			app.Build()
		}, `vurb: presenter of vurb_test.Invoice redacts "card", which is not a JSON field of vurb_test.Invoice; its fields are id, amount_cents, status, card_number, internal, customer`},
		{"bad tag", func() {
			app := vurb.New()
			vurb.Query(app, "x.get", func(context.Context, struct{}) (badTag, error) { return badTag{}, nil })
			app.Build()
		}, `vurb: field Secret (json "secret") of vurb_test.badTag: redact:"yes": write redact:"true" to replace its value with "[redacted]", or redact:"omit" to leave it out`},
		{"type that marshals itself", func() {
			app := vurb.New(vurb.WithPresenters(presenter.New[selfMarshaled]().Redact("secret")))
			vurb.Query(app, "x.get", func(context.Context, struct{}) (selfMarshaled, error) { return selfMarshaled{}, nil })
			app.Build()
		}, "vurb: presenter of vurb_test.selfMarshaled: vurb_test.selfMarshaled marshals itself (MarshalJSON or MarshalText), so vurb cannot redact its fields"},
		{"redact tag on a type that marshals itself", func() {
			app := vurb.New()
			vurb.Query(app, "x.get", func(context.Context, struct{}) ([]selfMarshaledTagged, error) { return nil, nil })
			app.Build()
		}, "vurb: vurb_test.selfMarshaledTagged has redact tags but marshals itself (MarshalJSON or MarshalText), so vurb cannot redact its fields"},
	} {
		t.Run(c.name, func(t *testing.T) {
			msg := mustPanic(t, c.define)
			if !strings.Contains(msg, c.want) {
				t.Fatalf("panic %q\nwant %q", msg, c.want)
			}
		})
	}
}

// TestPresenterFrozenWithTheApp: a presenter given to an app may be
// configured until the app is built; then it no longer changes (and the
// app's presenters, given at New, cannot change at all).
func TestPresenterFrozenWithTheApp(t *testing.T) {
	is := is.New(t)
	p := presenter.New[Invoice]()
	app := billingApp(2, vurb.WithPresenters(p))
	p.Rules("configured after New")
	pr, _ := presenter.Read(callOK(t, app, "billing_search", `{}`))
	is.Equal(pr.Rules, []string{"configured after New"})
	msg := mustPanic(t, func() { p.Rules("late") })
	is.True(strings.Contains(msg, "vurb: Presenter[vurb_test.Invoice].Rules: an app using it is built, and the presenter is frozen with it"))
}

// TestPresenterSelfMarshaledObserved: a presenter of a type that marshals
// itself still gives its rules; its method writes the value.
func TestPresenterSelfMarshaledObserved(t *testing.T) {
	is := is.New(t)
	app := vurb.New(vurb.WithPresenters(presenter.New[selfMarshaled]().Rules("secrets are hidden by their type")))
	vurb.Query(app, "x.get", func(context.Context, struct{}) ([]selfMarshaled, error) {
		return []selfMarshaled{{Secret: "s"}}, nil
	})
	res := callOK(t, app, "x_get", `{}`)
	is.Equal(textOf(res, 0), `[{"secret":"hidden by its method"}]`)
	p, _ := presenter.Read(res)
	is.Equal(p.Rules, []string{"secrets are hidden by their type"})
}

// TestPresenterPanicIsContained: a rule function that panics is a
// handler's panic: an internal error with a reference, never a crash.
func TestPresenterPanicIsContained(t *testing.T) {
	is := is.New(t)
	app := billingApp(2, vurb.WithTimeout(time.Second),
		vurb.WithPresenters(presenter.New[Invoice]().RulesFor(func(Invoice) []string { panic("boom") })))
	res, err := app.Call(context.Background(), "billing_search", nil)
	is.NoErr(err)
	is.True(res.IsError)
	is.True(strings.Contains(textOf(res, 0), "internal error (ref "))
}
