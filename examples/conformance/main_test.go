package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// connect serves NewApp to a real go-sdk client over the in-memory
// transport, speaking the conformance suite's protocol version.
func connect(t *testing.T, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	serverT, clientT := mcp.NewInMemoryTransports()
	ss, err := NewApp().NewServer().Connect(ctx, serverT, nil)
	if err != nil {
		t.Fatal(err)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "conformance-test-client", Version: "1.0.0"}, opts)
	cs, err := client.Connect(ctx, clientT, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
	})
	return cs
}

func call(t *testing.T, cs *mcp.ClientSession, params *mcp.CallToolParams) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), params)
	if err != nil {
		t.Fatalf("%s: %v", params.Name, err)
	}
	return res
}

func textOf(t *testing.T, c mcp.Content) string {
	t.Helper()
	tc, ok := c.(*mcp.TextContent)
	if !ok {
		t.Fatalf("content is %T, not text", c)
	}
	return tc.Text
}

func TestToolsList(t *testing.T) {
	is := is.New(t)
	res, err := connect(t, nil).ListTools(context.Background(), nil)
	is.NoErr(err)
	got := map[string]*mcp.Tool{}
	for _, tool := range res.Tools {
		got[tool.Name] = tool
		is.True(tool.Description != "") // the suite requires a description
		is.True(tool.InputSchema != nil)
	}
	for _, name := range []string{
		"test_simple_text", "test_image_content", "test_audio_content", "test_embedded_resource",
		"test_multiple_content_types", "test_tool_with_logging", "test_tool_with_progress",
		"test_error_handling", "test_sampling", "test_elicitation",
		"test_elicitation_sep1034_defaults", "test_elicitation_sep1330_enums", "json_schema_2020_12_tool",
		"slow_compute", "failing_job", "protocol_error_job", "confirm_delete", "multi_input", "test_tool_with_task", "greet",
	} {
		is.True(got[name] != nil) // every tool the suite calls is listed
	}
	is.Equal(len(res.Tools), 32)
	is.Equal(got["test_simple_text"].Description, "Read-only: Returns a simple text response")
}

func TestContentTools(t *testing.T) {
	is := is.New(t)
	cs := connect(t, nil)

	// The suite calls test_simple_text with no arguments key at all.
	res := call(t, cs, &mcp.CallToolParams{Name: "test_simple_text"})
	is.True(!res.IsError)
	is.Equal(textOf(t, res.Content[0]), "This is a simple text response for testing.")

	res = call(t, cs, &mcp.CallToolParams{Name: "test_image_content", Arguments: map[string]any{}})
	img, ok := res.Content[0].(*mcp.ImageContent)
	is.True(ok)
	is.Equal(img.MIMEType, "image/png")
	is.True(bytes.HasPrefix(img.Data, []byte("\x89PNG\r\n\x1a\n"))) // a real PNG

	res = call(t, cs, &mcp.CallToolParams{Name: "test_audio_content", Arguments: map[string]any{}})
	audio, ok := res.Content[0].(*mcp.AudioContent)
	is.True(ok)
	is.Equal(audio.MIMEType, "audio/wav")
	is.True(bytes.HasPrefix(audio.Data, []byte("RIFF")))

	res = call(t, cs, &mcp.CallToolParams{Name: "test_multiple_content_types", Arguments: map[string]any{}})
	is.Equal(len(res.Content), 3)
	_, isImage := res.Content[1].(*mcp.ImageContent)
	is.True(isImage)
	emb, ok := res.Content[2].(*mcp.EmbeddedResource)
	is.True(ok)
	is.Equal(emb.Resource.URI, "test://mixed-content-resource")

	// A Go error is a tool result with isError, not a protocol error.
	res = call(t, cs, &mcp.CallToolParams{Name: "test_error_handling", Arguments: map[string]any{}})
	is.True(res.IsError)
	is.Equal(textOf(t, res.Content[0]), "[test_error_handling] this tool intentionally returns an error for testing")
}

func TestProgressAndLogging(t *testing.T) {
	is := is.New(t)
	var mu sync.Mutex
	var progress []float64
	var logs []any
	cs := connect(t, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			mu.Lock()
			defer mu.Unlock()
			if req.Params.ProgressToken == "progress-test-1" && req.Params.Total == 100 {
				progress = append(progress, req.Params.Progress)
			}
		},
		LoggingMessageHandler: func(_ context.Context, req *mcp.LoggingMessageRequest) {
			mu.Lock()
			defer mu.Unlock()
			if req.Params.Level == "info" {
				logs = append(logs, req.Params.Data)
			}
		},
	})
	ctx := context.Background()

	params := &mcp.CallToolParams{Name: "test_tool_with_progress", Arguments: map[string]any{}}
	params.SetProgressToken("progress-test-1")
	res := call(t, cs, params)
	is.True(!res.IsError)

	is.NoErr(cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "debug"}))
	res = call(t, cs, &mcp.CallToolParams{Name: "test_tool_with_logging", Arguments: map[string]any{}})
	is.Equal(textOf(t, res.Content[0]), "Tool with logging executed successfully")

	// Notifications are delivered asynchronously: give them a moment.
	deadline := time.Now().Add(2 * time.Second)
	for {
		mu.Lock()
		done := len(progress) == 3 && len(logs) == 3
		mu.Unlock()
		if done || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	is.Equal(progress, []float64{0, 50, 100})
	is.Equal(logs, []any{"Tool execution started", "Tool processing data", "Tool execution completed"})
}

func TestSampling(t *testing.T) {
	is := is.New(t)
	var asked *mcp.CreateMessageParams
	cs := connect(t, &mcp.ClientOptions{
		CreateMessageHandler: func(_ context.Context, req *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			asked = req.Params
			return &mcp.CreateMessageResult{
				Role:       "assistant",
				Content:    &mcp.TextContent{Text: "This is a test response from the client"},
				Model:      "test-model",
				StopReason: "endTurn",
			}, nil
		},
	})
	res := call(t, cs, &mcp.CallToolParams{Name: "test_sampling", Arguments: map[string]any{"prompt": "Test prompt for sampling"}})
	is.True(!res.IsError)
	is.Equal(textOf(t, res.Content[0]), "LLM response: This is a test response from the client")
	is.True(asked != nil) // the client's model was asked
	is.Equal(asked.MaxTokens, int64(100))
	is.Equal(len(asked.Messages), 1)
	is.Equal(asked.Messages[0].Role, mcp.Role("user"))
	is.Equal(textOf(t, asked.Messages[0].Content), "Test prompt for sampling")

	// The prompt argument is required.
	res = call(t, cs, &mcp.CallToolParams{Name: "test_sampling", Arguments: map[string]any{}})
	is.True(res.IsError)
}

func TestElicitation(t *testing.T) {
	is := is.New(t)
	var schemas []map[string]any
	cs := connect(t, &mcp.ClientOptions{
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			// The client sees the schema as generic JSON.
			data, err := json.Marshal(req.Params.RequestedSchema)
			if err != nil {
				return nil, err
			}
			var schema map[string]any
			if err := json.Unmarshal(data, &schema); err != nil {
				return nil, err
			}
			schemas = append(schemas, schema)
			if strings.Contains(req.Params.Message, "enum") {
				return &mcp.ElicitResult{Action: "decline"}, nil
			}
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"username": "testuser", "email": "test@example.com"}}, nil
		},
	})

	res := call(t, cs, &mcp.CallToolParams{Name: "test_elicitation", Arguments: map[string]any{"message": "Please provide your information"}})
	is.True(!res.IsError)
	is.Equal(textOf(t, res.Content[0]), `User provided: {"email":"test@example.com","username":"testuser"}`)
	is.Equal(schemas[0]["required"], []any{"username", "email"})

	res = call(t, cs, &mcp.CallToolParams{Name: "test_elicitation_sep1034_defaults", Arguments: map[string]any{}})
	is.True(!res.IsError)
	props := schemas[1]["properties"].(map[string]any)
	is.Equal(props["age"], map[string]any{"type": "integer", "description": "User age", "default": float64(30)})
	is.Equal(props["status"].(map[string]any)["default"], "active")

	res = call(t, cs, &mcp.CallToolParams{Name: "test_elicitation_sep1330_enums", Arguments: map[string]any{}})
	is.Equal(textOf(t, res.Content[0]), "User declined the request")
	props = schemas[2]["properties"].(map[string]any)
	titled := props["titledMulti"].(map[string]any)["items"].(map[string]any)
	is.Equal(len(titled["anyOf"].([]any)), 3)
}

func TestPrompts(t *testing.T) {
	is := is.New(t)
	cs := connect(t, nil)
	ctx := context.Background()

	list, err := cs.ListPrompts(ctx, nil)
	is.NoErr(err)
	is.Equal(len(list.Prompts), 5)
	for _, p := range list.Prompts {
		is.True(p.Description != "") // the suite requires a description
	}

	res, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "test_prompt_with_arguments",
		Arguments: map[string]string{"arg1": "testValue1", "arg2": "testValue2"}})
	is.NoErr(err)
	is.Equal(textOf(t, res.Messages[0].Content), "Prompt with arguments: arg1='testValue1', arg2='testValue2'")

	_, err = cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "test_prompt_with_arguments",
		Arguments: map[string]string{"arg1": "only one"}})
	is.True(err != nil) // arg2 is required

	res, err = cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "test_prompt_with_image"})
	is.NoErr(err)
	img, ok := res.Messages[0].Content.(*mcp.ImageContent)
	is.True(ok)
	is.Equal(img.MIMEType, "image/png")

	res, err = cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "test_prompt_with_embedded_resource",
		Arguments: map[string]string{"resourceUri": "test://example-resource"}})
	is.NoErr(err)
	emb, ok := res.Messages[0].Content.(*mcp.EmbeddedResource)
	is.True(ok)
	is.Equal(emb.Resource.URI, "test://example-resource")

	done, err := cs.Complete(ctx, &mcp.CompleteParams{
		Ref:      &mcp.CompleteReference{Type: "ref/prompt", Name: "test_prompt_with_arguments"},
		Argument: mcp.CompleteParamsArgument{Name: "arg1", Value: "test"},
	})
	is.NoErr(err)
	is.Equal(done.Completion.Values, []string{"test", "testValue1"})
}

func TestResources(t *testing.T) {
	is := is.New(t)
	cs := connect(t, nil)
	ctx := context.Background()

	list, err := cs.ListResources(ctx, nil)
	is.NoErr(err)
	is.Equal(len(list.Resources), 6) // three, and the SKILL.md of each of the three skills (skills.go)

	res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "test://static-text"})
	is.NoErr(err)
	is.Equal(res.Contents[0].MIMEType, "text/plain")
	is.Equal(res.Contents[0].Text, "This is the content of the static text resource.")

	res, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "test://static-binary"})
	is.NoErr(err)
	is.Equal(res.Contents[0].MIMEType, "image/png")
	is.True(bytes.HasPrefix(res.Contents[0].Blob, []byte("\x89PNG")))

	res, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "test://template/123/data"})
	is.NoErr(err)
	is.Equal(res.Contents[0].URI, "test://template/123/data")
	is.Equal(res.Contents[0].MIMEType, "application/json")
	is.Equal(res.Contents[0].Text, `{"id":"123","templateTest":true,"data":"Data for ID: 123"}`)

	is.NoErr(cs.Subscribe(ctx, &mcp.SubscribeParams{URI: WatchedResource}))
	is.NoErr(cs.Unsubscribe(ctx, &mcp.UnsubscribeParams{URI: WatchedResource}))
}

func TestResourceUpdates(t *testing.T) {
	is := is.New(t)
	app := NewApp()
	updated := make(chan string, 1)
	serverT, clientT := mcp.NewInMemoryTransports()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ss, err := app.NewServer().Connect(ctx, serverT, nil)
	is.NoErr(err)
	client := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, &mcp.ClientOptions{
		ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
			select {
			case updated <- req.Params.URI:
			default:
			}
		},
	})
	cs, err := client.Connect(ctx, clientT, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	is.NoErr(err)
	defer func() { cs.Close(); ss.Wait() }()

	is.NoErr(cs.Subscribe(ctx, &mcp.SubscribeParams{URI: WatchedResource}))
	go announceUpdates(ctx, app, 10*time.Millisecond)
	select {
	case uri := <-updated:
		is.Equal(uri, WatchedResource)
	case <-time.After(2 * time.Second):
		t.Fatal("no notifications/resources/updated for the watched resource")
	}
}

// TestJSONSchema2020Tool: the hand-written schema is listed as written
// (what the json-schema-2020-12 scenario checks) and enforced.
func TestJSONSchema2020Tool(t *testing.T) {
	is := is.New(t)
	cs := connect(t, nil)
	res, err := cs.ListTools(context.Background(), nil)
	is.NoErr(err)
	var listed any
	for _, tool := range res.Tools {
		if tool.Name == "json_schema_2020_12_tool" {
			listed = tool.InputSchema
		}
	}
	var want any
	is.NoErr(json.Unmarshal([]byte(ContactSchema), &want))
	got, _ := json.Marshal(listed)
	wantJSON, _ := json.Marshal(want)
	is.Equal(string(got), string(wantJSON))

	ok := call(t, cs, &mcp.CallToolParams{Name: "json_schema_2020_12_tool",
		Arguments: json.RawMessage(`{"name":"Ada","contactMethod":"phone","phone":"555"}`)})
	is.True(!ok.IsError)
	is.Equal(textOf(t, ok.Content[0]), `Received: {"name":"Ada","contactMethod":"phone","phone":"555"}`)
	bad := call(t, cs, &mcp.CallToolParams{Name: "json_schema_2020_12_tool",
		Arguments: json.RawMessage(`{"name":"Ada","contactMethod":"phone","email":"a@b.c"}`)})
	is.True(bad.IsError)
	is.Equal(textOf(t, bad.Content[0]), "[json_schema_2020_12_tool] invalid arguments: missing property 'phone'")
}

// OpenShared needs no running Redis: the client dials on first use.
func TestOpenShared(t *testing.T) {
	is := is.New(t)
	a, err := OpenShared("redis://127.0.0.1:6399", "")
	is.NoErr(err)
	b, err := OpenShared("redis://127.0.0.1:6399", "")
	is.NoErr(err)
	is.Equal(a.Key, b.Key) // replicas given one URL derive one key
	is.Equal(len(a.Key), 32)
	is.Equal(a.Addr, "127.0.0.1:6399")

	c, err := OpenShared("redis://127.0.0.1:6399", strings.Repeat("ab", 32))
	is.NoErr(err)
	is.Equal(c.Key, bytes.Repeat([]byte{0xab}, 32))

	_, err = OpenShared("redis://127.0.0.1:6399", "zz")
	is.True(err != nil) // not hex
	_, err = OpenShared("redis://127.0.0.1:6399", "abcd")
	is.True(err != nil) // too short
	_, err = OpenShared("http://127.0.0.1:6399", "")
	is.True(err != nil) // not a Redis URL
}
