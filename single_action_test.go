package vurb_test

import (
	"context"
	"strings"
	"testing"

	"github.com/matryer/is"
	"github.com/vurb-go/vurb"
)

type Greeting struct {
	Name string `json:"name" validate:"required" description:"Who to greet"`
}

func greet(_ context.Context, in Greeting) (string, error) { return "Hello, " + in.Name + "!", nil }

// A one-word name given to the app declares a tool that is one action:
// its wire name is the tool's in either exposition, and its errors read
// "[greet] ...".
func TestToolThatIsOneAction(t *testing.T) {
	for _, exp := range []vurb.Exposition{vurb.Flat, vurb.Grouped} {
		t.Run(exp.String(), func(t *testing.T) {
			is := is.New(t)
			app := vurb.New(vurb.WithExposition(exp))
			vurb.Query(app, "greet", greet).Describe("Greets by name")
			vurb.Query(app, "docs.search", search)
			tools := app.Tools()
			is.Equal(tools[0].Name, "greet")
			is.Equal(tools[0].Description, "Read-only: Greets by name")
			is.True(!strings.Contains(mustJSON(t, tools[0].InputSchema), `"action"`)) // nothing to choose
			is.Equal(text(call(t, app, "greet", `{"name":"World"}`)), "Hello, World!")
			is.Equal(text(call(t, app, "greet", `{}`)), "[greet] invalid arguments: name: is required")
			cs := connect(t, app, nil)
			res, err := callRaw(t, cs, "greet", `{"name":"MCP"}`)
			is.NoErr(err)
			is.Equal(text(res), "Hello, MCP!")
		})
	}
}

func TestToolThatIsOneActionStaysOne(t *testing.T) {
	is := is.New(t)
	for _, f := range map[string]func(app *vurb.App){
		"action after":  func(app *vurb.App) { vurb.Query(app, "greet", greet); vurb.Query(app, "greet.loudly", greet) },
		"action before": func(app *vurb.App) { vurb.Query(app, "greet.loudly", greet); vurb.Query(app, "greet", greet) },
	} {
		func() {
			defer func() {
				r, _ := recover().(string)
				is.True(strings.Contains(r, "single action"))
			}()
			f(vurb.New())
		}()
	}
}
