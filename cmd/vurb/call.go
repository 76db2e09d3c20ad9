package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/manifest"
)

// call runs one tool and prints its result as one document: the
// structured content, pretty-printed, when the tool returns some, its
// content otherwise (text as text, other content summarized); with -json,
// the whole result. key=value arguments are read by the tool's input
// schema (see arguments.typed), which it lists the tools for. A result
// with isError set exits 1; a call the server refuses (an unknown tool)
// exits 4, apart from a server that cannot be reached (3).
func call(ctx context.Context, e *env, args []string) error {
	if len(args) < 2 {
		return usagef("call takes a server, a tool and its arguments")
	}
	src, err := parseSource(args[0], false)
	if err != nil {
		return err
	}
	tool := args[1]
	given, err := parseArguments(args[2:])
	if err != nil {
		return err
	}
	opts := &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			p := req.Params
			total := ""
			if p.Total > 0 {
				total = fmt.Sprintf("/%g", p.Total)
			}
			e.progress.step("%s: %g%s %s", tool, p.Progress, total, p.Message)
		},
		LoggingMessageHandler: func(_ context.Context, req *mcp.LoggingMessageRequest) {
			e.progress.step("%s log [%s]: %v", tool, req.Params.Level, req.Params.Data)
		},
	}
	s, err := connect(ctx, e, src, opts)
	if err != nil {
		return err
	}
	defer s.close()
	var schema map[string]any
	if len(given.loose) > 0 {
		if schema, err = inputSchema(ctx, e, s, tool); err != nil {
			return err
		}
	}
	params := &mcp.CallToolParams{Name: tool, Arguments: given.typed(schema)}
	params.SetProgressToken("vurb-call")
	e.progress.step("calling %s", tool)
	res, err := s.CallTool(ctx, params)
	if err != nil {
		return refused("tools/call "+tool, s.explain(err))
	}
	if e.opts.json {
		if err := writeJSON(e.out, res); err != nil {
			return err
		}
	} else {
		writeResult(e.out, res)
	}
	if res.IsError {
		return noError{fmt.Sprintf("the tool %s answered with an error", tool)}
	}
	return nil
}

// inputSchema is the input schema the server lists for tool, nil when it
// lists no such tool or will not list its tools: the call then goes out
// with strings, for the server to answer. A listing cut short by
// -max-pages or -max-items is searched as far as it went; one the
// transport broke off is an error.
func inputSchema(ctx context.Context, e *env, s *session, tool string) (map[string]any, error) {
	if caps := s.InitializeResult().Capabilities; caps == nil || caps.Tools == nil {
		return nil, nil
	}
	e.progress.step("listing tools, for the input schema of %s", tool)
	tools, err := pages(ctx, e, s, "tools", func(ctx context.Context, cursor string) ([]*mcp.Tool, string, error) {
		r, err := s.ListTools(ctx, &mcp.ListToolsParams{Cursor: cursor})
		if err != nil {
			return nil, "", err
		}
		return r.Tools, r.NextCursor, nil
	})
	for _, t := range tools {
		if t != nil && t.Name == tool {
			return schemaObject(t.InputSchema), nil
		}
	}
	var bound boundError
	if err != nil && !errors.As(err, &bound) && !errors.As(err, new(*jsonrpc.Error)) {
		return nil, err
	}
	if err != nil {
		e.progress.step("%v: the arguments go as strings", err)
	}
	return nil, nil
}

// schemaObject is a tool's input schema as a JSON object: the go-sdk
// decodes a listed one as a map, and anything else is read through JSON.
func schemaObject(schema any) map[string]any {
	if m, ok := schema.(map[string]any); ok {
		return m
	}
	data, err := json.Marshal(schema)
	if err != nil {
		return nil
	}
	var m map[string]any
	_ = json.Unmarshal(data, &m)
	return m
}

// writeResult prints a tool result for a person, as one document: the
// structured content when there is some (a script pipes it to jq), the
// content blocks otherwise. The text, the URIs, the MIME types and the
// JSON are the server's: they are written through manifest.Visible, or
// VisibleLines for text shown as lines (see terminal.go). JSON escapes
// control characters, but not DEL, the C1 controls or the bidi
// characters.
func writeResult(w io.Writer, res *mcp.CallToolResult) {
	if res.StructuredContent != nil {
		structured, err := json.MarshalIndent(res.StructuredContent, "", "  ")
		if err == nil {
			fmt.Fprintln(w, manifest.VisibleLines(string(structured)))
			return
		}
	}
	for _, c := range res.Content {
		switch c := c.(type) {
		case *mcp.TextContent:
			fmt.Fprintln(w, manifest.VisibleLines(c.Text))
		case *mcp.ImageContent:
			fmt.Fprintf(w, "[image %s, %d bytes]\n", visible(c.MIMEType), len(c.Data))
		case *mcp.AudioContent:
			fmt.Fprintf(w, "[audio %s, %d bytes]\n", visible(c.MIMEType), len(c.Data))
		case *mcp.ResourceLink:
			fmt.Fprintf(w, "[resource link %s]\n", visible(c.URI))
		case *mcp.EmbeddedResource:
			if r := c.Resource; r != nil && r.Text != "" {
				fmt.Fprintf(w, "[resource %s]\n%s\n", visible(r.URI), manifest.VisibleLines(r.Text))
			} else if r != nil {
				fmt.Fprintf(w, "[resource %s, %d bytes]\n", visible(r.URI), len(r.Blob))
			}
		default:
			data, _ := json.Marshal(c)
			fmt.Fprintln(w, visible(string(data)))
		}
	}
}
