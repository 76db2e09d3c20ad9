package vurb_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/matryer/is"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/vurbtest"
)

// Types that marshal themselves around values vurb redacts: encoding/json
// hands them whole to their method, which writes what vurb would redact.

// sealedPage is a page of invoices (whose card the invoice presenter
// redacts) that marshals itself.
type sealedPage struct {
	Items []Invoice `json:"items"`
}

func (p sealedPage) MarshalJSON() ([]byte, error) {
	type plain sealedPage
	return json.Marshal(plain(p))
}

// sealedCustomers holds customers (whose email a tag redacts) and
// marshals itself through a pointer receiver.
type sealedCustomers struct {
	Customers []Customer `json:"customers"`
}

func (p *sealedCustomers) MarshalJSON() ([]byte, error) {
	type plain sealedCustomers
	return json.Marshal((*plain)(p))
}

// textCustomer writes a customer, email included, as text.
type textCustomer struct {
	Who Customer
}

func (c textCustomer) MarshalText() ([]byte, error) {
	return []byte(c.Who.Name + " <" + c.Who.Email + ">"), nil
}

// sealedEnvelope marshals itself around a payload only the call reveals.
type sealedEnvelope struct {
	Kind    string `json:"kind"`
	Payload any    `json:"payload"`
}

func (e sealedEnvelope) MarshalJSON() ([]byte, error) {
	type plain sealedEnvelope
	return json.Marshal(plain(e))
}

type pageHolder struct {
	Page *sealedPage `json:"page"`
}

// TestPresenterRefusesRedactionUnderSelfMarshaling: a result type that
// holds, beneath a type that marshals itself, a field a presenter or a tag
// redacts is refused at Build, naming the type, where it is and the
// redacted field, and saying what to do; nothing is served that would
// send the field in clear.
func TestPresenterRefusesRedactionUnderSelfMarshaling(t *testing.T) {
	for _, c := range []struct {
		name    string
		present bool
		declare func(app *vurb.App)
		want    string
	}{
		{"a presenter's redaction under a page's MarshalJSON", true, func(app *vurb.App) {
			vurb.Query(app, "x.get", func(context.Context, struct{}) (sealedPage, error) { return sealedPage{}, nil })
		}, "vurb: vurb_test.sealedPage marshals itself (MarshalJSON or MarshalText), so vurb cannot redact what it holds, " +
			"and its items[].card_number is redacted by the presenter of vurb_test.Invoice; " +
			"drop the method so that vurb writes vurb_test.sealedPage field by field, " +
			"or redact before marshalling: have it hold a type without redactions, the secret already left out"},
		{"the page behind a pointer in a field", true, func(app *vurb.App) {
			vurb.Query(app, "x.get", func(context.Context, struct{}) (pageHolder, error) { return pageHolder{}, nil })
		}, "vurb: vurb_test.sealedPage (at page) marshals itself (MarshalJSON or MarshalText), so vurb cannot redact what it holds, " +
			"and its items[].card_number is redacted by the presenter of vurb_test.Invoice"},
		{"the page in a map", true, func(app *vurb.App) {
			vurb.Query(app, "x.get", func(context.Context, struct{}) (map[string]sealedPage, error) { return nil, nil })
		}, "vurb: vurb_test.sealedPage (at *) marshals itself"},
		{"a tag's redaction, no presenter, pointer receiver", false, func(app *vurb.App) {
			vurb.Query(app, "x.get", func(context.Context, struct{}) ([]sealedCustomers, error) { return nil, nil })
		}, "vurb: vurb_test.sealedCustomers (at []) marshals itself (MarshalJSON or MarshalText), so vurb cannot redact what it holds, " +
			"and its customers[].email is redacted by its redact tag in vurb_test.Customer"},
		{"a tag's redaction under MarshalText", false, func(app *vurb.App) {
			vurb.Query(app, "x.get", func(context.Context, struct{}) (textCustomer, error) { return textCustomer{}, nil })
		}, "vurb: vurb_test.textCustomer marshals itself (MarshalJSON or MarshalText), so vurb cannot redact what it holds, " +
			"and its Who.email is redacted by its redact tag in vurb_test.Customer"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var opts []vurb.Option
			if c.present {
				opts = append(opts, vurb.WithPresenters(invoicePresenter(10)))
			}
			app := vurb.New(opts...)
			c.declare(app)
			msg := mustPanic(t, func() { app.Build() })
			if !strings.HasPrefix(msg, c.want) {
				t.Fatalf("panic %q\nwant  %q", msg, c.want)
			}
		})
	}
}

// heldApp returns values whose redactions only the call reveals: behind
// an interface, in a map of interfaces, and in the payload of a type that
// marshals itself. With presented, the app also presents invoices.
func heldApp(format vurb.ResultFormat, presented bool) *vurb.App {
	opts := []vurb.Option{vurb.WithResultFormat(format), vurb.WithLogger(slog.New(slog.DiscardHandler))}
	if presented {
		opts = append(opts, vurb.WithPresenters(invoicePresenter(10)))
	}
	app := vurb.New(opts...)
	customer := *invoices(1)[0].Customer
	vurb.Query(app, "held.any", func(context.Context, struct{}) (any, error) { return customer, nil })
	vurb.Query(app, "held.map", func(context.Context, struct{}) (map[string]any, error) {
		return map[string]any{"owner": &customer, "count": 1}, nil
	})
	vurb.Query(app, "held.envelope", func(context.Context, struct{}) (sealedEnvelope, error) {
		return sealedEnvelope{Kind: "customer", Payload: []any{customer}}, nil
	})
	vurb.Query(app, "held.plain_envelope", func(context.Context, struct{}) (sealedEnvelope, error) {
		return sealedEnvelope{Kind: "note", Payload: map[string]any{"text": "hello"}}, nil
	})
	vurb.Query(app, "held.page", func(context.Context, struct{}) (any, error) {
		return sealedPage{Items: invoices(2)}, nil
	})
	return app
}

// TestRedactionHeldBehindInterfaces: through a real go-sdk client, in
// memory and over HTTP, on both protocol generations, in JSON, TOON and a
// format that prints Go values, a redact-tagged value behind an interface
// is redacted even in an app with no presenter and no tag in its result
// types; one inside a type that marshals itself fails the call (vurb
// cannot redact what the method writes); and nothing redacted reaches the
// text, the structuredContent or the error.
func TestRedactionHeldBehindInterfaces(t *testing.T) {
	dump := vurb.NewResultFormat("dump", func(v any) (string, error) { return fmt.Sprintf("%#v", v), nil })
	for _, transport := range []string{"memory", "http"} {
		for _, protocol := range []string{vurbtest.DefaultProtocol, vurbtest.Sessionless} {
			for fname, format := range map[string]vurb.ResultFormat{"json": vurb.JSONResults(), "toon": vurb.TOONResults(), "dump": dump} {
				for _, presented := range []bool{false, true} {
					t.Run(fmt.Sprintf("%s/%s/%s/presented=%v", transport, protocol, fname, presented), func(t *testing.T) {
						is := is.New(t)
						opts := []vurbtest.Option{vurbtest.Protocol(protocol)}
						if transport == "http" {
							opts = append(opts, vurbtest.OverHTTP())
						}
						c := vurbtest.New(t, heldApp(format, presented), opts...)
						for _, tool := range []string{"held_any", "held_map"} {
							res, err := c.CallResult(tool, nil)
							is.NoErr(err)
							is.True(!res.IsError)
							wire := wireJSON(t, res)
							noSecret(t, tool, wire)
							is.True(strings.Contains(wire, "[redacted]")) // the email is there, as its marker
						}
						for _, tool := range []string{"held_envelope", "held_page"} {
							res, err := c.CallResult(tool, nil)
							is.NoErr(err)
							is.True(res.IsError)
							noSecret(t, tool, wireJSON(t, res))
							is.True(strings.Contains(vurbtest.Text(res), "internal error (ref "))
						}
						is.True(strings.Contains(c.CallText("held_plain_envelope", nil), "hello")) // its method writes it
					})
				}
			}
		}
	}
}

// TestRedactionHeldKeepsPlainResults: in an app with no presenter and no
// redact tag, a result that holds no redacted value behind its interfaces
// is written exactly as without presenters, in the app's format.
func TestRedactionHeldKeepsPlainResults(t *testing.T) {
	is := is.New(t)
	dump := vurb.NewResultFormat("dump", func(v any) (string, error) { return fmt.Sprintf("%#v", v), nil })
	app := vurb.New(vurb.WithResultFormat(dump))
	vurb.Query(app, "plain.map", func(context.Context, struct{}) (map[string]any, error) {
		return map[string]any{"n": 1.5, "s": "x"}, nil
	})
	vurb.Query(app, "plain.any", func(context.Context, struct{}) (any, error) { return []int{1, 2}, nil })
	is.Equal(textOf(callOK(t, app, "plain_map", `{}`), 0), `map[string]interface {}{"n":1.5, "s":"x"}`)
	is.Equal(textOf(callOK(t, app, "plain_any", `{}`), 0), `[]int{1, 2}`)
}
