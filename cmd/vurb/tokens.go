package main

import (
	"bytes"
	"context"
	"encoding/json"
	"sync"

	"github.com/tiktoken-go/tokenizer/codec"
	"github.com/vurb-go/vurb/manifest"
)

// tokenizerName names the encoding token counts use: o200k_base, the
// encoding of OpenAI's GPT-4o and later models. Other vendors' tokenizers
// are not public; o200k is the common yardstick, and the ratio between
// two tool lists (flat against grouped) barely depends on the encoding.
// Its ranks are compiled into the binary (github.com/tiktoken-go/tokenizer):
// nothing is downloaded at run time.
const tokenizerName = "o200k_base"

var o200k = sync.OnceValue(codec.NewO200kBase)

// countTokens is the number of o200k tokens of s.
func countTokens(s string) int {
	n, err := o200k().Count(s)
	if err != nil {
		return 0
	}
	return n
}

// wireTool is a tool as tools/list sends it: what a model reads.
type wireTool struct {
	Name         string                `json:"name"`
	Title        string                `json:"title,omitempty"`
	Description  string                `json:"description,omitempty"`
	InputSchema  json.RawMessage       `json:"inputSchema"`
	OutputSchema json.RawMessage       `json:"outputSchema,omitempty"`
	Annotations  *manifest.Annotations `json:"annotations,omitempty"`
}

func wireJSON(t manifest.Tool) string {
	data, _ := json.Marshal(wireTool{t.Name, t.Title, t.Description, t.InputSchema, t.OutputSchema, t.Annotations})
	return string(data)
}

// toolTokens counts the tokens of each tool's wire JSON and of the whole
// list as tools/list sends it. It stops when ctx is done: counting is
// the slow part of inspect (seconds for a list of megabytes), and
// -timeout bounds it too.
func toolTokens(ctx context.Context, tools []manifest.Tool) (each []int, total int, err error) {
	wire := make([]json.RawMessage, len(tools))
	each = make([]int, len(tools))
	for i, t := range tools {
		if err := ctx.Err(); err != nil {
			return nil, 0, err
		}
		s := wireJSON(t)
		wire[i] = json.RawMessage(s)
		each[i] = countTokens(s)
	}
	data, _ := json.Marshal(map[string]any{"tools": wire})
	return each, countTokens(string(data)), ctx.Err()
}

// modelViewTokens counts what a model reads of tools: each tool's name,
// description and input schema (compact JSON), the parts a client passes
// to the model; annotations, titles and output schemas stay with the
// client. It stops when ctx is done.
func modelViewTokens(ctx context.Context, tools []manifest.Tool) (int, error) {
	n := 0
	for _, t := range tools {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		n += countTokens(t.Name) + countTokens(t.Description) + countTokens(compactJSON(t.InputSchema))
	}
	return n, nil
}

func compactJSON(raw json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(raw)
	}
	return b.String()
}
