package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb"
)

// The tools and the prompt of the suite's input-required scenarios
// (revision 2026-07-28, SEP-2322) and of its stateless-server diagnostics
// (SEP-2575, SEP-2243). Each handler asks with vurb.Ask and friends and is
// written once: a 2026-07-28 client gets input-required results and
// retries, a handshake-era one is asked on its session.

// UserName is the form of the "What is your name?" question.
type UserName struct {
	Name string `json:"name" validate:"required" description:"Your name"`
}

// Confirmation is the form of a yes-or-no question.
type Confirmation struct {
	OK bool `json:"ok" description:"Whether to go on"`
}

// FavoriteColor is the form of the second round's question.
type FavoriteColor struct {
	Color string `json:"color" validate:"required" description:"Your favorite color"`
}

// PromptContext is the form the input-required prompt asks for.
type PromptContext struct {
	Context string `json:"context" validate:"required" description:"The context the prompt should use"`
}

// Region is test_x_mcp_header's input: region travels in a header too.
type Region struct {
	Region string `json:"region,omitempty" description:"Mirrored into the Mcp-Param-Region header"`
	Level  *int   `json:"level,omitempty" description:"Not mirrored"`
}

// roundState is what the stateful input-required tools carry between
// rounds, sealed by vurb.
type roundState struct {
	Step string `json:"step"`
	Name string `json:"name,omitempty"`
}

func declareInputTools(app *vurb.App) {
	tool := func(name string, h func(context.Context, struct{}) (string, error)) {
		vurb.Action(app, "test."+strings.TrimPrefix(name, "test_"), h)
	}
	tool("test_input_required_result_elicitation", func(ctx context.Context, _ struct{}) (string, error) {
		who, err := vurb.Ask[UserName](ctx, "user_name", "What is your name?")
		if err != nil {
			return "", err
		}
		return "Hello, " + who.Name + "!", nil
	})
	tool("test_input_required_result_sampling", func(ctx context.Context, _ struct{}) (string, error) {
		res, err := vurb.AskSampling(ctx, "capital_question", question("What is the capital of France?", 100))
		if err != nil {
			return "", err
		}
		return "The model answered: " + contentText(res.Content), nil
	})
	tool("test_input_required_result_list_roots", func(ctx context.Context, _ struct{}) (string, error) {
		roots, err := vurb.AskRoots(ctx, "client_roots")
		if err != nil {
			return "", err
		}
		return "Roots: " + rootURIs(roots), nil
	})
	tool("test_input_required_result_request_state", func(ctx context.Context, _ struct{}) (string, error) {
		var st roundState
		if _, err := vurb.Carried(ctx, &st); err != nil {
			return "", err
		}
		ok, err := vurb.Ask[Confirmation](ctx, "confirm", "Please confirm")
		if err != nil {
			if errors.Is(err, vurb.ErrInputRequired) {
				return "", errors.Join(err, vurb.Carry(ctx, roundState{Step: "confirm"}))
			}
			return "", err
		}
		if st.Step != "confirm" {
			return "", errors.New("the request state did not come back: send the requestState of the previous round")
		}
		return fmt.Sprintf("state-ok: confirmed=%t", ok.OK), nil
	})
	tool("test_input_required_result_multiple_inputs", func(ctx context.Context, _ struct{}) (string, error) {
		who, errName := vurb.Ask[UserName](ctx, "user_name", "What is your name?")
		greeting, errGreeting := vurb.AskSampling(ctx, "greeting", question("Generate a greeting", 50))
		roots, errRoots := vurb.AskRoots(ctx, "client_roots")
		if err := errors.Join(errName, errGreeting, errRoots, vurb.Carry(ctx, roundState{Step: "all"})); err != nil {
			return "", err
		}
		return fmt.Sprintf("name=%s greeting=%s roots=%s", who.Name, contentText(greeting.Content), rootURIs(roots)), nil
	})
	tool("test_input_required_result_multi_round", func(ctx context.Context, _ struct{}) (string, error) {
		var st roundState
		if _, err := vurb.Carried(ctx, &st); err != nil {
			return "", err
		}
		if st.Name == "" {
			who, err := vurb.Ask[UserName](ctx, "step1", "Step 1: What is your name?")
			if err != nil {
				return "", errors.Join(err, vurb.Carry(ctx, roundState{Step: "step1"}))
			}
			st.Name = who.Name
		}
		color, err := vurb.Ask[FavoriteColor](ctx, "step2", "Step 2: What is your favorite color?")
		if err != nil {
			return "", errors.Join(err, vurb.Carry(ctx, roundState{Step: "step2", Name: st.Name}))
		}
		return fmt.Sprintf("%s likes %s", st.Name, color.Color), nil
	})
	tool("test_input_required_result_tampered_state", func(ctx context.Context, _ struct{}) (string, error) {
		ok, err := vurb.Ask[Confirmation](ctx, "confirm", "Please confirm")
		if err != nil {
			return "", errors.Join(err, vurb.Carry(ctx, roundState{Step: "confirm"}))
		}
		return fmt.Sprintf("state verified: confirmed=%t", ok.OK), nil
	})
	tool("test_input_required_result_capabilities", func(ctx context.Context, _ struct{}) (string, error) {
		// Ask for what the client can answer; skip what it did not declare.
		_, errAsk := vurb.Ask[UserName](ctx, "user_name", "What is your name?")
		_, errSample := vurb.AskSampling(ctx, "greeting", question("Generate a greeting", 50))
		var missing []string
		for _, err := range []error{errAsk, errSample} {
			switch {
			case err == nil:
			case errors.Is(err, vurb.ErrUnsupported):
				missing = append(missing, err.Error())
			default:
				return "", errors.Join(errAsk, errSample)
			}
		}
		return "asked what the client supports; skipped: " + strings.Join(missing, "; "), nil
	})

	// SEP-2575 diagnostics.
	tool("test_missing_capability", func(ctx context.Context, _ struct{}) (string, error) {
		if err := vurb.RequireCapability(ctx, vurb.Sampling); err != nil {
			return "", err // the -32021 error the spec requires
		}
		return "Client declared the sampling capability; tool executed.", nil
	})
	tool("test_streaming_elicitation", func(ctx context.Context, _ struct{}) (string, error) {
		return "stream observed: result frames only, no top-level requests", nil
	})
	tool("test_logging_tool", func(ctx context.Context, _ struct{}) (string, error) {
		//lint:ignore SA1019 the scenario checks that the log is dropped when the client set no level
		_ = vurb.Log(ctx, "info", "test_logging_tool executed")
		return "logged", nil
	})

	// SEP-2243: a parameter mirrored into an HTTP header.
	vurb.Query(app, "test.x_mcp_header", func(_ context.Context, in Region) (string, error) {
		return "region=" + in.Region, nil
	}).Describe("Tests SEP-2243 Mcp-Param-* server-side validation").Header("region", "Region")
}

func declareInputPrompt(app *vurb.App) {
	vurb.Prompt(app, "test_input_required_result_prompt", func(ctx context.Context, _ struct{}) (string, error) {
		c, err := vurb.Ask[PromptContext](ctx, "user_context", "What context should the prompt use?")
		if err != nil {
			return "", err
		}
		return "Use this context: " + c.Context, nil
	}).Describe("A prompt that asks the user for its context first")
}

func question(text string, maxTokens int64) *mcp.CreateMessageParams {
	return &mcp.CreateMessageParams{
		Messages:  []*mcp.SamplingMessage{{Role: "user", Content: &mcp.TextContent{Text: text}}},
		MaxTokens: maxTokens,
	}
}

func contentText(c mcp.Content) string {
	if t, ok := c.(*mcp.TextContent); ok {
		return t.Text
	}
	return fmt.Sprintf("%T", c)
}

func rootURIs(roots []*mcp.Root) string {
	uris := make([]string, len(roots))
	for i, r := range roots {
		uris[i] = r.URI
	}
	return strings.Join(uris, ", ")
}
