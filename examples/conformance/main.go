// Command conformance is the server the official MCP conformance suite
// (@modelcontextprotocol/conformance, "server" mode) tests, written with
// vurb alone: every tool, prompt, resource and server-to-client request the
// suite's active scenarios exercise, under the exact names they expect. It
// doubles as a tour of vurb's session powers: progress, client logging,
// sampling and elicitation from inside a handler.
//
// It serves stdio by default and stateful streamable HTTP at
// http://ADDR/mcp with -http ADDR. The suite needs sessions (for sampling,
// elicitation and the session lifecycle) and a loopback address (for the
// DNS-rebinding check), so serve it on 127.0.0.1.
//
//	go run .                      # stdio (from examples/conformance)
//	go run . -http 127.0.0.1:3001 # http://127.0.0.1:3001/mcp
//	scripts/conformance.sh        # runs the suite against it
//
// With -redis redis://HOST:PORT it keeps its tasks and its handshake-era
// sessions in that Redis (redisstate), and seals request state with a key
// every replica shares (-state-key, 32 bytes in hex; without it a key is
// derived from the -redis URL, which is for tests only: anyone who knows
// the URL knows the key). Several processes started so behind one load
// balancer are the replicas of one server; scripts/replicas.sh runs the
// suite through HAProxy in front of three of them (issue #30). It is a
// module of its own, so that vurb's go.mod never lists a Redis client.
//
// In vurb's flat exposition the dotted action "test.simple_text" is the MCP
// tool "test_simple_text": the names below are the suite's.
package main

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/redis/go-redis/v9"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/redisstate"
	"github.com/vurb-go/vurb/schema/jsonschema"
)

// The suite's test media: a 1×1 PNG and a silent WAV.
var (
	pngData = mustBase64("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==")
	wavData = mustBase64("UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=")
)

func mustBase64(s string) []byte {
	data, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		panic(err)
	}
	return data
}

// WatchedResource is the resource clients subscribe to; main announces an
// update of it every few seconds.
const WatchedResource = "test://watched-resource"

// NewApp declares the server, with opts after its own. It is separate from
// main so tests can call it.
func NewApp(opts ...vurb.Option) *vurb.App {
	app := vurb.New(append([]vurb.Option{
		vurb.WithName("vurb-conformance"),
		vurb.WithVersion("1.0.0"),
		vurb.WithInstructions("Test server for the MCP conformance suite."),
	}, opts...)...)
	declareTools(app)
	declareInputTools(app)
	declareTaskTools(app)
	declarePrompts(app)
	declareInputPrompt(app)
	declareResources(app)
	declareSkills(app)
	return app
}

// ---------------------------------------------------------------------------
// Tools
// ---------------------------------------------------------------------------

// SamplingInput is test_sampling's input.
type SamplingInput struct {
	Prompt string `json:"prompt" validate:"required" description:"The prompt to send to the client's model"`
}

// ElicitationInput is test_elicitation's input.
type ElicitationInput struct {
	Message string `json:"message" validate:"required" description:"The message to show the user"`
}

func declareTools(app *vurb.App) {
	// Content types. A handler that returns *mcp.CallToolResult controls the
	// content blocks itself; one that returns a string gets one text block.
	vurb.Query(app, "test.simple_text", func(context.Context, struct{}) (string, error) {
		return "This is a simple text response for testing.", nil
	}).Describe("Returns a simple text response")

	vurb.Query(app, "test.image_content", func(context.Context, struct{}) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{
			&mcp.ImageContent{Data: pngData, MIMEType: "image/png"},
		}}, nil
	}).Describe("Returns an image (a 1x1 PNG)")

	vurb.Query(app, "test.audio_content", func(context.Context, struct{}) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{
			&mcp.AudioContent{Data: wavData, MIMEType: "audio/wav"},
		}}, nil
	}).Describe("Returns audio (a silent WAV)")

	vurb.Query(app, "test.embedded_resource", func(context.Context, struct{}) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{
			&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{
				URI: "test://embedded-resource", MIMEType: "text/plain", Text: "This is an embedded resource content.",
			}},
		}}, nil
	}).Describe("Returns an embedded text resource")

	vurb.Query(app, "test.multiple_content_types", func(context.Context, struct{}) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{
			&mcp.TextContent{Text: "Multiple content types test:"},
			&mcp.ImageContent{Data: pngData, MIMEType: "image/png"},
			&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{
				URI: "test://mixed-content-resource", MIMEType: "application/json", Text: `{"test":"data","value":123}`,
			}},
		}}, nil
	}).Describe("Returns text, an image and an embedded resource in one result")

	// Session powers: they reach the client through the call's context.
	vurb.Query(app, "test.tool_with_logging", func(ctx context.Context, _ struct{}) (string, error) {
		for i, msg := range []string{"Tool execution started", "Tool processing data", "Tool execution completed"} {
			if i > 0 {
				if err := sleep(ctx, 50*time.Millisecond); err != nil {
					return "", err
				}
			}
			// Sent only once the client has chosen a level (logging/setLevel).
			if err := vurb.Log(ctx, "info", msg); err != nil {
				return "", err
			}
		}
		return "Tool with logging executed successfully", nil
	}).Describe("Sends three log messages to the client while it runs")

	vurb.Query(app, "test.tool_with_progress", func(ctx context.Context, _ struct{}) (string, error) {
		const total = 100
		for i, p := range []float64{0, 50, 100} {
			if i > 0 {
				if err := sleep(ctx, 50*time.Millisecond); err != nil {
					return "", err
				}
			}
			// A no-op unless the client sent a progress token.
			if err := vurb.Progress(ctx, p, total, fmt.Sprintf("Completed step %.0f of %d", p, total)); err != nil {
				return "", err
			}
		}
		return "Progress reported: 0, 50 and 100 of 100", nil
	}).Describe("Reports progress (0, 50, 100 of 100) while it runs")

	vurb.Query(app, "test.error_handling", func(context.Context, struct{}) (string, error) {
		// A Go error becomes a tool result with isError set, which the model
		// reads; it is not a protocol error.
		return "", errors.New("this tool intentionally returns an error for testing")
	}).Describe("Always fails, with an error the model can read")

	vurb.Action(app, "test.sampling", func(ctx context.Context, in SamplingInput) (string, error) {
		res, err := vurb.AskSampling(ctx, "completion", &mcp.CreateMessageParams{
			Messages: []*mcp.SamplingMessage{
				{Role: "user", Content: &mcp.TextContent{Text: in.Prompt}},
			},
			MaxTokens: 100,
		})
		if err != nil {
			return "", fmt.Errorf("sampling failed: %w", err)
		}
		text := "(non-text response)"
		if tc, ok := res.Content.(*mcp.TextContent); ok {
			text = tc.Text
		}
		return "LLM response: " + text, nil
	}).Describe("Asks the client's model to complete a prompt (sampling)")

	vurb.Action(app, "test.elicitation", func(ctx context.Context, in ElicitationInput) (string, error) {
		res, err := vurb.AskElicitation(ctx, "user_info", &mcp.ElicitParams{
			Message: in.Message,
			RequestedSchema: object(props{
				"username": {"type": "string", "description": "User's response"},
				"email":    {"type": "string", "description": "User's email address"},
			}, "username", "email"),
		})
		if err != nil {
			return "", fmt.Errorf("elicitation failed: %w", err)
		}
		return elicited(res), nil
	}).Describe("Asks the user for a username and an email (elicitation)")

	vurb.Action(app, "test.elicitation_sep1034_defaults", func(ctx context.Context, _ struct{}) (string, error) {
		res, err := vurb.AskElicitation(ctx, "defaults", &mcp.ElicitParams{
			Message: "Please review and update the form fields with defaults",
			RequestedSchema: object(props{
				"name":     {"type": "string", "description": "User name", "default": "John Doe"},
				"age":      {"type": "integer", "description": "User age", "default": 30},
				"score":    {"type": "number", "description": "User score", "default": 95.5},
				"status":   {"type": "string", "description": "User status", "enum": []string{"active", "inactive", "pending"}, "default": "active"},
				"verified": {"type": "boolean", "description": "Verification status", "default": true},
			}),
		})
		if err != nil {
			return "", fmt.Errorf("elicitation failed: %w", err)
		}
		return elicited(res), nil
	}).Describe("Elicitation whose fields carry default values (SEP-1034)")

	vurb.Action(app, "test.elicitation_sep1330_enums", func(ctx context.Context, _ struct{}) (string, error) {
		titled := []map[string]string{
			{"const": "value1", "title": "First Option"},
			{"const": "value2", "title": "Second Option"},
			{"const": "value3", "title": "Third Option"},
		}
		options := []string{"option1", "option2", "option3"}
		res, err := vurb.AskElicitation(ctx, "choices", &mcp.ElicitParams{
			Message: "Please select options from the enum fields",
			RequestedSchema: object(props{
				// Single choice, without and with titles.
				"untitledSingle": {"type": "string", "description": "Select one option", "enum": options},
				"titledSingle":   {"type": "string", "description": "Select one option with titles", "oneOf": titled},
				// The pre-SEP-1330 form: enum plus enumNames.
				"legacyEnum": {"type": "string", "description": "Select one option (legacy)",
					"enum": []string{"opt1", "opt2", "opt3"}, "enumNames": []string{"Option One", "Option Two", "Option Three"}},
				// Multiple choice, without and with titles.
				"untitledMulti": {"type": "array", "description": "Select multiple options", "minItems": 1, "maxItems": 3,
					"items": map[string]any{"type": "string", "enum": options}},
				"titledMulti": {"type": "array", "description": "Select multiple options with titles", "minItems": 1, "maxItems": 3,
					"items": map[string]any{"anyOf": titled}},
			}),
		})
		if err != nil {
			return "", fmt.Errorf("elicitation failed: %w", err)
		}
		return elicited(res), nil
	}).Describe("Elicitation with single- and multi-select enums, titled and untitled (SEP-1330)")

	// A hand-written JSON Schema 2020-12 input, published as given and
	// enforced before the handler runs (SEP-1613, SEP-2106).
	vurb.Action(app, "json.schema_2020_12_tool", func(_ context.Context, in json.RawMessage) (string, error) {
		return "Received: " + string(in), nil
	}).Describe("Takes a contact whose input schema is hand-written JSON Schema 2020-12").
		InputSchema(jsonschema.MustCodec(json.RawMessage(ContactSchema)))
}

// ContactSchema is json_schema_2020_12_tool's input schema, as the suite
// expects it: $schema, $defs with an $anchor, a $ref, allOf/anyOf,
// if/then/else and a closed object.
const ContactSchema = `{
	"$schema": "https://json-schema.org/draft/2020-12/schema",
	"type": "object",
	"$defs": {
		"address": {
			"$anchor": "addressDef",
			"type": "object",
			"properties": {"street": {"type": "string"}, "city": {"type": "string"}}
		}
	},
	"properties": {
		"name": {"type": "string"},
		"address": {"$ref": "#/$defs/address"},
		"contactMethod": {"type": "string", "enum": ["phone", "email"]},
		"phone": {"type": "string"},
		"email": {"type": "string"}
	},
	"allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
	"if": {"properties": {"contactMethod": {"const": "phone"}}, "required": ["contactMethod"]},
	"then": {"required": ["phone"]},
	"else": {"required": ["email"]},
	"additionalProperties": false
}`

// props are the properties of an elicitation schema: elicitation forms are
// flat objects of primitive (or enum-array) fields.
type props map[string]map[string]any

func object(p props, required ...string) map[string]any {
	s := map[string]any{"type": "object", "properties": p}
	if len(required) > 0 {
		s["required"] = required
	}
	return s
}

// elicited says what the user answered.
func elicited(res *mcp.ElicitResult) string {
	switch res.Action {
	case "accept":
		data, _ := json.Marshal(res.Content)
		return "User provided: " + string(data)
	case "decline":
		return "User declined the request"
	default:
		return "User cancelled the request"
	}
}

// sleep waits d, or less when the call is cancelled or times out.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// ---------------------------------------------------------------------------
// Prompts
// ---------------------------------------------------------------------------

// PromptArgs are test_prompt_with_arguments' arguments.
type PromptArgs struct {
	Arg1 string `json:"arg1" validate:"required" description:"First test argument"`
	Arg2 string `json:"arg2" validate:"required" description:"Second test argument"`
}

// EmbeddedResourceArgs are test_prompt_with_embedded_resource's arguments.
type EmbeddedResourceArgs struct {
	ResourceURI string `json:"resourceUri" validate:"required" description:"URI of the resource to embed"`
}

func declarePrompts(app *vurb.App) {
	vurb.Prompt(app, "test_simple_prompt", func(context.Context, struct{}) (string, error) {
		return "This is a simple prompt for testing.", nil
	}).Title("Simple Test Prompt").Describe("A simple prompt without arguments")

	vurb.Prompt(app, "test_prompt_with_arguments", func(_ context.Context, args PromptArgs) (string, error) {
		return fmt.Sprintf("Prompt with arguments: arg1='%s', arg2='%s'", args.Arg1, args.Arg2), nil
	}).Title("Prompt With Arguments").Describe("A prompt with two required arguments").
		Complete("arg1", prefixCompleter("test", "testValue1", "other")).
		Complete("arg2", prefixCompleter("testValue2"))

	vurb.Prompt(app, "test_prompt_with_embedded_resource", func(_ context.Context, args EmbeddedResourceArgs) ([]*mcp.PromptMessage, error) {
		return []*mcp.PromptMessage{
			{Role: "user", Content: &mcp.EmbeddedResource{Resource: &mcp.ResourceContents{
				URI: args.ResourceURI, MIMEType: "text/plain", Text: "Embedded resource content for testing.",
			}}},
			{Role: "user", Content: &mcp.TextContent{Text: "Please process the embedded resource above."}},
		}, nil
	}).Title("Prompt With Embedded Resource").Describe("A prompt that embeds the resource it is given")

	vurb.Prompt(app, "test_prompt_with_image", func(context.Context, struct{}) ([]*mcp.PromptMessage, error) {
		return []*mcp.PromptMessage{
			{Role: "user", Content: &mcp.ImageContent{Data: pngData, MIMEType: "image/png"}},
			{Role: "user", Content: &mcp.TextContent{Text: "Please analyze the image above."}},
		}, nil
	}).Title("Prompt With Image").Describe("A prompt that includes an image")
}

// prefixCompleter completes to the candidates that start with what the user
// typed.
func prefixCompleter(candidates ...string) vurb.Completer {
	return func(_ context.Context, typed string, _ map[string]string) ([]string, error) {
		var out []string
		for _, c := range candidates {
			if strings.HasPrefix(c, typed) {
				out = append(out, c)
			}
		}
		return out, nil
	}
}

// ---------------------------------------------------------------------------
// Resources
// ---------------------------------------------------------------------------

// TemplateData is what test://template/{id}/data holds.
type TemplateData struct {
	ID           string `json:"id"`
	TemplateTest bool   `json:"templateTest"`
	Data         string `json:"data"`
}

func declareResources(app *vurb.App) {
	vurb.Resource(app, "test://static-text", "static-text", func(context.Context) (vurb.Contents, error) {
		return vurb.Contents{Text: "This is the content of the static text resource."}, nil
	}).Describe("A static text resource for testing").MIMEType("text/plain")

	vurb.Resource(app, "test://static-binary", "static-binary", func(context.Context) (vurb.Contents, error) {
		return vurb.Contents{Blob: pngData}, nil
	}).Describe("A static binary resource (a PNG image) for testing").MIMEType("image/png")

	vurb.Resource(app, WatchedResource, "watched-resource", func(context.Context) (vurb.Contents, error) {
		return vurb.Contents{Text: "Watched resource content at " + time.Now().UTC().Format(time.RFC3339)}, nil
	}).Describe("A resource that changes: subscribers are notified of its updates").MIMEType("text/plain")

	vurb.ResourceTemplate(app, "test://template/{id}/data", "template", func(_ context.Context, vars map[string]string) (vurb.Contents, error) {
		id := vars["id"]
		data, err := json.Marshal(TemplateData{ID: id, TemplateTest: true, Data: "Data for ID: " + id})
		return vurb.Contents{Text: string(data)}, err
	}).Describe("A resource template with parameter substitution").MIMEType("application/json").
		Complete("id", prefixCompleter("123", "456"))
}

// announceUpdates tells subscribers that the watched resource changed, every
// interval, until ctx ends.
func announceUpdates(ctx context.Context, app *vurb.App, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if err := app.NotifyResourceUpdated(ctx, WatchedResource); err != nil && ctx.Err() == nil {
				log.Printf("conformance: notifying %s: %v", WatchedResource, err)
			}
		}
	}
}

// Shared is what the replicas of one server share: a Redis for their
// tasks and sessions, and the key that seals request state.
type Shared struct {
	Addr  string // the Redis's host:port
	Store *redisstate.Store
	Key   []byte
}

// OpenShared connects to the Redis at redisURL (redis://HOST:PORT) and
// decodes stateKey (hex, at least 16 bytes). An empty stateKey derives one
// from redisURL: for tests only, since anyone who knows the URL then knows
// the key.
func OpenShared(redisURL, stateKey string) (*Shared, error) {
	opts, err := redis.ParseURL(redisURL)
	if err != nil {
		return nil, fmt.Errorf("-redis: %w", err)
	}
	// Without it go-redis waits out its ReadTimeout on a Redis that hangs
	// (redisstate's doc).
	opts.ContextTimeoutEnabled = true
	var key []byte
	if stateKey != "" {
		if key, err = hex.DecodeString(stateKey); err != nil {
			return nil, fmt.Errorf("-state-key: %w", err)
		}
		if len(key) < 16 {
			return nil, fmt.Errorf("-state-key: %d bytes; give 32 random bytes in hex", len(key))
		}
	} else {
		sum := sha256.Sum256([]byte("vurb-conformance request state, for tests only: " + redisURL))
		key = sum[:]
	}
	return &Shared{Addr: opts.Addr, Store: redisstate.New(redis.NewClient(opts)), Key: key}, nil
}

func main() {
	addr := flag.String("http", "", "serve streamable HTTP at http://ADDR/mcp instead of stdio")
	redisURL := flag.String("redis", "", "keep tasks and sessions in the Redis at redis://HOST:PORT, shared with the other replicas")
	stateKey := flag.String("state-key", os.Getenv("CONFORMANCE_STATE_KEY"),
		"with -redis: the request-state key every replica shares, 32 bytes in hex (default $CONFORMANCE_STATE_KEY; if empty, one derived from the -redis URL, for tests only)")
	taskLease := flag.Duration("task-lease", 30*time.Second,
		"how long a running task is vouched for without word from the replica running it; past it the task reads as failed")
	flag.Parse()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	var shared *Shared
	var opts []vurb.Option
	if *redisURL != "" {
		var err error
		if shared, err = OpenShared(*redisURL, *stateKey); err != nil {
			log.Fatalf("conformance: %v", err)
		}
		if *stateKey == "" {
			log.Printf("conformance: request-state key derived from the -redis URL: for tests only")
		}
		// One option: sessions, tasks and the bus between replicas in Redis.
		opts = append(opts, vurb.WithReplicas(shared.Store), vurb.WithRequestStateKeys(shared.Key))
		log.Printf("conformance: tasks, sessions and the replicas' bus in Redis at %s", shared.Addr)
	}
	// HAProxy's check (inter 1s fall 2) sees /readyz 503 before the
	// drain closes the port.
	opts = append(opts, vurb.WithDrainDelay(2*time.Second))
	// The tasks' store is the replicas' (no Store given) or the app's own.
	opts = append(opts, vurb.WithTasks(vurb.TaskConfig{Lease: *taskLease}))
	app := NewApp(opts...)
	var serveOpts []vurb.ServeOption
	go announceUpdates(ctx, app, 3*time.Second)

	if *addr == "" {
		if err := app.Serve(ctx, vurb.Stdio()); err != nil {
			log.Fatal(err)
		}
		return
	}

	// Stateful (the default): sessions carry sampling, elicitation and
	// subscriptions. The go-sdk refuses non-loopback Host headers on a
	// loopback listener, which blocks DNS rebinding.
	mux := http.NewServeMux()
	mux.Handle("/mcp", app.HTTPHandler(serveOpts...))
	// vurb's liveness and readiness, for a balancer's health check
	// (scripts/haproxy.cfg) or Kubernetes' probes: readiness turns 503
	// once the drain below starts.
	health := app.HealthHandler()
	mux.Handle("GET /livez", health)
	mux.Handle("GET /readyz", health)
	srv := &http.Server{Addr: *addr, Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		<-ctx.Done()
		// On SIGTERM the app drains: readiness off, calls in flight
		// answered, sessions closed (ending their event streams), running
		// tasks waited for; what remains after 10 s is cut, each task
		// recorded as failed by the shutdown.
		shutdown, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := app.Shutdown(shutdown, srv); err != nil {
			log.Printf("conformance: shutdown: %v", err)
		}
	}()
	log.Printf("conformance: serving MCP at http://%s/mcp", *addr)
	if err := srv.ListenAndServe(); !errors.Is(err, http.ErrServerClosed) {
		log.Fatal(err)
	}
	// ListenAndServe returns as soon as the drain starts: wait for it
	// before exiting.
	<-stopped
}
