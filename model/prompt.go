package model

import "slices"

// Prompt is a prompt template a client can list and fill in.
type Prompt struct {
	entity
	arguments []*PromptArgument
	joined    []*Group
}

// Arguments returns the prompt's arguments, in order.
func (p *Prompt) Arguments() []*PromptArgument { return slices.Clone(p.arguments) }

// Parents returns the categories the prompt joined.
func (p *Prompt) Parents() []*Group { return slices.Clone(p.joined) }

// FQN returns the prompt's name: a prompt is a leaf, named alone.
func (p *Prompt) FQN() string { return p.name }

// PromptArgument is one argument of a prompt.
type PromptArgument struct {
	entity
	required bool
}

// Required reports whether a client must give the argument.
func (a *PromptArgument) Required() bool { return a.required }
