package vurbotel

import (
	"sync"
	"sync/atomic"
)

// otherName is recorded, as gen_ai.tool.name or gen_ai.prompt.name, for a
// name the app is not known to serve; such a request's span is named
// after its method alone. "_OTHER" is the conventions' value for what
// falls outside a known set (as http.request.method has it).
const otherName = "_OTHER"

// maxLearnedNames bounds the names learned from requests (see catalog):
// an app's prompts and the tools it serves outside vurb's engine are a
// few dozen; past the bound, a new one is recorded as otherName.
const maxLearnedNames = 1024

// catalog is the tool and prompt names the app serves: the only ones
// recorded in span names and metric attributes. The name in a request is
// the client's, any string of any length: recorded as sent, 2,100 calls
// of unknown tools with 100 KB names made span names of 100,018 bytes,
// took the heap from 1.1 to 219 MB, and filled the operation histogram's
// 2,000 series, so that a real tool called afterwards had none of its
// own. A name is in the catalog once the app has shown it serves it:
// vurb reports each tool it compiles (observe.ToolRegistered, at Build), and
// a request that succeeded names a tool or prompt the server has (an
// unknown name is a protocol error, with vurb's engine and the go-sdk
// alike), which covers prompts and tools added to the go-sdk server
// directly. A client can thus add no name the app does not serve.
type catalog struct {
	tools, prompts sync.Map // name → struct{}
	learned        atomic.Int32
}

// register adds a tool vurb compiled.
func (c *catalog) register(tool string) { c.tools.Store(tool, struct{}{}) }

// tool returns what to record for a called tool's name: the name if the
// app serves it, otherName if not, "" for no name.
func (c *catalog) tool(name string) string { return known(&c.tools, name) }

// prompt is tool's counterpart for prompts.
func (c *catalog) prompt(name string) string { return known(&c.prompts, name) }

func known(m *sync.Map, name string) string {
	if name == "" {
		return ""
	}
	if _, ok := m.Load(name); ok {
		return name
	}
	return otherName
}

// learn adds a name a request proved the server has, while fewer than
// maxLearnedNames were learned. It reports whether the name is now known.
func (c *catalog) learn(m *sync.Map, name string) bool {
	if _, ok := m.Load(name); ok {
		return true
	}
	if c.learned.Add(1) > maxLearnedNames {
		c.learned.Add(-1)
		return false
	}
	if _, loaded := m.LoadOrStore(name, struct{}{}); loaded {
		c.learned.Add(-1)
	}
	return true
}
