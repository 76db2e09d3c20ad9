package manifest

// Kind names one sort of change Diff reports. Whether a change breaks
// clients depends on its kind and, for schema changes, on which side of the
// call it is on: a client writes a tool's input, so narrowing what the
// input accepts breaks it; it reads the output, so widening what the
// output may hold breaks it.
type Kind string

// The kinds of change.
const (
	// Entities appearing and disappearing.
	ToolRemoved     Kind = "tool-removed"     // breaking: calls to it fail
	ToolAdded       Kind = "tool-added"       // compatible
	ActionRemoved   Kind = "action-removed"   // breaking: calls to it fail
	ActionAdded     Kind = "action-added"     // compatible
	PromptRemoved   Kind = "prompt-removed"   // breaking
	PromptAdded     Kind = "prompt-added"     // compatible
	ResourceRemoved Kind = "resource-removed" // breaking (resources and templates)
	ResourceAdded   Kind = "resource-added"   // compatible
	GroupRemoved    Kind = "group-removed"    // compatible: clients see tools, not groups
	GroupAdded      Kind = "group-added"      // compatible

	// Schema changes (inputs and outputs).
	RequiredAdded   Kind = "required-added"   // a new required field, or a field now required
	RequiredRemoved Kind = "required-removed" // a required field now optional
	FieldRemoved    Kind = "field-removed"    // breaking on both sides
	FieldAdded      Kind = "field-added"      // a new optional field
	TypeNarrowed    Kind = "type-narrowed"    // fewer JSON types accepted
	TypeWidened     Kind = "type-widened"     // more JSON types accepted
	TypeChanged     Kind = "type-changed"     // other types: breaking on both sides
	EnumNarrowed    Kind = "enum-narrowed"    // values removed from an enum, or an enum added
	EnumWidened     Kind = "enum-widened"     // values added to an enum, or the enum removed
	RangeNarrowed   Kind = "range-narrowed"   // a bound (minimum, maxLength, ...) tightened or added
	RangeWidened    Kind = "range-widened"    // a bound loosened or removed
	FormatTightened Kind = "format-tightened" // a format or pattern added or changed
	FormatRelaxed   Kind = "format-relaxed"   // a format or pattern removed
	ObjectClosed    Kind = "object-closed"    // additionalProperties now false
	ObjectOpened    Kind = "object-opened"    // additionalProperties no longer false
	SchemaChanged   Kind = "schema-changed"   // a change Diff cannot classify: breaking, review it
	OutputRemoved   Kind = "output-removed"   // breaking: structured output clients read is gone
	OutputAdded     Kind = "output-added"     // compatible
	DefaultChanged  Kind = "default-changed"  // compatible, but callers that omit the field see it

	// Hints and access.
	BecameDestructive  Kind = "became-destructive"  // breaking: clients that run it unasked must not
	BecameWriting      Kind = "became-writing"      // breaking: a read-only tool now writes; clients that run it unasked must not
	TaskRequired       Kind = "task-required"       // breaking: runs only as a task; clients without the tasks extension are refused
	TaskChanged        Kind = "task-changed"        // compatible: now or no longer a task, or no longer only a task
	AnnotationChanged  Kind = "annotation-changed"  // compatible: another hint changed
	ScopeFreeRemoved   Kind = "scope-free-removed"  // breaking: anonymous or scope-less callers are refused
	ScopesAdded        Kind = "scopes-added"        // breaking: callers need more scopes
	ScopesRemoved      Kind = "scopes-removed"      // compatible
	MIMETypeChanged    Kind = "mime-type-changed"   // breaking: readers parse another format
	ArgumentRequired   Kind = "argument-required"   // breaking: a prompt argument added as or made required
	ArgumentRemoved    Kind = "argument-removed"    // breaking
	ArgumentAdded      Kind = "argument-added"      // compatible: a new optional argument
	ArgumentOptional   Kind = "argument-optional"   // compatible: a required argument now optional
	ExpositionChanged  Kind = "exposition-changed"  // compatible in itself; the tool changes it causes are listed
	DescriptionChanged Kind = "description-changed" // compatible
	TitleChanged       Kind = "title-changed"       // compatible
	MetaChanged        Kind = "meta-changed"        // compatible: _meta, icons, annotations of a resource
)

// What presenters keep from clients (presentation.go).
const (
	RedactionRemoved    Kind = "redaction-removed"    // breaking: a value presenters kept from clients now reaches them
	RedactionAdded      Kind = "redaction-added"      // compatible: a value is now redacted or omitted
	PresentationChanged Kind = "presentation-changed" // compatible: presenters, limits, or a marker made an omission (or back)
)

// What workflows hold of clients (workflow.go).
const (
	WorkflowRemoved   Kind = "workflow-removed"   // breaking: its actions no longer move an instance
	WorkflowAdded     Kind = "workflow-added"     // compatible
	WorkflowChanged   Kind = "workflow-changed"   // breaking: its initial state, final states or keying changed
	TransitionRemoved Kind = "transition-removed" // breaking: an event no longer moves an instance
	TransitionAdded   Kind = "transition-added"   // compatible
	GateNarrowed      Kind = "gate-narrowed"      // breaking: an action newly gated, in fewer states, firing another event
	GateWidened       Kind = "gate-widened"       // compatible: an action ungated or runs in more states
)

// What a server card tells before a client connects (card.go).
const (
	CardRemoved     Kind = "card-removed"     // breaking: clients and registries that find the server by it lose it
	CardAdded       Kind = "card-added"       // compatible
	CardChanged     Kind = "card-changed"     // breaking: the card's name changed
	RemoteRemoved   Kind = "remote-removed"   // breaking: a remote gone, or its transport changed
	RemoteAdded     Kind = "remote-added"     // compatible
	RevisionRemoved Kind = "revision-removed" // breaking: a remote no longer speaks a protocol revision
	RevisionAdded   Kind = "revision-added"   // compatible
)
