//go:build go1.27

package vurbtest_test

import (
	"fmt"
	"testing"

	"github.com/vurb-go/vurb/vurbtest"
)

func ExampleClient_Call() {
	test(func(t testing.TB) {
		c := vurbtest.New(t, newApp())
		list := c.Call[ProjectList]("projects_list", ListProjects{WorkspaceID: "w1"})
		fmt.Println(list.Projects[0].Name)
	})
	// Output:
	// Apollo in w1
}
