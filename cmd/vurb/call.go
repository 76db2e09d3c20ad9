package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/manifest"
)

// call runs one tool and prints its result: text as text, structured
// content pretty-printed, other content summarized. A result with isError
// set exits 1.
func call(ctx context.Context, e *env, args []string) error {
	if len(args) < 2 {
		return usagef("call takes a server, a tool and its arguments")
	}
	src, err := parseSource(args[0], false)
	if err != nil {
		return err
	}
	arguments, err := parseArguments(args[2:])
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
			e.progress.step("%s: %g%s %s", args[1], p.Progress, total, p.Message)
		},
		LoggingMessageHandler: func(_ context.Context, req *mcp.LoggingMessageRequest) {
			e.progress.step("%s log [%s]: %v", args[1], req.Params.Level, req.Params.Data)
		},
	}
	s, err := connect(ctx, e, src, opts)
	if err != nil {
		return err
	}
	defer s.close()
	params := &mcp.CallToolParams{Name: args[1], Arguments: arguments}
	params.SetProgressToken("vurb-call")
	e.progress.step("calling %s", args[1])
	res, err := s.CallTool(ctx, params)
	if err != nil {
		return fmt.Errorf("tools/call %s: %w", args[1], s.budget.explain(err))
	}
	if e.opts.json {
		if err := writeJSON(e.out, res); err != nil {
			return err
		}
	} else {
		writeResult(e.out, res)
	}
	if res.IsError {
		return noError{fmt.Sprintf("the tool %s answered with an error", args[1])}
	}
	return nil
}

// parseArguments reads a tool's arguments: one JSON object, or pairs
// key=value (a string) and key:=value (JSON), as httpie takes them.
func parseArguments(args []string) (map[string]any, error) {
	if len(args) == 0 {
		return map[string]any{}, nil
	}
	if len(args) == 1 && strings.HasPrefix(strings.TrimSpace(args[0]), "{") {
		var obj map[string]any
		if err := json.Unmarshal([]byte(args[0]), &obj); err != nil {
			return nil, usagef("the arguments are not a JSON object: %v", err)
		}
		return obj, nil
	}
	out := map[string]any{}
	for _, a := range args {
		if k, raw, ok := strings.Cut(a, ":="); ok && !strings.Contains(k, "=") {
			var v any
			if err := json.Unmarshal([]byte(raw), &v); err != nil {
				return nil, usagef("argument %s: %q is not JSON (use %s=%s for a string)", k, raw, k, raw)
			}
			out[k] = v
			continue
		}
		k, v, ok := strings.Cut(a, "=")
		if !ok || k == "" {
			return nil, usagef("argument %q is not key=value, key:=json or a JSON object", a)
		}
		out[k] = v
	}
	return out, nil
}

// writeResult prints a tool result for a person. The text, the URIs, the
// MIME types and the JSON are the server's: they are written through
// manifest.Visible, or VisibleLines for text shown as lines (see
// terminal.go). JSON escapes control characters, but not DEL, the C1
// controls or the bidi characters.
func writeResult(w io.Writer, res *mcp.CallToolResult) {
	var structured []byte
	if res.StructuredContent != nil {
		structured, _ = json.MarshalIndent(res.StructuredContent, "", "  ")
	}
	for _, c := range res.Content {
		switch c := c.(type) {
		case *mcp.TextContent:
			if structured != nil && sameJSON(c.Text, structured) {
				continue // the text repeats the structured content printed below
			}
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
	if structured != nil {
		fmt.Fprintln(w, manifest.VisibleLines(string(structured)))
	}
}

// sameJSON reports whether text is the JSON document doc, whatever its
// spacing.
func sameJSON(text string, doc []byte) bool {
	var a, b bytes.Buffer
	return json.Compact(&a, []byte(text)) == nil && json.Compact(&b, doc) == nil && bytes.Equal(a.Bytes(), b.Bytes())
}
