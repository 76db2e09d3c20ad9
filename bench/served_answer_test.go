package bench

import (
	"bytes"
	"encoding/json"
	"fmt"
)

var (
	wantTextJSON = []byte(`"text":"` + wantText + `"`)
	isErrorJSON  = []byte(`"isError":true`)
)

// checkAnswer is the load generator's check of a tools/call answer: just
// enough to know it carries the text "golang" and is not a tool error, at
// no cost worth measuring. TestServedAnswers decodes the answer whole.
func checkAnswer(payload []byte) error {
	if !bytes.Contains(payload, wantTextJSON) || bytes.Contains(payload, isErrorJSON) {
		return fmt.Errorf("answer %s, want the text %q", payload, wantText)
	}
	return nil
}

// answerText decodes a JSON-RPC answer to tools/call and returns the text
// of its one content block.
func answerText(payload []byte) (string, error) {
	var msg struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   *struct {
			Message string `json:"message"`
		} `json:"error"`
		Result *struct {
			Content []struct {
				Type string `json:"type"`
				Text string `json:"text"`
			} `json:"content"`
			IsError bool `json:"isError"`
		} `json:"result"`
	}
	if err := json.Unmarshal(payload, &msg); err != nil {
		return "", fmt.Errorf("%v: %s", err, payload)
	}
	switch {
	case msg.JSONRPC != "2.0" || len(msg.ID) == 0:
		return "", fmt.Errorf("not a JSON-RPC answer: %s", payload)
	case msg.Error != nil:
		return "", fmt.Errorf("JSON-RPC error: %s", msg.Error.Message)
	case msg.Result == nil || len(msg.Result.Content) != 1 || msg.Result.Content[0].Type != "text":
		return "", fmt.Errorf("want one text block: %s", payload)
	case msg.Result.IsError:
		return "", fmt.Errorf("tool error: %s", msg.Result.Content[0].Text)
	}
	return msg.Result.Content[0].Text, nil
}
