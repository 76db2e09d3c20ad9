package vurb

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/internal/edge/fault"
	"github.com/vurb-go/vurb/internal/engine"
)

// PromptDef is one declared prompt; its methods refine it until the app is
// built.
type PromptDef struct {
	app         *App
	name        string
	title       string
	description string
	arguments   []*mcp.PromptArgument
	get         func(ctx context.Context, args map[string]string) (*mcp.GetPromptResult, error)
	completers  map[string]Completer
	categories  []*Category // the categories it joined (category.go)
}

// Completer suggests values for a prompt or resource-template argument from
// what the user has typed so far (completion/complete). others holds the
// values of the other arguments already chosen.
type Completer func(ctx context.Context, typed string, others map[string]string) ([]string, error)

// Prompt declares a prompt template the client can list and fill in. Args is
// a struct of string (or *string) fields: their json names are the prompt's
// arguments, their description tags describe them and validate:"required"
// makes them required, exactly as for tool inputs. Out is one of:
// *mcp.GetPromptResult (full control), []*mcp.PromptMessage, or string (a
// single user message).
//
// Arguments that fail validation or that the prompt does not declare are a
// protocol error (invalid params) naming the fields.
func Prompt[Args, Out any](a *App, name string, handler func(ctx context.Context, args Args) (Out, error)) *PromptDef {
	a.mustBeMutable()
	if handler == nil {
		panic(fmt.Sprintf("vurb: prompt %q: nil handler", name))
	}
	for _, p := range a.prompts {
		if p.name == name {
			panic(fmt.Sprintf("vurb: prompt %q is already declared", name))
		}
	}
	t := reflect.TypeFor[Args]()
	if t.Kind() != reflect.Struct {
		panic(fmt.Sprintf("vurb: prompt %q: its arguments must be a struct of string fields (got %s)", name, t))
	}
	codec := a.codecFor(t)
	opts := a.decodeOptions()
	p := &PromptDef{app: a, name: name}
	for _, f := range codec.Fields() {
		if f.Type != "string" {
			panic(fmt.Sprintf("vurb: prompt %q: argument %q is a %s; prompt arguments are strings, so use string or *string",
				name, f.Name, f.Type))
		}
		p.arguments = append(p.arguments, &mcp.PromptArgument{Name: f.Name, Title: f.Title, Description: f.Description, Required: f.Required})
	}
	encode := promptEncoder[Out](name)
	p.get = func(ctx context.Context, raw map[string]string) (*mcp.GetPromptResult, error) {
		var data []byte // no arguments at all means {}
		if raw != nil {
			var err error
			if data, err = json.Marshal(raw); err != nil {
				return nil, err
			}
		}
		var args Args
		if err := codec.Decode(data, &args, opts); err != nil {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("prompt %q: invalid arguments: %v", name, err)}
		}
		out, err := handler(ctx, args)
		if err != nil {
			return nil, err
		}
		res := encode(out)
		if res.Description == "" {
			res.Description = p.description
		}
		return res, nil
	}
	a.prompts = append(a.prompts, p)
	return p
}

// promptEncoder picks, at definition, how Out becomes a GetPromptResult.
func promptEncoder[Out any](name string) func(Out) *mcp.GetPromptResult {
	switch any(*new(Out)).(type) {
	case *mcp.GetPromptResult:
		return func(out Out) *mcp.GetPromptResult {
			if r := any(out).(*mcp.GetPromptResult); r != nil {
				return r
			}
			return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{}}
		}
	case []*mcp.PromptMessage:
		return func(out Out) *mcp.GetPromptResult {
			return &mcp.GetPromptResult{Messages: any(out).([]*mcp.PromptMessage)}
		}
	case string:
		return func(out Out) *mcp.GetPromptResult {
			return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{
				{Role: "user", Content: &mcp.TextContent{Text: any(out).(string)}},
			}}
		}
	}
	panic(fmt.Sprintf("vurb: prompt %q: the handler must return *mcp.GetPromptResult, []*mcp.PromptMessage or string (got %s)",
		name, reflect.TypeFor[Out]()))
}

// Describe sets the prompt's description.
func (p *PromptDef) Describe(description string) *PromptDef {
	p.app.mustBeMutable()
	p.description = description
	return p
}

// Title sets the prompt's human-readable title.
func (p *PromptDef) Title(title string) *PromptDef {
	p.app.mustBeMutable()
	p.title = title
	return p
}

// Complete registers a completer for one of the prompt's arguments.
func (p *PromptDef) Complete(argument string, c Completer) *PromptDef {
	p.app.mustBeMutable()
	found := false
	for _, a := range p.arguments {
		found = found || a.Name == argument
	}
	if !found {
		panic(fmt.Sprintf("vurb: prompt %q has no argument %q to complete", p.name, argument))
	}
	if p.completers == nil {
		p.completers = map[string]Completer{}
	}
	p.completers[argument] = c
	return p
}

// register adds the prompt to an SDK server whose plan has runtime rt.
func (p *PromptDef) register(s *mcp.Server, rt *engine.Runtime) {
	bind := "prompt:" + p.name
	s.AddPrompt(&mcp.Prompt{Name: p.name, Title: p.title, Description: p.description, Arguments: p.arguments},
		func(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			var args map[string]string
			o := originOf(ctx, req, nil)
			if req.Params != nil {
				args, o.Answers, o.RequestState, o.Meta = req.Params.Arguments, req.Params.InputResponses, req.Params.RequestState, req.Params.Meta
			}
			ctx, round, err := roundFor(ctx, rt, bind, o, args)
			if err != nil {
				return nil, err
			}
			res, err := p.get(ctx, args)
			if asked, sealed, ok, sealErr := inputRequired(rt, round, err); ok {
				if sealErr != nil {
					return nil, sealErr
				}
				return &mcp.GetPromptResult{InputRequests: asked, RequestState: sealed}, nil
			}
			if err != nil {
				return nil, fault.HandlerError(rt, "prompt "+engine.Truncate(p.name, 128), err)
			}
			return res, nil
		})
}
