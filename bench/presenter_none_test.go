package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/vurb-go/vurb"
)

// What an app without presenters pays for them: nothing on its calls. The
// benchmarks of this file use no presenter API, so that the same file
// runs against vurb before presenters existed (see README.md, "Presenters
// cost nothing without presenters"); BenchmarkPresenterPaired
// (presenter_test.go) compares apps with and without presenters in one
// loop.

// PresRow is one row of the struct result the presenter benchmarks return.
type PresRow struct {
	ID     string `json:"id"`
	Amount int    `json:"amount_cents"`
	Status string `json:"status"`
	Card   string `json:"card"`
}

// PresPage is the struct result: an object (so structuredContent too) of
// presRows rows.
type PresPage struct {
	Rows  []PresRow `json:"rows"`
	Total int       `json:"total"`
}

const presRows = 10

var presPage = func() PresPage {
	p := PresPage{Total: presRows}
	for i := range presRows {
		p.Rows = append(p.Rows, PresRow{ID: fmt.Sprint("R-", i), Amount: 100 * i, Status: "open", Card: "4111"})
	}
	return p
}()

// presApp is an app of 10 Search actions (defineApp) plus rows.list, which
// returns presPage; opts configure it.
func presApp(opts ...vurb.Option) *vurb.App {
	app, _, _ := defineApp(10, vurb.Flat, opts...)
	vurb.Query(app, "rows.list", func(context.Context, Search) (PresPage, error) { return presPage, nil })
	return app
}

// presCall is one in-process call of rows.list.
func presCall(app *vurb.App) func() error {
	return func() error {
		res, err := app.Call(context.Background(), "rows_list", searchArgs)
		if err == nil && res.IsError {
			err = fmt.Errorf("tool error")
		}
		return err
	}
}

// BenchmarkPresenterNone is a call of an app with no presenter: a struct
// result (JSON text and structuredContent), and the string result of
// every other benchmark. Run it here and against vurb before presenters
// with the same file; the two must not differ.
func BenchmarkPresenterNone(b *testing.B) {
	app := presApp()
	app.Build()
	b.Run("result=struct", func(b *testing.B) {
		call := presCall(app)
		if err := call(); err != nil {
			b.Fatal(err)
		}
		want, _ := json.Marshal(presPage)
		if res, _ := app.Call(context.Background(), "rows_list", searchArgs); resultText(res) != string(want) {
			b.Fatalf("unexpected result %q", resultText(res))
		}
		b.ReportAllocs()
		for b.Loop() {
			_ = call()
		}
	})
	b.Run("result=string", func(b *testing.B) {
		_, name, args := defineApp(10, vurb.Flat)
		checkResult(b, app, name, args)
		b.ReportAllocs()
		for b.Loop() {
			_, _ = app.Call(context.Background(), name, args)
		}
	})
}
