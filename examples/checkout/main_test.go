package main

import (
	"strings"
	"testing"

	"github.com/matryer/is"
	"github.com/vurb-go/vurb/vurbtest"
)

// TestACartGoesInOrder drives a cart as a model would, and reads what the
// model reads when it calls an action out of order.
func TestACartGoesInOrder(t *testing.T) {
	is := is.New(t)
	//docs:region flow
	c := vurbtest.New(t, NewApp())
	cart := c.StartFlow("carts_open", nil)
	text, allowed := cart.Refused("carts_pay", map[string]any{"card": "4242"})
	is.Equal(text, `[carts_pay] not allowed now: this checkout workflow instance is in state "open", and this action needs state "awaiting_payment". `+
		`In this state you can call: carts_show; carts_add (it stays in "open"); carts_checkout (moves it to "awaiting_payment"); carts_cancel (moves it to "cancelled")`)
	is.Equal(allowed, []string{"carts_show", "carts_add", "carts_checkout", "carts_cancel"})
	is.Equal(cart.Call("carts_add", map[string]any{"sku": "BOOK-1", "quantity": 2}), "2 × BOOK-1")
	is.Equal(cart.Call("carts_checkout", nil), "checked out 2 × BOOK-1; now pay")
	is.Equal(cart.State(), "awaiting_payment")
	is.Equal(cart.Call("carts_pay", map[string]any{"card": "4242"}), "paid with the card ending 4242")
	is.Equal(cart.Call("carts_show", nil), "paid: 2 × BOOK-1")
	//docs:endregion
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
