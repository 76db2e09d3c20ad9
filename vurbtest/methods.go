//go:build go1.27

package vurbtest

// From Go 1.27, which allows type parameters on methods, the typed call is
// also a method, as vurb's builders are: c.Call[Out]("projects_list", in)
// reads as what a Go developer types after "c.". Go 1.26 users write
// vurbtest.Call[Out](c, ...).

// Call is vurbtest.Call(c, name, args, opts...): it calls the tool called
// name with args and decodes the result into an Out, failing the test
// unless the call succeeds.
//
//	list := c.Call[ProjectList]("projects_list", ListProjects{WorkspaceID: "w1"})
func (c *Client) Call[Out any](name string, args any, opts ...CallOption) Out {
	c.t.Helper()
	return Call[Out](c, name, args, opts...)
}
