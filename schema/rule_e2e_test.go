package schema_test

import (
	"context"
	"encoding/json"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/go-playground/validator/v10"
	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/schema"
)

type order struct {
	SKU     string `json:"sku" validate:"required,sku"`
	Country string `json:"country,omitempty" validate:"omitempty,country"`
}

// serveOrder serves one tool whose schema and decoding are c's to a real
// go-sdk client, and returns the client's session.
func serveOrder(t *testing.T, c *schema.Codec) *mcp.ClientSession {
	t.Helper()
	server := mcp.NewServer(&mcp.Implementation{Name: "shop", Version: "1.0.0"}, nil)
	server.AddTool(&mcp.Tool{Name: "order", InputSchema: c.Schema()}, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var in order
		if err := c.Decode(req.Params.Arguments, &in, schema.DecodeOptions{}); err != nil {
			return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: err.Error()}}}, nil
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ordered " + in.SKU}}}, nil
	})
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "client", Version: "1.0.0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
	})
	return cs
}

// TestCustomRuleEndToEnd: what a custom rule adds to the schema reaches a
// go-sdk client in tools/list, and its refusal reads its author's text;
// two Validators in one process state and enforce their own rules.
func TestCustomRuleEndToEnd(t *testing.T) {
	is := is.New(t)
	pattern := func(re string) validator.Func {
		rx := regexp.MustCompile(re)
		return func(fl validator.FieldLevel) bool { return rx.MatchString(fl.Field().String()) }
	}
	ab := schema.NewValidator(nil)
	is.NoErr(ab.RegisterRule("sku", pattern(`^AB-\d{4}$`), "must be an SKU like AB-1234", schema.RulePattern(`^AB-\d{4}$`)))
	is.NoErr(ab.RegisterRule("country", pattern(`^[A-Z]{2}$`), "must be a country code like FR"))
	xy := schema.NewValidator(nil)
	is.NoErr(xy.RegisterRule("sku", pattern(`^XY`), "doit commencer par XY", schema.RuleNote("Commence par XY.")))
	is.NoErr(xy.RegisterRule("country", pattern(`^[a-z]{2}$`), "", schema.RuleEnum("fr", "de")))

	for _, tc := range []struct {
		v                *schema.Validator
		sku, country     string // the property schemas listed
		bad, badAnswer   string
		good, goodAnswer string
	}{
		{ab, `{"type":"string","pattern":"^AB-\\d{4}$","minLength":1}`,
			`{"type":"string","description":"Must be a country code like FR."}`,
			`{"sku":"XY-1","country":"fr"}`, "sku: must be an SKU like AB-1234; country: must be a country code like FR",
			`{"sku":"AB-1234"}`, "ordered AB-1234"},
		{xy, `{"type":"string","description":"Commence par XY.","minLength":1}`,
			`{"type":"string","enum":["fr","de"]}`,
			`{"sku":"AB-1234","country":"FR"}`, `sku: doit commencer par XY; country: must satisfy the "country" rule`,
			`{"sku":"XY-1","country":"de"}`, "ordered XY-1"},
	} {
		cs := serveOrder(t, tc.v.CodecFor(reflect.TypeFor[order]()))
		list, err := cs.ListTools(context.Background(), nil)
		is.NoErr(err)
		props := list.Tools[0].InputSchema.(map[string]any)["properties"].(map[string]any)
		got, _ := json.Marshal(props["sku"])
		is.Equal(sortedJSON(t, got), sortedJSON(t, []byte(tc.sku)))
		got, _ = json.Marshal(props["country"])
		is.Equal(sortedJSON(t, got), sortedJSON(t, []byte(tc.country)))
		for args, want := range map[string]string{tc.bad: tc.badAnswer, tc.good: tc.goodAnswer} {
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "order", Arguments: json.RawMessage(args)})
			is.NoErr(err)
			is.Equal(res.Content[0].(*mcp.TextContent).Text, want)
			is.Equal(res.IsError, strings.HasPrefix(want, "sku:"))
		}
	}
}

func sortedJSON(t *testing.T, raw []byte) string {
	t.Helper()
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	out, _ := json.Marshal(v)
	return string(out)
}
