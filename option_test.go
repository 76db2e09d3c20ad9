package vurb_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-playground/validator/v10"
	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/schema"
)

// Configuration is per app: two apps in one process, served at once, each
// answer with their own texts and their own rules.

type Order struct {
	SKU string `json:"sku" validate:"required,sku" description:"Stock-keeping unit"`
}

func TestMessagesAndRulesPerApp(t *testing.T) {
	is := is.New(t)
	skuAB := func(fl validator.FieldLevel) bool {
		return regexp.MustCompile(`^AB-\d{4}$`).MatchString(fl.Field().String())
	}
	skuXY := func(fl validator.FieldLevel) bool { return strings.HasPrefix(fl.Field().String(), "XY") }
	order := func(_ context.Context, in Order) (string, error) { return "ordered " + in.SKU, nil }
	english := vurb.New(vurb.WithRule("sku", skuAB, "must be an SKU like AB-1234"))
	vurb.Action(english, "shop.order", order)
	schemaFR := schema.DefaultMessages()
	schemaFR.Required = "est obligatoire"
	french := vurb.New(
		vurb.WithRule("sku", skuXY, "doit commencer par XY"),
		vurb.WithMessages(vurb.Messages{UnknownTool: "outil inconnu %q", Schema: schemaFR}),
	)
	vurb.Action(french, "shop.order", order)

	en, fr := connect(t, english, nil), connect(t, french, nil)
	var wg sync.WaitGroup
	for range 20 { // concurrently, so that -race sees shared state if any
		wg.Go(func() {
			res, err := callRaw(t, en, "shop_order", `{"sku":"XY-1"}`)
			is.NoErr(err)
			is.Equal(text(res), "[shop_order] invalid arguments: sku: must be an SKU like AB-1234")
			res, err = callRaw(t, fr, "shop_order", `{"sku":"AB-1234"}`)
			is.NoErr(err)
			is.Equal(text(res), "[shop_order] invalid arguments: sku: doit commencer par XY")
		})
	}
	wg.Wait()

	res, err := callRaw(t, en, "shop_order", `{"sku":"AB-1234"}`)
	is.NoErr(err)
	is.Equal(text(res), "ordered AB-1234")
	res, err = callRaw(t, fr, "shop_order", `{}`)
	is.NoErr(err)
	is.Equal(text(res), "[shop_order] invalid arguments: sku: est obligatoire")
	res, err = callRaw(t, en, "shop_order", `{}`)
	is.NoErr(err)
	is.Equal(text(res), "[shop_order] invalid arguments: sku: is required")

	_, err = callRaw(t, fr, "shop_cancel", `{}`)
	is.True(err != nil && strings.Contains(err.Error(), `outil inconnu "shop_cancel"`))
	_, err = callRaw(t, en, "shop_cancel", `{}`)
	is.True(err != nil && strings.Contains(err.Error(), `unknown tool "shop_cancel"`))
}

func TestWithRuleRefusesABuiltInRule(t *testing.T) {
	defer func() {
		r := recover()
		is.New(t).True(r != nil && strings.Contains(r.(string), `vurb: WithRule("min")`))
	}()
	vurb.New(vurb.WithRule("min", func(validator.FieldLevel) bool { return true }, "never"))
}

func TestMessagesTakenAtNew(t *testing.T) {
	is := is.New(t)
	app := vurb.New(vurb.WithTimeout(10*time.Millisecond), vurb.WithMessages(vurb.Messages{Timeout: "took over %s"}))
	vurb.Query(app, "slow.wait", func(ctx context.Context, _ noInput) (string, error) {
		<-ctx.Done()
		return "", ctx.Err()
	})
	is.Equal(text(call(t, app, "slow_wait", `{}`)), "[slow_wait] took over 10ms")
}

// TestEncodeFailureOfAHelperIsAnInternalError: vurb.JSON cannot see the
// call, yet its failure is logged by the app's logger with the reference
// the client receives.
func TestEncodeFailureOfAHelperIsAnInternalError(t *testing.T) {
	is := is.New(t)
	var logs bytes.Buffer
	app := vurb.New(vurb.WithLogger(slog.New(slog.NewTextHandler(&logs, nil))))
	vurb.Query(app, "jobs.report", func(context.Context, noInput) (*mcp.CallToolResult, error) {
		return vurb.JSON(map[string]any{"ch": make(chan int)}), nil
	})
	res := call(t, app, "jobs_report", `{}`)
	is.True(res.IsError)
	m := regexp.MustCompile(`^\[jobs_report\] internal error \(ref (\w+)\); the server has logged the details$`).FindStringSubmatch(text(res))
	is.True(m != nil)
	is.True(strings.Contains(logs.String(), "ref="+m[1]))
	is.True(strings.Contains(logs.String(), "unsupported type: chan int"))
	is.True(!strings.Contains(text(res), "chan"))
}

// TestFilteredViewsReuseTheCompiledChains: a server that exposes only some
// of a grouped tool's actions lists a tool over those, and runs the chains
// composed at Build: no middleware constructor runs again.
func TestFilteredViewsReuseTheCompiledChains(t *testing.T) {
	is := is.New(t)
	var built int
	counting := func(next vurb.Handler) vurb.Handler {
		built++
		return next
	}
	app := vurb.New(vurb.WithExposition(vurb.Grouped))
	app.Use(counting)
	tasks := app.Tool("tasks")
	vurb.Query(tasks, "list", ok[noInput]("listed")).Tags("read")
	vurb.Mutation(tasks, "purge", ok[noInput]("purged")).Tags("write")
	app.Build()
	is.Equal(built, 2) // once per action

	for range 3 {
		cs := connect(t, app, nil, vurb.WithIncludeTags("read"))
		res, err := cs.ListTools(context.Background(), nil)
		is.NoErr(err)
		is.Equal(len(res.Tools), 1)
		schemaText, _ := res.Tools[0].InputSchema.(map[string]any)
		is.True(!strings.Contains(mustJSON(t, schemaText), "purge")) // the view lists only what it allows
		got, err := callRaw(t, cs, "tasks", `{"action":"list"}`)
		is.NoErr(err)
		is.Equal(text(got), "listed")
		got, err = callRaw(t, cs, "tasks", `{"action":"purge"}`)
		is.NoErr(err)
		is.True(got.IsError && strings.HasPrefix(text(got), `Unknown action "purge". Available: list`))
	}
	is.Equal(built, 2) // and never again
}

func TestHTTPSettingsOutsideHTTPPanic(t *testing.T) {
	app := vurb.New()
	vurb.Query(app, "docs.search", search)
	for name, f := range map[string]func(){
		"NewServer": func() { app.NewServer(vurb.WithStateless()) },
		"Attach":    func() { app.Attach(mcp.NewServer(&mcp.Implementation{Name: "s"}, nil), vurb.WithAllowedHosts("a")) },
		"Serve":     func() { _ = app.Serve(context.Background(), vurb.Stdio(), vurb.WithJSONResponse()) },
	} {
		t.Run(name, func(t *testing.T) {
			defer func() {
				r, _ := recover().(string)
				is.New(t).True(strings.Contains(r, "only apply to HTTP; pass them to HTTPHandler or ListenAndServe"))
			}()
			f()
		})
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
