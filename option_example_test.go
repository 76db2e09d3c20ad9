package vurb_test

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/go-playground/validator/v10"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb"
)

type Restock struct {
	SKU string `json:"sku" validate:"required,sku" description:"Stock-keeping unit, like AB-1234"`
}

func ExampleWithRule() {
	sku := regexp.MustCompile(`^[A-Z]{2}-\d{4}$`)
	app := vurb.New(vurb.WithRule("sku",
		func(fl validator.FieldLevel) bool { return sku.MatchString(fl.Field().String()) },
		"must be an SKU like AB-1234"))
	vurb.Action(app, "stock.restock", func(_ context.Context, in Restock) (string, error) {
		return "restocking " + in.SKU, nil
	})
	for _, args := range []string{`{"sku":"AB-1234"}`, `{"sku":"ab1234"}`} {
		res, _ := app.Call(context.Background(), "stock_restock", json.RawMessage(args))
		fmt.Println(res.Content[0].(*mcp.TextContent).Text)
	}
	// Output:
	// restocking AB-1234
	// [stock_restock] invalid arguments: sku: must be an SKU like AB-1234
}

func ExampleWithMessages() {
	app := vurb.New(vurb.WithExposition(vurb.Grouped),
		vurb.WithMessages(vurb.Messages{UnknownAction: "No action %q here; pick one of: %s"}))
	vurb.Query(app, "stock.count", func(context.Context, struct{}) (int, error) { return 42, nil })
	res, _ := app.Call(context.Background(), "stock", json.RawMessage(`{"action":"cuont"}`))
	fmt.Println(res.Content[0].(*mcp.TextContent).Text)
	// Output:
	// No action "cuont" here; pick one of: count (did you mean "count"?)
}

func ExampleNewResultFormat() {
	// One "key=value" line per field of a flat map: a format of one's own.
	lines := vurb.NewResultFormat("lines", func(v any) (string, error) {
		data, err := json.Marshal(v)
		if err != nil {
			return "", err
		}
		var m map[string]any
		if err := json.Unmarshal(data, &m); err != nil {
			return string(data), nil // not an object: JSON will do
		}
		var b strings.Builder
		for _, k := range []string{"sku", "count"} {
			fmt.Fprintf(&b, "%s=%v\n", k, m[k])
		}
		return b.String(), nil
	})
	app := vurb.New(vurb.WithResultFormat(lines))
	type Level struct {
		SKU   string `json:"sku"`
		Count int    `json:"count"`
	}
	vurb.Query(app, "stock.level", func(context.Context, struct{}) (Level, error) { return Level{"AB-1234", 7}, nil })
	res, _ := app.Call(context.Background(), "stock_level", nil)
	fmt.Print(res.Content[0].(*mcp.TextContent).Text)
	fmt.Println(string(res.StructuredContent.(json.RawMessage)))
	// Output:
	// sku=AB-1234
	// count=7
	// {"sku":"AB-1234","count":7}
}
