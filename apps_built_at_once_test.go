package vurb_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/go-playground/validator/v10"
	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/vurb-go/vurb"
)

// TestAppsBuiltAtOnce: apps declared, built and called from several
// goroutines at once share nothing (the race detector watches), and each
// lists and answers exactly what the same app built alone does, whatever
// the others declared (a custom rule, another exposition).
func TestAppsBuiltAtOnce(t *testing.T) {
	is := is.New(t)
	type variant struct {
		opts       func() []vurb.Option
		name, args string // a call to projects.list
	}
	variants := []variant{
		{func() []vurb.Option { return nil }, "projects_list", `{"workspace_id":"w"}`},
		{func() []vurb.Option { return []vurb.Option{vurb.WithExposition(vurb.Grouped)} },
			"projects", `{"action":"list","workspace_id":"w"}`},
		{func() []vurb.Option {
			return []vurb.Option{vurb.WithRule("sku", func(fl validator.FieldLevel) bool { return true }, "is no SKU")}
		}, "projects_list", `{"workspace_id":"w"}`},
	}
	type seen struct{ tools, answer string }
	look := func(v variant) seen {
		app := newFixture(v.opts()...)
		app.Build()
		tools, err := json.Marshal(app.Tools())
		if err != nil {
			return seen{tools: err.Error()}
		}
		res, err := app.Call(context.Background(), v.name, json.RawMessage(v.args))
		if err != nil {
			return seen{tools: string(tools), answer: err.Error()}
		}
		return seen{tools: string(tools), answer: text(res)}
	}
	want := make([]seen, len(variants))
	for i, v := range variants {
		want[i] = look(v)
		is.Equal(want[i].answer, `{"projects":[{"id":"p1","name":"Apollo"}]}`)
	}

	const rounds = 4
	got := make([]seen, rounds*len(variants))
	var wg sync.WaitGroup
	for r := range rounds {
		for i, v := range variants {
			wg.Go(func() { got[r*len(variants)+i] = look(v) })
		}
	}
	wg.Wait()
	for k, g := range got {
		is.Equal(g, want[k%len(variants)])
	}
}

// TestAppsBuiltAtOnceLogTheirOwnFailures: a helper's encoding failure is
// logged by the app whose handler returned it, however many apps call at
// once.
func TestAppsBuiltAtOnceLogTheirOwnFailures(t *testing.T) {
	is := is.New(t)
	const n = 6
	logs := make([]bytes.Buffer, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			app := vurb.New(vurb.WithLogger(slog.New(slog.NewTextHandler(&logs[i], nil))))
			vurb.Query(app, "jobs.report", func(context.Context, noInput) (*mcp.CallToolResult, error) {
				return vurb.JSON(map[string]any{"ch": make(chan int)}), nil
			})
			for range 3 {
				if _, err := app.Call(context.Background(), "jobs_report", json.RawMessage(`{}`)); err != nil {
					logs[i].WriteString("call failed: " + err.Error())
				}
			}
		})
	}
	wg.Wait()
	for i := range logs {
		is.Equal(strings.Count(logs[i].String(), "unsupported type: chan int"), 3)
	}
}
