package workflow_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/matryer/is"
	"github.com/vurb-go/vurb/workflow"
)

func checkout() *workflow.Machine {
	return workflow.New("checkout", "cart").
		On("cart", "checkout", "payment").
		On("payment", "pay", "paid").
		On("payment", "cancel", "cancelled").
		On("cart", "cancel", "cancelled").
		Final("paid", "cancelled")
}

func TestMachineMovesByItsTransitions(t *testing.T) {
	is := is.New(t)
	m := checkout()
	is.NoErr(m.Check())
	is.Equal(m.States(), []string{"cart", "payment", "paid", "cancelled"})
	is.Equal(m.Events(), []string{"checkout", "pay", "cancel"})
	next, ok := m.Next("cart", "checkout")
	is.True(ok)
	is.Equal(next, "payment")
	_, ok = m.Next("cart", "pay")
	is.True(!ok) // pay before checkout moves nothing
	is.Equal(m.Leaving("payment"), []string{"pay", "cancel"})
	is.True(m.IsFinal("paid"))
	is.True(!m.IsFinal("payment"))
	is.Equal(len(m.Leaving("paid")), 0)
}

// TestMachineDefinitionErrorsSayHowToFixThem: each mistake is named, with
// what to change; all of a machine's mistakes at once.
func TestMachineDefinitionErrorsSayHowToFixThem(t *testing.T) {
	cases := []struct {
		name string
		m    *workflow.Machine
		want []string
	}{
		{"no transition", workflow.New("w", "a").Final("a"), []string{"declares no transition: add one with On(from, event, to)"}},
		{"unreachable", workflow.New("w", "a").On("a", "go", "b").On("c", "go", "b").Final("b"),
			[]string{`no transition reaches the state "c" from the initial state "a"`}},
		{"dead end", workflow.New("w", "a").On("a", "go", "b").On("a", "stop", "c").Final("c"),
			[]string{`the state "b" has no way out and is not final: add a transition from it, or mark it Final`}},
		{"two targets", workflow.New("w", "a").On("a", "go", "b").On("a", "go", "c").Final("b", "c"),
			[]string{`in state "a" the event "go" moves to both "b" and "c"`}},
		{"final with a way out", workflow.New("w", "a").On("a", "go", "b").On("b", "back", "a").Final("b"),
			[]string{`the final state "b" has a way out (On("b", "back", "a"))`}},
		{"no final", workflow.New("w", "a").On("a", "go", "b").On("b", "back", "a"),
			[]string{"has no final state: mark the states an instance ends in with Final"}},
		{"bad words", workflow.New("my flow", "").On("", "go now", "b").Final("b"),
			[]string{`workflow "my flow": the name "my flow" holds " "`, "the initial state is empty", `the event "go now" holds " "`}},
		{"unknown final", workflow.New("w", "a").On("a", "go", "b").Final("b", "z"),
			[]string{`no transition reaches the state "z"`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.m.Check()
			if err == nil {
				t.Fatal("no definition error")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("the error does not say %q:\n%v", w, err)
				}
			}
		})
	}
}

func ExampleMachine() {
	m := workflow.New("approval", "draft").
		On("draft", "submit", "review").
		On("review", "approve", "approved").
		On("review", "reject", "draft").
		Final("approved")
	fmt.Println(m.Check())
	fmt.Println(m.Next("review", "reject"))
	fmt.Println(m.Leaving("review"))
	// Output:
	// <nil>
	// draft true
	// [approve reject]
}
