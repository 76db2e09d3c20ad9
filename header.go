package vurb

import (
	"fmt"
	"slices"

	"github.com/vurb-go/vurb/internal/schema"
)

// Header mirrors the input field (its JSON name) into the HTTP header
// Mcp-Param-<name> for clients of revision 2026-07-28 over streamable
// HTTP: the schema marks the property "x-mcp-header", clients copy the
// argument into the header, and the server refuses a request whose header
// and body disagree, so gateways and load balancers can route on the value
// without reading the body. The field must be a string, number, integer or
// boolean; name is an HTTP token (letters, digits, '-').
func (a *ActionDef) Header(field, name string) *ActionDef {
	a.mustBeMutable()
	if why := checkHeaderName(name); why != "" {
		panic(fmt.Sprintf("vurb: action %q: header name %q: %s", a.name, name, why))
	}
	i := slices.IndexFunc(a.codec.Fields(), func(f schema.Field) bool { return f.Name == field })
	if i < 0 {
		panic(fmt.Sprintf("vurb: action %q has no input field %q to mirror into header %q", a.name, field, name))
	}
	switch t := a.codec.Fields()[i].Type; t {
	case "string", "number", "integer", "boolean":
	default:
		panic(fmt.Sprintf("vurb: action %q: field %q is of type %q; only strings, numbers and booleans can be mirrored into a header",
			a.name, field, t))
	}
	if a.headers == nil {
		a.headers = map[string]string{}
	}
	a.headers[field] = name
	return a
}

func checkHeaderName(name string) string {
	if name == "" {
		return "it is empty"
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-') {
			return fmt.Sprintf("it contains %q; only A-Z, a-z, 0-9 and '-' are allowed", c)
		}
	}
	return ""
}
