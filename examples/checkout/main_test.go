package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/matryer/is"
	"github.com/vurb-go/vurb/vurbtest"
)

// Example drives a cart as a model would, and shows what the model reads
// when it calls an action out of order.
func Example() {
	t := &exampleT{}
	defer t.done()
	//docs:region flow
	c := vurbtest.New(t, NewApp())
	cart := c.StartFlow("carts_open", nil)
	text, _ := cart.Refused("carts_pay", map[string]any{"card": "4242"})
	fmt.Println(text)
	fmt.Println(cart.Call("carts_add", map[string]any{"sku": "BOOK-1", "quantity": 2}))
	fmt.Println(cart.Call("carts_checkout", nil))
	fmt.Println(cart.Call("carts_pay", map[string]any{"card": "4242"}))
	fmt.Println(cart.Call("carts_show", nil))
	//docs:endregion
	// Output:
	// [carts_pay] not allowed now: this checkout workflow instance is in state "open", and this action needs state "awaiting_payment". In this state you can call: carts_show; carts_add (it stays in "open"); carts_checkout (moves it to "awaiting_payment"); carts_cancel (moves it to "cancelled")
	// 2 × BOOK-1
	// checked out 2 × BOOK-1; now pay
	// paid with the card ending 4242
	// paid: 2 × BOOK-1
}

// TestAnEmptyCartIsNotCheckedOut: a handler's error leaves the cart where
// it was.
func TestAnEmptyCartIsNotCheckedOut(t *testing.T) {
	is := is.New(t)
	c := vurbtest.New(t, NewApp())
	cart := c.StartFlow("carts_open", nil)
	is.True(strings.Contains(c.CallError("carts_checkout", map[string]any{"cart": cart.Handle()}), "the cart is empty"))
	is.Equal(cart.Call("carts_show", nil), "open: empty")
	is.Equal(cart.State(), "open")
}

// exampleT is the testing.TB of the example: it runs the client's
// cleanups at the end, and a failure prints.
type exampleT struct {
	testing.TB
	cleanups []func()
}

func (*exampleT) Helper()                   {}
func (*exampleT) Name() string              { return "Example" }
func (*exampleT) Logf(string, ...any)       {}
func (*exampleT) Output() io.Writer         { return os.Stdout }
func (t *exampleT) Cleanup(f func())        { t.cleanups = append(t.cleanups, f) }
func (*exampleT) Errorf(f string, a ...any) { fmt.Printf("ERROR: "+f+"\n", a...) }
func (*exampleT) Fatalf(f string, a ...any) { fmt.Printf("FATAL: "+f+"\n", a...); runtime.Goexit() }

func (t *exampleT) done() {
	for i := len(t.cleanups) - 1; i >= 0; i-- {
		t.cleanups[i]()
	}
}
