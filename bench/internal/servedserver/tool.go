package main

import (
	"context"
	"encoding/json"

	"github.com/go-playground/validator/v10"
)

// The served tool is the one every in-process peer declares
// (bench/fixture_test.go and bench/peers_test.go): docs_search over Search,
// answering {"query":"golang","limit":10} with the text "golang". It is
// repeated here because a main package cannot import _test.go files; the
// bench package's TestServedAnswers checks every contender still answers
// the same text.

const toolName = "docs_search"

// Search is the input of docs_search: a required string and an optional
// bounded int.
type Search struct {
	Query string `json:"query" validate:"required" description:"Search text"`
	Limit *int   `json:"limit,omitempty" validate:"omitempty,min=1,max=100" description:"Page size"`
}

// search is the handler every contender runs.
func search(_ context.Context, in Search) (string, error) { return in.Query, nil }

// validate enforces, in the hand-written contenders, the min/max rule vurb
// enforces, so that every contender does the same work.
var validate = validator.New()

// rawSearchSchema is the hand-written input schema of the go-sdk raw
// contender, the same as bench/peers_test.go's.
var rawSearchSchema = json.RawMessage(`{"type":"object","properties":{` +
	`"query":{"type":"string","description":"Search text"},` +
	`"limit":{"type":"integer","minimum":1,"maximum":100,"description":"Page size"}},` +
	`"required":["query"],"additionalProperties":false}`)
